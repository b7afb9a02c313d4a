"""Python: pytest (JUnit XML results), ruff, mypy."""

from __future__ import annotations

import ast
import json
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path, PurePosixPath
from typing import Any

from tdd_sandbox.languages.base import Defaults
from tdd_sandbox.languages.perturbing import Expectations, python_tokens
from tdd_sandbox.languages.python.calls import derive_python_calls
from tdd_sandbox.languages.python.discovery import (
    NO_FIXTURE,
    RUNNERS,
    UNDEFINED,
    collected_ids,
    module_names,
    unknown_fixture,
)
from tdd_sandbox.languages.python.driver import PythonDriver
from tdd_sandbox.languages.python.output import PYTEST_SENTINELS, without_runner_noise
from tdd_sandbox.languages.python.policy import check_python
from tdd_sandbox.languages.python.reader import JUDGE_PYTHON, parse_python, python_text
from tdd_sandbox.languages.python.results import STREAM_STATUS, outcome_of
from tdd_sandbox.sandbox.base import WORKDIR, ExecResult
from tdd_sandbox.vocabulary.cases import CallMap, Case
from tdd_sandbox.vocabulary.results import Evidence, Gate, GateKind, TestOutcome, TestStatus
from tdd_sandbox.vocabulary.violation import Violation

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

# Starts from the image's cache of the standard library and pytest (see its Dockerfile);
# `cp -a` keeps the file times mypy checks the cache against. The cache goes afterwards: it
# records the tests' constant types, which can hold their values.
_MYPY = (
    "mkdir -p /tmp/mypy-cache && cp -a /opt/mypy-cache/. /tmp/mypy-cache/ 2>/dev/null; "
    "mypy --cache-dir /tmp/mypy-cache --explicit-package-bases --pretty .; "
    "status=$?; rm -rf /tmp/mypy-cache; exit $status"
)

_RUNNER_CONFIG = frozenset({"pyproject.toml", "setup.cfg", "pytest.ini", "tox.ini", "setup.py"})

_PYPROJECT = """\
[project]
name = "kata"
version = "0.1.0"
requires-python = ">=3.11"

[tool.pytest.ini_options]
testpaths = ["tests"]
pythonpath = ["."]
"""


_SCAFFOLD_TEST = '''\
"""The kata's tests live beside this one, which only proves the toolchain runs."""


def test_scaffold() -> None:
    assert True
'''


class Python(Defaults):
    """The Python plug-in."""

    driver_class = PythonDriver
    sentinel_reports = PYTEST_SENTINELS

    def check_source(
        self, path: str, text: str, *, is_test: bool, tree: Mapping[str, bytes]
    ) -> list[Violation]:
        """The pack's static policy (`policy.py`)."""
        del tree  # a name neither the standard library's nor the image's can only be the kata's own
        return check_python(path, text, is_test=is_test)

    def read_source(self, data: bytes) -> str:
        """As its encoding declaration says (`reader.python_text`)."""
        return python_text(data)

    name = "python"
    title = "Python"
    results_path: str | None = RESULTS
    source_suffixes: tuple[str, ...] = (".py", ".pyi")
    seals_tests = True
    expectations = Expectations(
        python_tokens,
        equal_calls=frozenset({
            "assertEqual", "assertEquals", "assertListEqual", "assertTupleEqual", "assertIs",
            "assertDictEqual", "assertSetEqual", "assertSequenceEqual", "assertMultiLineEqual",
        }),
        truth_calls=frozenset({"assert"}),
        equal_ops=frozenset({"==", "is"}),
        constant_words=frozenset({"None"}),
        bools=("True", "False"),
        chars=False,
    )  # fmt: skip
    # Only what a model can act on and the gates enforce: the harness formats the code
    # itself, mypy does not insist on annotations, and why the syntax is older than the
    # interpreter (the judge parses with the host's Python) is not the model's business. No
    # example import: one naming a kata (`from fizzbuzz import fizzbuzz`) is another kata's
    # noise, and the edit format's worked example shows an import already.
    prompt_note = (
        f"Python 3.13; write Python {JUDGE_PYTHON} syntax. Tests are pytest functions in "
        "tests/test_*.py that import the module from the repository root. Code must pass "
        "`ruff check` and `mypy`."
    )
    collects = (
        "in tests/test_*.py or tests/*_test.py: a test_* function, or a test_* method of a "
        "Test* class without __init__ or of a unittest.TestCase subclass of any name"
    )

    def derive_calls(
        self, cases: Sequence[Case], stub: Mapping[str, bytes], tests: Mapping[str, bytes]
    ) -> CallMap | str:
        """The stub's functions perform the properties (`calls.py`)."""
        return derive_python_calls(cases, stub, tests)

    def track_test(self, path: str, data: bytes) -> tuple[str, bytes]:
        """A track's tests go under tests/, where the scaffold's pytest finds them."""
        return "tests/" + PurePosixPath(path).name, data

    def gates(self) -> tuple[Gate, ...]:
        """ruff format, ruff check, mypy, compile (a syntax check), pytest."""
        return (
            Gate(GateKind.FORMAT, ("ruff", "format", "--check", "--no-cache", ".")),
            Gate(GateKind.LINT, ("ruff", "check", "--no-cache", "--output-format=concise", ".")),
            Gate(GateKind.TYPECHECK, ("sh", "-c", _MYPY)),
            Gate(GateKind.BUILD, ("python3", "-I", "-c", _COMPILE_SCRIPT)),
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

    def is_test_path(self, path: str) -> bool:
        """Files under `tests/`, `test_*.py`, `*_test.py` and `conftest.py` anywhere."""
        pure = PurePosixPath(path)
        return (
            pure.parts[0] == "tests"
            or pure.name == "conftest.py"
            or (
                pure.suffix == ".py"
                and (pure.stem.startswith("test_") or pure.stem.endswith("_test"))
            )
        )

    def is_runner_config(self, path: str) -> bool:
        """Project and pytest configuration, and conftest files."""
        pure = PurePosixPath(path)
        return path in _RUNNER_CONFIG or pure.name == "conftest.py"

    def scaffold(self) -> dict[str, str]:
        """A pyproject with pytest configured and a `tests` package whose one test proves the
        toolchain runs (a repo with no test at all could never be green)."""
        return {
            "pyproject.toml": _PYPROJECT,
            "tests/__init__.py": "",
            "tests/test_scaffold.py": _SCAFFOLD_TEST,
        }

    def detect(self, paths: Iterable[str]) -> bool:
        """A pyproject, setup.py or any `.py` file, in a repo without a Cargo.toml."""
        listed = set(paths)
        if "Cargo.toml" in listed:
            return False
        return bool({"pyproject.toml", "setup.py"} & listed) or any(
            p.endswith(".py") for p in listed
        )

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

    def suggest_paths(self, files: Mapping[str, bytes], slug: str) -> tuple[str, list[str]]:
        """The kata's test module (or `tests/test_<slug>.py`) and the modules it imports."""
        scaffold = set(self.scaffold())
        tests = sorted(
            p for p in files if self.is_test_path(p) and p not in scaffold and p.endswith(".py")
        )
        test_path = tests[0] if tests else f"tests/test_{slug.replace('-', '_')}.py"
        sources: list[str] = []
        for path in tests:
            try:
                tree = parse_python(files[path])
            except (SyntaxError, ValueError):
                continue
            for node in ast.walk(tree):
                names = (
                    [node.module]
                    if isinstance(node, ast.ImportFrom) and node.module
                    else [a.name for a in node.names]
                    if isinstance(node, ast.Import)
                    else []
                )
                for name in names:
                    candidate = name.replace(".", "/") + ".py"
                    top = name.split(".")[0]
                    # The runner's and the standard library's modules are no kata's to write
                    # (Exercism's tests import unittest), unless the repository has its own.
                    theirs = top in ("pytest", "tests") or (
                        top in sys.stdlib_module_names and candidate not in files
                    )
                    if not theirs and candidate not in sources:
                        sources.append(candidate)
        return test_path, sources

    def defines_tests(self, path: str, text: str) -> bool:
        """A module that imports pytest or unittest or defines a top-level `test_*` function."""
        if not path.endswith(".py"):
            return False
        try:
            tree = parse_python(text)
        except (SyntaxError, ValueError):
            return False
        for node in tree.body:
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [alias.name for alias in node.names]
                module = node.module if isinstance(node, ast.ImportFrom) else None
                if module in RUNNERS or RUNNERS & set(names):
                    return True
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
                "test_"
            ):
                return True
        return False

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
