"""Python's runner: its gates, the guard around its test command, and what the runner
reports."""

from __future__ import annotations

import ast
import json
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from pathlib import Path, PurePosixPath
from typing import Any

from tdd_sandbox.languages.base import RunnerDefaults
from tdd_sandbox.languages.python.discovery import (
    NO_FIXTURE,
    UNDEFINED,
    collected_ids,
    module_names,
    unknown_fixture,
)
from tdd_sandbox.languages.python.output import PYTEST_SENTINELS, without_runner_noise
from tdd_sandbox.languages.python.reader import parse_python
from tdd_sandbox.languages.python.results import STREAM_STATUS, outcome_of
from tdd_sandbox.sandbox.base import WORKDIR, ExecResult
from tdd_sandbox.vocabulary.results import Evidence, Gate, GateKind, TestOutcome, TestStatus

_GUARD = (Path(__file__).with_name("guard.py")).read_text(encoding="utf-8")


RESULTS = "/tmp/tdd-results/junit.xml"


# Compiles every module in memory (a syntax check, as compileall's), writing no bytecode: the
# tests' bytecode would hold their expected values, and the tests run sealed after this. Isolated,
# so no module of the tree stands in for anything it imports; a fifth of compileall's start-up.
_COMPILE_SCRIPT = """\
import os, sys, traceback
failed = 0
for root, dirs, names in os.walk("."):
    dirs[:] = sorted(d for d in dirs if d != "__pycache__")
    for name in sorted(n for n in names if n.endswith(".py")):
        path = os.path.join(root, name)
        try:
            with open(path, "rb") as source:
                compile(source.read(), path, "exec", dont_inherit=True)
        except (SyntaxError, ValueError, OSError) as error:
            failed = 1
            print(f"*** Error compiling {path!r}...")
            print("".join(traceback.format_exception_only(error)), end="")
sys.exit(failed)
"""


# Starts from the image's cache of the standard library and pytest (see its Dockerfile), copied
# with its file times, which mypy checks the cache against. The cache goes afterwards: it
# records the tests' constant types, which can hold their values. Run by the interpreter rather
# than the `mypy` script, so that a warm one (`preload`) saves mypy's 0.2 s of imports.
_MYPY = """\
import shutil, sys
from mypy.main import main
shutil.copytree("/opt/mypy-cache", "/tmp/mypy-cache", dirs_exist_ok=True)
try:
    main(args=["--cache-dir", "/tmp/mypy-cache", "--explicit-package-bases", "--pretty", "."],
         clean_exit=True)
    status = 0
except SystemExit as end:
    status = end.code
finally:
    shutil.rmtree("/tmp/mypy-cache", ignore_errors=True)
sys.exit(status)
"""


class PythonRunner(RunnerDefaults):
    """pytest under the tool's guard: ruff, mypy and a compile before it, its JUnit XML
    read after; which tests it collects, and why a new one fails through its own fault."""

    sentinel_reports = PYTEST_SENTINELS
    results_path: str | None = RESULTS
    seals_tests = True
    # mypy takes as long as the compile and pytest together: beside them, a green check
    # takes 0.35 s less (an exec per command made a second lane cost more than it saved).
    readers_apart = frozenset({GateKind.TYPECHECK})
    # The compile is a syntax check that writes nothing, and the guard loads the sealed tests
    # from its input: pytest runs nothing the build made.
    build_reads_only = True
    # What the guard, pytest's default plugins and mypy import: most of a test run's 0.3 s, and
    # of a type check's, is importing them (`sandbox/zygote.py`).
    preload: tuple[str, ...] = (
        "pytest", "_pytest.assertion.rewrite", "_pytest.config", "_pytest.main",
        "_pytest.runner", "_pytest.fixtures", "_pytest.python", "_pytest.terminal",
        "_pytest.debugging", "_pytest.unittest", "_pytest.capture", "_pytest.skipping",
        "_pytest.legacypath", "_pytest.tmpdir", "_pytest.monkeypatch", "_pytest.recwarn",
        "_pytest.pastebin", "_pytest.junitxml", "_pytest.doctest", "_pytest.setuponly",
        "_pytest.setupplan", "_pytest.stepwise", "_pytest.warnings", "_pytest.logging",
        "_pytest.reports", "_pytest.python_path", "_pytest.unraisableexception",
        "_pytest.threadexception", "_pytest.faulthandler", "_pytest.helpconfig",
        "_pytest.mark", "_pytest.freeze_support", "_pytest._argcomplete", "unittest", "pdb",
        "readline", "rlcompleter", "faulthandler", "xml.etree.ElementTree", "shutil",
        "mypy.main", "mypy.build", "mypy.nativeparse", "sqlite3", "ast_serialize",
    )  # fmt: skip
    collects = (
        "in tests/test_*.py or tests/*_test.py: a test_* function, or a test_* method of a "
        "Test* class without __init__ or of a unittest.TestCase subclass of any name"
    )

    def gates(self) -> tuple[Gate, ...]:
        """ruff format, ruff check, mypy, compile (a syntax check), pytest."""
        return (
            Gate(GateKind.FORMAT, ("ruff", "format", "--check", "--no-cache", ".")),
            Gate(GateKind.LINT, ("ruff", "check", "--no-cache", "--output-format=concise", ".")),
            Gate(GateKind.TYPECHECK, ("python3", "-I", "-B", "-c", _MYPY)),
            Gate(GateKind.BUILD, ("python3", "-I", "-B", "-c", _COMPILE_SCRIPT)),
            Gate(
                GateKind.TEST,
                (
                    "python3", "-m", "pytest", "-q", "-rN",
                    # No cache and no repo-supplied options: the harness decides how tests run.
                    "-p", "no:cacheprovider", "-o", "addopts=",
                    "-o", "junit_family=xunit1", f"--junitxml={RESULTS}",
                ),
            ),
        )  # fmt: skip

    def format_command(self, path: str) -> tuple[str, ...] | None:
        """`ruff format` over stdin, so the repo's ruff settings for `path` apply."""
        if not path.endswith((".py", ".pyi")):
            return None
        script = 'exec ruff format --no-cache --quiet --stdin-filename "$1" - < "$1"'
        return ("sh", "-c", script, "format", path)

    def expected_tests(self, files: Mapping[str, bytes]) -> frozenset[str]:
        """`test_*` functions and `Test*` class methods in the test modules pytest collects."""
        found: set[str] = set()
        for path, data in files.items():
            name = PurePosixPath(path).name
            if not (path.startswith("tests/") and name.endswith(".py")):
                continue
            if not (name.startswith("test_") or name.endswith("_test.py")):
                continue
            try:
                tree = parse_python(data)
            except (SyntaxError, ValueError):
                continue  # a broken test file shows up as a collection error instead
            found.update(collected_ids(path, tree))
        return frozenset(found)

    def misplaced_import(self, setup: str, test: str) -> str | None:
        """A name the acceptance suite imports `from m import name`, imported by the test from
        another module (`roman_numerals`, where the kata names `roman`)."""
        try:
            homes = {
                alias.name: node.module
                for node in ast.walk(ast.parse(setup))
                if isinstance(node, ast.ImportFrom) and node.module
                for alias in node.names
            }
            tree = ast.parse(test)
        except (SyntaxError, ValueError):
            return None  # an unparsable test is said by the runner instead
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom) or not node.module:
                continue
            for alias in node.names:
                home = homes.get(alias.name)
                if home is not None and node.module != home:
                    return (
                        f"the kata's {alias.name} lives in the module {home}, as the kata says "
                        f"and its acceptance tests import it: `from {home} import "
                        f"{alias.name}`, not from {node.module}"
                    )
        return None

    def test_mistake(self, files: Mapping[str, bytes], outcome: TestOutcome) -> str | None:
        """An argument pytest cannot supply (no fixture of that name), or a NameError on a name
        the test's module never binds (a forgotten import). Arguments are also read from the
        source, since a red test that fails to import never gets as far as its fixtures."""
        path, _, name = outcome.id.partition("::")
        try:
            tree = parse_python(files.get(path, b""))
        except (SyntaxError, ValueError):
            return None
        unknown = unknown_fixture(tree, name, any(p.endswith("conftest.py") for p in files))
        fixture = NO_FIXTURE.search(outcome.message)
        if unknown or fixture:
            arg = unknown or (fixture["name"] if fixture else "")
            return (
                f"the new test takes an argument {arg!r} that pytest cannot supply (no fixture "
                "of that name): a test function takes no arguments"
            )
        match = UNDEFINED.search(outcome.message)
        bound = module_names(tree)
        if match is None or bound is None or match["name"] in bound:
            return None  # raised elsewhere (the code under test), or unknowable (import *)
        return (
            f"the new test fails with NameError: {match['name']!r} is never imported or defined "
            f"in its module, so no implementation can make it pass; import it (from <module> "
            f"import {match['name']})"
        )

    def guard(self, command: tuple[str, ...], nonce: str) -> tuple[str, ...] | None:
        """pytest under the tool's guard (`guard.py`, passed as `-c` source, so no file of
        it exists in the sandbox); None for a command that is not pytest. Isolated (`-I`):
        the guard and pytest load from the image before the snapshot is on the path, so a
        module of the tree named like them (`pytest.py`), a user site or a `PYTHON*`
        variable cannot stand in for them."""
        if command[:3] != ("python3", "-m", "pytest"):
            return None
        return ("python3", "-I", "-B", "-c", _GUARD, nonce, *command[3:])

    def sealed_input(self, files: Mapping[str, bytes], sealed: Sequence[str]) -> bytes | None:
        """The sealed test modules by their path in the sandbox, for the guard, which loads
        them from this before any of the kata's code runs (bytes as latin-1 text: any bytes
        go through JSON unchanged)."""
        sources = {f"{WORKDIR}/{path}": files[path].decode("latin-1") for path in sealed}
        return json.dumps(sources).encode()

    def evidence(self, result: ExecResult, nonce: str) -> Evidence:
        """The guard's stream from the command's stdout."""
        outcomes: dict[str, TestStatus] = {}
        end: dict[str, Any] = {}
        marker = f"@@{nonce} "
        for line in result.stdout.splitlines():
            if not line.startswith(marker):
                continue
            try:
                record = json.loads(line[len(marker) :])
            except ValueError:
                continue
            if record.get("end"):
                end = record
            elif isinstance(record.get("test"), str):
                status = STREAM_STATUS.get(str(record.get("outcome")), TestStatus.ERROR)
                outcomes[record["test"]] = status
        return Evidence(
            outcomes=outcomes,
            ended=bool(end),
            # The same names as python_guard.py gives its sentinels.
            sentinels={
                f"test_check_{nonce[:6]}": TestStatus.PASSED,
                f"test_check_{nonce[6:12]}": TestStatus.FAILED,
            },
            changed=tuple(str(c) for c in end.get("changed") or []),
            foreign=tuple(str(f) for f in end.get("foreign") or []),
        )

    def readable(self, stdout: str) -> str:
        """pytest's output less the guard's parts, the results file's name, progress marks
        and the closing count."""
        return without_runner_noise(super().readable(stdout))

    def parse_results(self, result: ExecResult, report: bytes | None) -> list[TestOutcome]:
        """Outcomes from pytest's JUnit XML (xunit1, which carries the file of each test)."""
        if report is None:
            return []
        try:
            root = ET.fromstring(report)  # noqa: S314 - written by pytest, size-capped on read
        except ET.ParseError as exc:
            return [TestOutcome("<junit>", TestStatus.ERROR, f"unreadable results: {exc}")]
        return [outcome_of(case) for case in root.iter("testcase")]
