"""The C++ plug-in on captured GoogleTest output and on source text (no Docker)."""

from __future__ import annotations

from pathlib import Path

from tdd_sandbox.grading.evidence import cross_check
from tdd_sandbox.languages.cpp.plugin import CPP
from tdd_sandbox.sandbox.base import ExecResult
from tdd_sandbox.vocabulary.results import TestStatus

# GoogleTest 1.16 (the image's) on a passing, a failing, a skipped and a disabled test.
FIXTURES = Path(__file__).parents[1] / "fixtures" / "cpp"
REPORT = (FIXTURES / "report.xml").read_bytes()
CONSOLE = (FIXTURES / "console.txt").read_text()
NONCE = "0123456789abcdef"


def _result(stdout: str, code: int = 1) -> ExecResult:
    return ExecResult(exit_code=code, stdout=stdout, stderr="", duration_s=0.1)


def test_parses_the_xml_report_and_leaves_disabled_tests_out() -> None:
    outcomes = {o.id: o for o in CPP.parse_results(_result(CONSOLE), REPORT)}
    assert {i: o.status for i, o in outcomes.items()} == {
        "FizzBuzz.One": TestStatus.PASSED,
        "FizzBuzz.Five": TestStatus.FAILED,
        "FizzBuzz.Later": TestStatus.SKIPPED,
    }
    assert 'Which is: "5"' in outcomes["FizzBuzz.Five"].message
    assert CPP.parse_results(_result(""), b"<testsuites")[0].status is TestStatus.ERROR


def test_expected_tests_are_the_test_macros_under_tests() -> None:
    files = {
        "tests/a_test.cpp": b"TEST(A, One) {}\nTEST_F(Fixture, Two) {}\n// TEST(A, Gone) {}\n"
        b'const char* s = "TEST(A, InString)";\nTEST(A, DISABLED_Off) {}\n',
        "kata.cpp": b"TEST(Code, NotATest) {}\n",
    }
    assert CPP.expected_tests(files) == {"A.One", "Fixture.Two", "A.DISABLED_Off"}


def test_paths_scaffold_and_detection() -> None:
    scaffold = {path: text.encode() for path, text in CPP.scaffold().items()}
    assert CPP.detect(scaffold)
    assert CPP.expected_tests(scaffold) == {"Scaffold.Runs"}
    assert CPP.suggest_paths(scaffold, "fizz-buzz") == (
        "tests/fizz_buzz_test.cpp",
        ["kata.hpp", "kata.cpp"],
    )
    assert CPP.is_runner_config(".clang-format")
    assert CPP.is_runner_config("CMakeLists.txt")
    assert CPP.defines_tests("kata.cpp", "#include <gtest/gtest.h>\n")


def _console(nonce: str, lines: list[str], summary: bool = True) -> str:
    tail = ["[==========] 3 tests from 2 test suites ran. (0 ms total)"] if summary else []
    return "\n".join([*lines, *tail, f"@@{nonce} end", ""])


def test_an_honest_guarded_run_agrees_and_hides_the_sentinels() -> None:
    lines = [
        "[       OK ] FizzBuzz.One (0 ms)",
        "[       OK ] TddCheck.P012345 (0 ms)",
        "[  FAILED  ] TddCheck.F6789ab (0 ms)",
    ]
    report = (
        b'<testsuites><testsuite name="x">'
        b'<testcase name="One" classname="FizzBuzz" status="run" result="completed"/>'
        b'<testcase name="P012345" classname="TddCheck" status="run" result="completed"/>'
        b'<testcase name="F6789ab" classname="TddCheck" status="run" result="completed">'
        b"<failure message='x'/></testcase></testsuite></testsuites>"
    )
    result = _result(_console(NONCE, lines))
    evidence = CPP.evidence(result, NONCE)
    assert evidence.ended
    own, code, tamper = cross_check(CPP.parse_results(result, report), evidence, 1)
    assert tamper is None
    assert code == 0
    assert [o.id for o in own] == ["FizzBuzz.One"]


def test_a_forged_report_without_the_sentinels_is_tamper() -> None:
    report = (
        b'<testsuites><testsuite name="x">'
        b'<testcase name="One" classname="FizzBuzz" status="run" result="completed"/>'
        b"</testsuite></testsuites>"
    )
    result = _result(_console(NONCE, ["[       OK ] FizzBuzz.One (0 ms)"]), 0)
    _, _, tamper = cross_check(CPP.parse_results(result, report), CPP.evidence(result, NONCE), 0)
    assert tamper is not None
    assert "TddCheck" in tamper.detail
    unfinished = _result(_console(NONCE, ["[       OK ] FizzBuzz.One (0 ms)"], summary=False))
    assert not CPP.evidence(unfinished, NONCE).ended
