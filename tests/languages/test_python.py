from __future__ import annotations

from tdd_sandbox.languages.base import TestStatus, reconcile
from tdd_sandbox.languages.python import PYTHON
from tdd_sandbox.sandbox.base import ExecResult

JUNIT = b"""<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest">
<testcase classname="tests.test_fizz" name="test_one" file="tests/test_fizz.py" line="4"/>
<testcase classname="tests.test_fizz" name="test_buzz" file="tests/test_fizz.py" line="8">
  <failure message="assert '5' == 'Buzz'">trace</failure></testcase>
<testcase classname="tests.test_fizz" name="test_later" file="tests/test_fizz.py" line="12">
  <skipped type="pytest.skip" message="later">skip</skipped></testcase>
<testcase classname="tests.test_fizz.TestMore" name="test_numbers[2]" file="tests/test_fizz.py"
  line="16"/>
<testcase classname="" name="tests.test_broken"><error message="collection failure">x</error>
</testcase>
</testsuite></testsuites>"""

RESULT = ExecResult(exit_code=1, stdout="", stderr="", duration_s=0.1)


def test_parses_junit_into_ids_and_statuses() -> None:
    outcomes = {o.id: o.status for o in PYTHON.parse_results(RESULT, JUNIT)}
    assert outcomes == {
        "tests/test_fizz.py::test_one": TestStatus.PASSED,
        "tests/test_fizz.py::test_buzz": TestStatus.FAILED,
        "tests/test_fizz.py::test_later": TestStatus.SKIPPED,
        "tests/test_fizz.py::TestMore::test_numbers[2]": TestStatus.PASSED,
        "tests.test_broken": TestStatus.ERROR,
    }


def test_missing_or_broken_report() -> None:
    assert PYTHON.parse_results(RESULT, None) == []
    [outcome] = PYTHON.parse_results(RESULT, b"<testsuite")
    assert outcome.status is TestStatus.ERROR


def test_expected_tests_are_read_statically() -> None:
    source = b"""
import os
def test_a(): pass
async def test_b(): pass
def helper(): pass
class TestThing:
    def test_c(self): pass
    def setup_method(self): pass
class Helper:
    def test_not_collected(self): pass
"""
    files = {"tests/test_x.py": source, "tests/helpers.py": b"def test_no(): pass", "a.py": b""}
    assert PYTHON.expected_tests(files) == {
        "tests/test_x.py::test_a",
        "tests/test_x.py::test_b",
        "tests/test_x.py::TestThing::test_c",
    }


def test_an_expected_test_that_did_not_run_is_an_error() -> None:
    outcomes = PYTHON.parse_results(RESULT, JUNIT)
    expected = {"tests/test_fizz.py::test_one", "tests/test_fizz.py::test_gone"}
    expected |= {"tests/test_fizz.py::TestMore::test_numbers"}  # met by its [2] variant
    reconciled = reconcile(outcomes, expected)
    missing = [o for o in reconciled if o.message == "expected test did not run"]
    assert [o.id for o in missing] == ["tests/test_fizz.py::test_gone"]


def test_paths() -> None:
    assert PYTHON.is_test_path("tests/test_a.py")
    assert PYTHON.is_test_path("tests/data/x.json")
    assert PYTHON.is_test_path("pkg/test_b.py")
    assert PYTHON.is_test_path("conftest.py")
    assert not PYTHON.is_test_path("fizzbuzz.py")
    assert PYTHON.is_runner_config("pyproject.toml")
    assert PYTHON.is_runner_config("sub/conftest.py")
    assert not PYTHON.is_runner_config("fizzbuzz.py")


def test_scaffold_configures_pytest() -> None:
    scaffold = PYTHON.scaffold()
    assert 'testpaths = ["tests"]' in scaffold["pyproject.toml"]
    assert 'pythonpath = ["."]' in scaffold["pyproject.toml"]
    assert PYTHON.detect(scaffold)
