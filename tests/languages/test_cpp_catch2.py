"""Catch2 as the C++ pack reads it: test cases named from the source as Catch2 names them, its
Automake lines as the guard's channel, its XML report."""

from __future__ import annotations

from pathlib import Path

from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.sandbox.base import ExecResult
from tdd_sandbox.vocabulary.results import TestStatus

CPP = get_language("cpp")
LEAP = Path(__file__).resolve().parents[1] / "fixtures" / "exercism" / "cpp" / "exercises"
LEAP = LEAP / "practice" / "leap" / "leap_test.cpp"
NONCE = "0123456789abcdef"


def test_catch2_cases_are_named_as_catch2_names_them() -> None:
    source = (
        b'TEST_CASE("say \\"hi\\"", "[tag]") {}\n'
        b'TEST_CASE("joined " "literals") {}\n'
        b'SCENARIO("a story") {}\n'
        b'// TEST_CASE("commented out") {}\n'
        b'TEST_CASE_METHOD(Fixture, "with a fixture") {}\n'
    )
    found = CPP.expected_tests({"tests/a_test.cpp": source})
    assert found == {'say "hi"', "joined literals", "Scenario: a story", "with a fixture"}
    track = CPP.expected_tests(dict([CPP.track_test("leap_test.cpp", LEAP.read_bytes())]))
    assert len(track) == 5  # those behind EXERCISM_RUN_ALL_TESTS too


def _run(stdout: str, code: int = 42) -> ExecResult:
    return ExecResult(exit_code=code, stdout=stdout, stderr="", duration_s=0.1)


def test_automake_lines_are_the_channel_and_a_test_seen_two_ways_is_a_conflict() -> None:
    lines = (
        ":test-result: PASS one\n:test-result: FAIL two\n:test-result: SKIP three\n"
        ":test-result: PASS two\n"
        f"\n@@{NONCE} end catch2\n"
    )
    evidence = CPP.evidence(_run(lines), NONCE)
    assert evidence.outcomes == {
        "one": TestStatus.PASSED, "two": TestStatus.PASSED, "three": TestStatus.SKIPPED,
    }  # fmt: skip
    assert evidence.conflicts == ("two",)
    assert evidence.ended
    assert evidence.failing_exit == 42
    assert set(evidence.sentinels) == {"TddCheck P012345", "TddCheck F6789ab"}


def test_gtest_lines_in_a_catch2_run_are_not_read() -> None:
    # The end line names the runner the build chose: console lines of the other are output.
    lines = f"[       OK ] Fake.Pass (0 ms)\n:test-result: PASS one\n\n@@{NONCE} end catch2\n"
    assert set(CPP.evidence(_run(lines, 0), NONCE).outcomes) == {"one"}


def test_the_xml_report_gives_each_case_and_what_failed() -> None:
    report = b"""<?xml version="1.0" encoding="UTF-8"?>
<Catch2TestRun name="t">
  <TestCase name="adds"><OverallResult success="true" skips="0"/></TestCase>
  <TestCase name="fails">
    <Expression success="false" type="REQUIRE"><Original>1 + 1 == 3</Original>
      <Expanded>2 == 3</Expanded></Expression>
    <OverallResult success="false" skips="0"/>
  </TestCase>
  <TestCase name="cut short"/>
</Catch2TestRun>"""
    outcomes = CPP.parse_results(_run(""), report)
    assert [(o.id, o.status) for o in outcomes] == [
        ("adds", TestStatus.PASSED), ("fails", TestStatus.FAILED), ("cut short", TestStatus.ERROR),
    ]  # fmt: skip
    assert outcomes[1].message == "REQUIRE( 1 + 1 == 3 ) with 2 == 3"
