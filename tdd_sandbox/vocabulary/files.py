"""The tool's own names in a kata repository, and the one way it writes its records."""

from __future__ import annotations

import os
import threading
from pathlib import Path

TDD_DIR = ".tdd"
"""The tool's folder in a kata repository: run records, never committed."""
TOOL_CONFIG = frozenset({"tdd.yaml", "tdd.yml"})
"""The tool's own settings file names: host configuration, never an agent's to write."""
PROTECTED = TOOL_CONFIG | {"kata.md"}
"""Never an agent's to write: the tool's settings, and the kata (its front matter may allow
policy rules)."""


def write_atomic(path: Path, text: str) -> None:
    """Replace `path` with `text` so that readers see the old content or the new, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    temp.write_text(text, encoding="utf-8")
    temp.replace(path)
