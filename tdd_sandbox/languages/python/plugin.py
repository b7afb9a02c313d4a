"""Python: pytest (JUnit XML results), ruff, mypy."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import PurePosixPath

from tdd_sandbox.languages.base import Defaults
from tdd_sandbox.languages.perturbing import Expectations
from tdd_sandbox.languages.python.calls import derive_python_calls, raised_errors
from tdd_sandbox.languages.python.discovery import RUNNERS
from tdd_sandbox.languages.python.driver import PythonDriver
from tdd_sandbox.languages.python.policy import check_python
from tdd_sandbox.languages.python.reader import JUDGE_PYTHON, parse_python, python_text
from tdd_sandbox.languages.python.runner import PythonRunner
from tdd_sandbox.languages.python.transcripts import derive_python_transcripts
from tdd_sandbox.languages.renaming import Naming
from tdd_sandbox.languages.tokens import python_tokens
from tdd_sandbox.vocabulary.cases import CallMap, Case
from tdd_sandbox.vocabulary.violation import Violation

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


class Python(PythonRunner, Defaults):
    """The Python plug-in."""

    driver_class = PythonDriver

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
    source_suffixes: tuple[str, ...] = (".py", ".pyi")
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
    naming = Naming(declared_by=frozenset({"def"}), prefix="test_")
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

    def derive_calls(
        self, cases: Sequence[Case], stub: Mapping[str, bytes], tests: Mapping[str, bytes]
    ) -> CallMap | str:
        """The stub's functions perform the properties (`calls.py`)."""
        return derive_python_calls(cases, stub, tests)

    def transcribe_tests(self, cases: Sequence[Case], tests: Mapping[str, bytes]) -> CallMap | str:
        """Each case's test, its assertions' values kept on the host (`transcripts.py`)."""
        return derive_python_transcripts(cases, tests, raised_errors(tests))

    def paired(self, call: str, halves: Sequence[Mapping[str, str]]) -> str | None:
        """The call as a function of the inputs it names, given each half's in turn: a
        Python call names its inputs as variables (`evaluate(instructions)`)."""
        params = ", ".join(halves[0])
        given = [", ".join(half.values()) for half in halves]
        return "[" + ", ".join(f"(lambda {params}: {call})({g})" for g in given) + "]"

    def track_test(self, path: str, data: bytes) -> tuple[str, bytes]:
        """A track's tests go under tests/, where the scaffold's pytest finds them."""
        return "tests/" + PurePosixPath(path).name, data

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


PYTHON = Python()  # the plug-in the registry (`languages.registry`) holds
