"""The package's floors: a folder imports only from its own floor's folder or from lower
ones, so the judge, the languages and the vocabulary never depend on the engine, the bench or
the CLI above them (issue #23: engine -> execution -> ops -> engine was a loop)."""

from __future__ import annotations

import ast
from pathlib import Path

import tdd_sandbox

FLOORS = (
    "__init__",
    "errors",
    "closing",
    "vocabulary",
    "protocol",
    "settings",
    "sandbox",
    "languages",
    "grading",
    "images",
    "llm",
    "repo",
    "katas",
    "execution",
    "agents",
    "engine",
    "ops",
    "acceptance",
    "bench",
    "cli",
    "__main__",
)
"""Bottom first: the folders (and top-level modules) of tdd_sandbox/, each on its own floor."""

ROOT = Path(tdd_sandbox.__file__).parent


def _floor(parts: list[str]) -> str:
    return parts[0].removesuffix(".py") if parts else "__init__"


def _imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append(node.module)
        elif isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
    return [name for name in found if name.split(".")[0] == "tdd_sandbox"]


def test_every_folder_has_a_floor() -> None:
    folders = {_floor([p.name]) for p in ROOT.iterdir() if p.suffix == ".py" or p.is_dir()}
    assert folders - {"__pycache__"} == set(FLOORS)


def test_no_folder_imports_from_one_above_it() -> None:
    upward = []
    for path in sorted(ROOT.rglob("*.py")):
        source = _floor(list(path.relative_to(ROOT).parts))
        for module in _imports(path):
            target = _floor(module.split(".")[1:2])
            if FLOORS.index(target) > FLOORS.index(source):
                upward.append(f"{path.relative_to(ROOT)} imports {module}")
    assert upward == []
