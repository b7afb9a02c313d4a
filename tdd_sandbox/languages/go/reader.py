"""Reading Go source as the compiler does: its comments, raw strings, strings and runes."""

from __future__ import annotations

import re
from collections.abc import Mapping

GO_LEXEMES = re.compile(
    r"//[^\n]*|/\*.*?\*/|`[^`]*`|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.DOTALL
)
"""Go's comments, raw strings, strings and runes (first match wins at each position, so a
`//` inside a string stays part of the string)."""


_MODULE = re.compile(r'^module\s+"?([^"\s]+)"?', re.MULTILINE)


def module_path(files: Mapping[str, bytes]) -> str:
    """The module path go.mod declares (`kata` when there is none)."""
    match = _MODULE.search(files.get("go.mod", b"").decode("utf-8", "replace"))
    return match.group(1) if match else "kata"
