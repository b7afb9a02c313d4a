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
- pristine references: pytest's internals that decide an outcome, taken before any test
  module is imported and compared after the run, and the hook implementations registered by
  anything but pytest and the guard.

Run as `python3 -I -c <this source> NONCE ARGS...`: it calls `pytest.main(ARGS)` with the
guard. Isolated, the working directory is not on the path until everything above is taken
from the image; then it goes first, as `python3 -m pytest` would have put it.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

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
_TRUSTED = ("_pytest.", "pluggy.", "pytest", "tdd_guard")


def _resolve(module: str, owner: str, attribute: str) -> Any:
    """The object behind `module[.owner].attribute` now (a class's own entry, for methods)."""
    __import__(module)
    found: Any = sys.modules[module]
    if owner:
        return vars(getattr(found, owner)).get(attribute)
    return getattr(found, attribute, None)


_PRISTINE = [_resolve(*watched) for watched in _WATCHED]


def _emit(record: dict[str, Any]) -> None:
    os.write(_OUT, f"\n@@{_NONCE} {json.dumps(record)}\n".encode())


class Guard:
    """The plugin object handed to `pytest.main`."""

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
        """Stream each test's outcome as it is decided."""
        if report.when == "call" or report.outcome != "passed":
            outcome = report.outcome if report.when == "call" else f"{report.when}-{report.outcome}"
            name = report.nodeid.rsplit("::", 1)[-1]
            _emit({"test": name if name in (_PASS, _FAIL) else report.nodeid, "outcome": outcome})

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        """The last word: what changed in pytest's internals, and foreign hooks."""
        changed = [".".join(part for part in watched if part)
                   for watched, before in zip(_WATCHED, _PRISTINE, strict=True)
                   if _resolve(*watched) is not before]  # fmt: skip
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
