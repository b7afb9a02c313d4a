"""Every module imports on its own, first, in a fresh interpreter state: an import cycle
that only the test suite's import order hides would break a user's script or plug-in.

Only a module on an import cycle can fail for being imported first: a module on none has
everything it imports whole before its own code runs. So the modules on cycles (found from
every import statement of the package, at any depth, as a superset of what runs) are each
imported first and alone, and every module is imported once; before, every module was
imported first and alone, a third of the Docker-free tier's time. The language packs are on
none: the package `tdd_sandbox.languages` imports no pack (its registry is a module of its
own), so a pack's module imported first brings its pack and not every other (100 modules
were on cycles, 89 of them the packs', each imported fresh at 65-90 ms).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "tdd_sandbox"
SCRIPTS = ("tdd_sandbox.__main__", "tdd_sandbox.languages.python.guard")
"""Scripts, not modules: the CLI's entry, and the pytest plug-in the guard runs as `-c`
source inside the sandbox (it reads its nonce from argv)."""

_IMPORT = """
import importlib, sys
broken = []
fresh = sys.argv[1] == "fresh"
for name in sys.argv[2:]:
    for loaded in [m for m in sys.modules if fresh and m.startswith("tdd_sandbox")]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except Exception as exc:
        broken.append(f"{name}: {type(exc).__name__}: {exc}")
print("\\n".join(broken))
"""


def modules() -> dict[str, Path]:
    """Every module of the package by its dotted name, scripts and the packs' sample files
    (in folders that are not packages) left out."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        folders = path.parent.relative_to(PACKAGE).parents
        if not all((PACKAGE / folder / "__init__.py").is_file() for folder in folders):
            continue
        if not (path.parent / "__init__.py").is_file():
            continue
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        if name not in SCRIPTS:
            found[name] = path
    return found


def imported(path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules `path` imports anywhere in it, with the packages each import
    runs first (`a.b.c` runs `a` and `a.b`)."""
    named: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            named.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                inner = f"{node.module}.{alias.name}"
                named.add(inner if inner in known else node.module)
    runs = {".".join(n.split(".")[:i]) for n in named for i in range(1, n.count(".") + 2)}
    return {name for name in runs if name in known}


def on_cycles(graph: dict[str, set[str]]) -> list[str]:
    """The modules on an import cycle: members of a strongly connected component of more
    than one (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    members: list[str] = []
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    work.append((step, iter(sorted(graph[step]))))
                elif step in stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = stack[stack.index(node) :]
                del stack[stack.index(node) :]
                if len(component) > 1:
                    members += component
    return sorted(members)


def _cyclic() -> list[str]:
    known = modules()
    return on_cycles({name: imported(path, known) - {name} for name, path in known.items()})


def _import(names: list[str], *, fresh: bool) -> str:
    """What failed to import, each of `names` first in a fresh state or all in one."""
    how = "fresh" if fresh else "once"
    done = subprocess.run(
        [sys.executable, "-c", _IMPORT, how, *names], capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_the_cycle_finder_finds_cycles_and_nothing_else() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set(), "f": {"f"}}
    assert on_cycles(graph) == ["a", "b", "c"]
    assert {"tdd_sandbox.llm.formats", "tdd_sandbox.llm.formats.whole"} <= set(_cyclic())


def test_no_language_pack_is_on_an_import_cycle() -> None:
    # The packs' package imported every pack: any pack module imported first ran it, and it
    # imported that module back, so every pack module was on a cycle.
    assert [name for name in _cyclic() if name.startswith("tdd_sandbox.languages")] == []


def test_every_module_imports() -> None:
    assert _import(sorted(modules()), fresh=False) == ""


def test_every_module_on_an_import_cycle_imports_first_and_alone() -> None:
    names = _cyclic()
    assert names  # the formats' and the settings' packages are on cycles by design
    assert _import(names, fresh=True) == ""
