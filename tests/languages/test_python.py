from __future__ import annotations

from tdd_sandbox.grading.reconcile import reconcile
from tdd_sandbox.languages.python.plugin import PYTHON
from tdd_sandbox.sandbox.base import ExecResult
from tdd_sandbox.vocabulary.results import TestOutcome, TestStatus

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


def test_test_mistakes_are_names_the_module_never_binds() -> None:
    source = (
        b"import os.path\nfrom k import g as h\nX: int = 1\n"
        b"for Y in []:\n    pass\n\n\ndef test_a() -> None:\n    assert f(1)\n"
    )
    files = {"tests/test_k.py": source}

    def mistake(name: str, path: str = "tests/test_k.py") -> str | None:
        message = f"NameError: name '{name}' is not defined"
        return PYTHON.test_mistake(
            files, TestOutcome(f"{path}::test_a", TestStatus.FAILED, message)
        )

    assert mistake("f") is not None
    assert all(mistake(name) is None for name in ("os", "h", "X", "test_a"))
    assert mistake("f", "tests/missing.py") is not None
    failure = TestOutcome("tests/test_k.py::test_a", TestStatus.FAILED, "AssertionError: 1 != 2")
    assert PYTHON.test_mistake(files, failure) is None


def test_a_kata_name_imported_from_another_module_than_the_kata_names_is_a_mistake() -> None:
    setup = "from roman import to_roman"
    said = PYTHON.misplaced_import(setup, "from roman_numerals import to_roman\n")
    assert said is not None
    assert "`from roman import to_roman`, not from roman_numerals" in said
    fine = ("from roman import to_roman\n", "import roman\n", "from helpers import other\n")
    assert all(PYTHON.misplaced_import(setup, test) is None for test in fine)
    assert PYTHON.misplaced_import(setup, "def broken(:\n") is None  # the runner says it
    assert PYTHON.misplaced_import("", "from roman_numerals import to_roman\n") is None


def test_an_argument_no_fixture_supplies_is_a_test_mistake() -> None:
    source = (
        b"import pytest\n\n\n@pytest.fixture\ndef word() -> str:\n    return 'x'\n\n\n"
        b"def test_n(n: int) -> None:\n    pass\n\n\n"
        b"def test_ok(tmp_path, word) -> None:\n    pass\n\n\n"
        b"@pytest.mark.parametrize('m', [1])\ndef test_p(m: int) -> None:\n    pass\n"
    )
    files = {"tests/test_k.py": source}

    def mistake(test: str, extra: dict[str, bytes] | None = None) -> str | None:
        outcome = TestOutcome(f"tests/test_k.py::{test}", TestStatus.ERROR, "ImportError")
        return PYTHON.test_mistake({**files, **(extra or {})}, outcome)

    assert "argument 'n'" in (mistake("test_n") or "")
    assert mistake("test_ok") is None
    assert mistake("test_p") is None
    assert mistake("test_n", {"tests/conftest.py": b""}) is None  # a conftest may define it


def test_unittest_test_cases_of_any_name_are_expected_tests() -> None:
    # Exercism names its classes `LeapTest`, `BobTest`: pytest collects every TestCase
    # subclass whatever its name, so they are expected (they scored 0/0 and the red phase
    # said "no new test found").
    source = b"""
import unittest
from unittest import TestCase
class LeapTest(unittest.TestCase):
    def test_year_not_divisible_by_4(self):
        for year in (2015, 1970):
            with self.subTest(year=year):
                self.assertIs(leap_year(year), False)
    def test_error(self):
        with self.assertRaises(ValueError) as err:
            leap_year(-1)
    def helper(self): pass
class BaseChecks(TestCase):
    def test_shared(self): pass
class MoreChecks(BaseChecks):
    def test_more(self): pass
class NotATest:
    def test_no(self): pass
class TestWithInit:
    def __init__(self): pass
    def test_never_collected(self): pass
"""
    assert PYTHON.expected_tests({"tests/test_leap.py": source}) == {
        "tests/test_leap.py::LeapTest::test_year_not_divisible_by_4",
        "tests/test_leap.py::LeapTest::test_error",
        "tests/test_leap.py::BaseChecks::test_shared",
        "tests/test_leap.py::MoreChecks::test_shared",
        "tests/test_leap.py::MoreChecks::test_more",
    }


def test_a_collection_failure_says_the_error_it_raised() -> None:
    # "collection failure" alone left a model nothing to fix; the traceback's last error
    # line is the reason (a path line left at the top of the module, in the parity run).
    junit = JUNIT.replace(
        b'<error message="collection failure">x</error>',
        b'<error message="collection failure">list_ops.py:1: in &lt;module&gt;\n    list_ops.py'
        b"\nE   NameError: name 'list_ops' is not defined</error>",
    )
    [broken] = [o for o in PYTHON.parse_results(RESULT, junit) if o.id == "tests.test_broken"]
    assert broken.message == "collection failure: NameError: name 'list_ops' is not defined"


# pytest's output as the loop got it from the 0.5B coder's FizzBuzz (issue #44), the guard's
# stream and failing sentinel included.
_GUARDED_RUN = """\
@@9ffcc21d686fc80a {"test": "tests/test_fizzbuzz.py::test_fizzbuzz", "outcome": "failed"}
F
.
F                                                                     [100%]

=================================== FAILURES ===================================
________________________________ test_fizzbuzz _________________________________

>   ???
E   AssertionError: assert '2' == '4'

tests/test_fizzbuzz.py:5: AssertionError
______________________________ test_check_1d686f _______________________________

    def test_check_1d686f():
>       assert 40956 * 49693 == 2035226509
E       assert (40956 * 49693) == 2035226509

/tmp/tdd-guard-9ffcc21d686fc80a/test_9ffcc21d.py:6: AssertionError
---------------- generated xml file: /tmp/tdd-results/junit.xml ----------------
=========================== short test summary info ============================
FAILED tests/test_fizzbuzz.py::test_fizzbuzz - AssertionError: assert '2' == '4'
FAILED /tmp/tdd-guard-9ffcc21d686fc80a/test_9ffcc21d.py::test_check_1d686f - assert
2 failed, 2 passed in 0.06s
"""


def test_a_model_reads_its_own_failures_and_not_the_guard_s() -> None:
    shown = PYTHON.readable(_GUARDED_RUN)
    assert "AssertionError: assert '2' == '4'" in shown
    assert "tests/test_fizzbuzz.py:5: AssertionError" in shown
    assert "FAILED tests/test_fizzbuzz.py::test_fizzbuzz" in shown
    for guard_part in ("@@", "test_check_", "tdd-guard", "40956", "junit.xml"):
        assert guard_part not in shown, guard_part
    assert "short test summary info" in shown  # a section after the sentinel's is kept


def test_a_model_is_not_shown_progress_marks_or_counts_that_include_the_guard_s() -> None:
    # The guard's stream splits pytest's progress line into one mark a line, and pytest's
    # count includes the sentinels: "2 failed, 2 passed" for a suite of one failing test
    # and the scaffold's passing one. The gate's own line above it says "1 failed".
    shown = PYTHON.readable(_GUARDED_RUN)
    lines = shown.splitlines()
    assert not {"F", "."} & set(lines)
    assert not any(line.endswith("[100%]") for line in lines)
    assert "2 failed, 2 passed" not in shown
    assert "E   AssertionError: assert '2' == '4'" in lines
