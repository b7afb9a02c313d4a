"""The package's floors: a folder imports only from its own floor's folder or from lower
ones, so the judge, the languages and the vocabulary never depend on the engine, the bench or
the CLI above them (issue #23: engine -> execution -> ops -> engine was a loop)."""

from __future__ import annotations

import ast
import re
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
    "forge",
    "katas",
    "execution",
    "acceptance",
    "agents",
    "engine",
    "ops",
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


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _graph() -> dict[str, set[str]]:
    """Each module's imports of other modules of the package, made anywhere in it (a function's
    own import included: deferring an import hides a loop, it does not break it)."""
    modules = {_module(path): path for path in ROOT.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                named = {f"{node.module}.{alias.name}" for alias in node.names}
                targets |= (named & modules.keys()) or {node.module}
            elif isinstance(node, ast.Import):
                targets |= {alias.name for alias in node.names}
        graph[name] = {t for t in targets if t in modules and t != name and not
                       name.startswith(t + ".")}  # fmt: skip
    return graph


def _loops(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    loops: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while (member := stack.pop()) != node:
                group.append(member)
            if group:
                loops.append(sorted([node, *group]))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return loops


def test_no_module_imports_one_that_imports_it_back() -> None:
    # bench.runner and bench.cluster did, each through a function's own import.
    assert _loops(_graph()) == []


def test_a_loop_is_found_however_deep_the_import() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _loops(graph) == [["a", "b", "c"]]


MOST_LINES = 300
"""A module past this is more than one noun (STYLE.md): split it by who uses its parts."""
MOST_PLUGIN_LINES = 200
"""A pack's plug-in composes its parts (runner, reader, policy, driver): its own facts only."""


def test_no_module_is_longer_than_one_noun() -> None:
    lengths = {
        path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in ROOT.rglob("*.py")
    }
    assert {path: n for path, n in lengths.items() if n > MOST_LINES} == {}
    plugins = {path: n for path, n in lengths.items() if path.endswith("/plugin.py")}
    assert len(plugins) >= 6
    assert {path: n for path, n in plugins.items() if n > MOST_PLUGIN_LINES} == {}


def test_the_design_notes_list_the_floors_as_they_are() -> None:
    design = (ROOT.parent / "docs" / "design.md").read_text(encoding="utf-8")
    listed = design.split("Floors, bottom first:", 1)[1].split(". ", 1)[0]
    folders = [name for name in FLOORS if (ROOT / name).is_dir()]
    assert re.findall(r"`(\w+)`", listed) == folders
