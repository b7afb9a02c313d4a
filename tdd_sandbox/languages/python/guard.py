"""The pytest guard: the tool's own plugin, handed to pytest on the command line (no file of it
exists where a model could change it), for the Python test gate.

The kata's code runs in pytest's process, so pytest's own results could be forged from inside
(patched internals, a rewritten results file, `os._exit(0)`). The guard adds evidence the host
checks against pytest's report:

- a live stream: each test's outcome written as it happens, behind a per-run nonce, to a
  private copy of the real stdout (a pipe to the host: what was written cannot be unwritten
  later, as a results file can);
- sentinels: two tests with unpredictable names, one that must pass and one that must fail;
  a runner patched to pass everything passes the second;
- pristine references: pytest's internals that decide an outcome, the assertion machinery
  tests call (unittest's `TestCase` and its context managers, pytest's `raises` and
  `approx`) and the builtins, taken before any test module is imported and compared after
  each test and after the run (a replacement made by any route, named in the text or not, is
  seen), and the hook implementations registered by anything but pytest and the guard;
- sealed tests: when the test modules come on standard input (their files are then
  unreadable to this process), they are compiled from it, their asserts rewritten as pytest
  would, before any of the kata's code runs, and imported from that alone: no route through
  the file system leads the code under test to their text.

Run as `python3 -I -c <this source> NONCE ARGS...`: it calls `pytest.main(ARGS)` with the
guard. Isolated, the working directory is not on the path until everything above is taken
from the image; then it goes first, as `python3 -m pytest` would have put it.
"""

from __future__ import annotations

import ast
import builtins
import importlib.abc
import importlib.machinery
import json
import os
import stat
import sys
import types
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from _pytest.assertion.rewrite import rewrite_asserts

_NONCE = sys.argv[1]
_ARGS = sys.argv[2:]
del sys.argv[1:]  # the kata's code sees no nonce in the arguments
_OUT = os.dup(1)  # before pytest's capture swaps fd 1
_SENTINEL_DIR = Path(f"/tmp/tdd-guard-{_NONCE}")
_PASS = f"test_check_{_NONCE[:6]}"
_FAIL = f"test_check_{_NONCE[6:12]}"
_WATCHED = (
    ("_pytest.python", "", "pytest_pyfunc_call"),
    ("_pytest.python", "Function", "runtest"),
    ("_pytest.runner", "", "call_and_report"),
    ("_pytest.runner", "", "call_runtest_hook"),
    ("_pytest.runner", "", "pytest_runtest_makereport"),
    ("_pytest.runner", "CallInfo", "from_call"),
    ("_pytest.reports", "TestReport", "from_item_and_call"),
    ("_pytest.junitxml", "LogXML", "pytest_runtest_logreport"),
    ("_pytest.junitxml", "LogXML", "pytest_sessionfinish"),
    ("_pytest.main", "", "pytest_runtestloop"),
)
# Classes whose every own entry is watched: what a test's assertion calls to decide, and
# what reports a unittest test's outcome to pytest. (module, class); absent ones are skipped.
_WATCHED_CLASSES = (
    ("unittest.case", "TestCase"),
    ("unittest.case", "_AssertRaisesBaseContext"),
    ("unittest.case", "_AssertRaisesContext"),
    ("unittest.case", "_AssertWarnsContext"),
    ("_pytest.unittest", "TestCaseFunction"),
    ("_pytest.python_api", "RaisesContext"),
    ("_pytest.raises", "RaisesExc"),
    ("_pytest.python_api", "ApproxBase"),
    ("_pytest.python_api", "ApproxScalar"),
)
_TRUSTED = ("_pytest.", "pluggy.", "pytest", "tdd_guard")


def _resolve(module: str, owner: str, attribute: str) -> Any:
    """The object behind `module[.owner].attribute` now (a class's own entry, for methods)."""
    __import__(module)
    found: Any = sys.modules[module]
    if owner:
        return vars(getattr(found, owner)).get(attribute)
    return getattr(found, attribute, None)


def _references() -> dict[str, Any]:
    """Every watched object as it is now, by a name for people."""
    found = {".".join(part for part in watched if part): _resolve(*watched) for watched in _WATCHED}
    for module, owner in _WATCHED_CLASSES:
        try:
            __import__(module)
        except ImportError:
            continue
        cls = getattr(sys.modules[module], owner, None)
        if isinstance(cls, type):
            # What it does, not what it holds: pytest keeps flags of its own on these classes.
            found |= {
                f"{owner}.{name}": value
                for name, value in list(vars(cls).items())
                if not isinstance(value, bool | int | float | str | bytes | type(None))
            }
    found |= {f"builtins.{name}": value for name, value in list(vars(builtins).items())}
    return found


def _changed(pristine: dict[str, Any]) -> set[str]:
    """The watched names whose object is not the one taken first, or that came or went."""
    now = _references()
    return {
        name for name in pristine.keys() | now.keys() if pristine.get(name) is not now.get(name)
    }


_PRISTINE = _references()


class Sealed(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports the sealed test modules from their compiled code, found where the path
    finder finds their files (which this process cannot read). No `get_source`: nothing
    hands their text back."""

    def __init__(self, modules: dict[str, types.CodeType | Exception]) -> None:
        self._modules = modules
        paths = [Path(path) for path in modules]
        self._names = {p.parent.name if p.name == "__init__.py" else p.stem for p in paths}

    @classmethod
    def from_input(cls) -> Sealed:
        """The modules sent on standard input (a pipe; nothing else is read)."""
        if not stat.S_ISFIFO(os.fstat(0).st_mode):
            return cls({})
        sources: dict[str, str] = json.loads(sys.stdin.buffer.read() or b"{}")
        modules: dict[str, types.CodeType | Exception] = {}
        for path, text in sources.items():
            source = text.encode("latin-1")
            try:
                tree = ast.parse(source, filename=path)
                rewrite_asserts(tree, source, path, None)
                modules[path] = compile(tree, path, "exec", dont_inherit=True)
            except (SyntaxError, ValueError) as exc:
                modules[path] = exc  # raised on import, as reading the file would have
        return cls(modules)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        """A sealed module's spec, with this as its loader; None for any other."""
        del target
        if fullname.rpartition(".")[2] not in self._names:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.origin is None:
            return None
        key = str(Path(spec.origin).absolute())
        if key not in self._modules:
            return None
        spec.loader, spec.loader_state = self, key
        return spec

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        """The default module."""
        del spec

    def exec_module(self, module: types.ModuleType) -> None:
        """Run the module's compiled code (or raise why it did not compile)."""
        assert module.__spec__ is not None
        code = self._modules[module.__spec__.loader_state]
        if isinstance(code, Exception):
            raise code
        exec(code, module.__dict__)  # noqa: S102 - the kata's tests, as pytest would run them

    def go_first(self) -> None:
        """Ahead of every other finder (pytest's assertion rewriter would read the files)."""
        if self._modules:
            if self in sys.meta_path:
                sys.meta_path.remove(self)
            sys.meta_path.insert(0, self)


_SEALED = Sealed.from_input()


def _emit(record: dict[str, Any]) -> None:
    os.write(_OUT, f"\n@@{_NONCE} {json.dumps(record)}\n".encode())


class Guard:
    """The plugin object handed to `pytest.main`."""

    def __init__(self) -> None:
        self.changed: set[str] = set()

    @pytest.hookimpl(tryfirst=True)
    def pytest_load_initial_conftests(self) -> None:
        """The sealed modules' finder first, before the first conftest is imported."""
        _SEALED.go_first()

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(
        self, session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
    ) -> None:
        """Add the two sentinels, from a module in a directory only this run knows."""
        _SENTINEL_DIR.mkdir(parents=True, exist_ok=True)
        module = _SENTINEL_DIR / f"test_{_NONCE[:8]}.py"
        a, b = int(_NONCE[:4], 16), int(_NONCE[4:8], 16)
        module.write_text(
            f"def {_PASS}():\n    assert {a} + {b} == {a + b}\n\n\n"
            f"def {_FAIL}():\n    assert {a} * {b} == {a * b + 1}\n"
        )
        collector = pytest.Module.from_parent(session, path=module)
        items.extend(item for item in collector.collect() if isinstance(item, pytest.Item))

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Stream each test's outcome as it is decided; see what its run changed (code that
        puts back what it replaced before the run ends is seen all the same)."""
        if report.when == "call":
            self.changed |= _changed(_PRISTINE)
        if report.when == "call" or report.outcome != "passed":
            outcome = report.outcome if report.when == "call" else f"{report.when}-{report.outcome}"
            name = report.nodeid.rsplit("::", 1)[-1]
            _emit({"test": name if name in (_PASS, _FAIL) else report.nodeid, "outcome": outcome})

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        """The last word: what changed in pytest's internals, and foreign hooks."""
        changed = sorted(self.changed | _changed(_PRISTINE))
        foreign = sorted(
            {
                getattr(impl.plugin, "__name__", type(impl.plugin).__module__)
                for hook in ("pytest_runtest_makereport", "pytest_pyfunc_call",
                             "pytest_runtest_call", "pytest_report_teststatus",
                             "pytest_runtest_logreport", "pytest_runtest_protocol")
                for impl in getattr(session.config.hook, hook).get_hookimpls()
                if not str(getattr(impl.plugin, "__name__", type(impl.plugin).__module__))
                .startswith(_TRUSTED) and impl.plugin is not self
            }
        )  # fmt: skip
        _emit({"end": True, "exitstatus": int(exitstatus), "changed": changed, "foreign": foreign})


sys.path.insert(0, str(Path.cwd()))
sys.exit(pytest.main(_ARGS, plugins=[Guard()]))
