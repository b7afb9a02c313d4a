"""Test mode's feedback on tests that fail on a correct implementation: which, and how, never
a value the reference computed."""

from __future__ import annotations

from tdd_sandbox.bench.tester_mode import wrong_on_reference
from tdd_sandbox.grading.acceptance import CaseResult, CaseStatus


def test_the_reference_s_answers_never_reach_the_second_try() -> None:
    # The runner's words quote the reference: a second try copied its values from them and
    # scored as if it had tested the code.
    wrong = [
        CaseResult("test_fizz", CaseStatus.WRONG, "AssertionError: assert 'Fizz' == 'Fuzz'"),
        CaseResult(
            "test_big",
            CaseStatus.WRONG,
            "ZeroDivisionError: 7291 / 0 (the reference returned 7291)",
        ),
        CaseResult("test_slow", CaseStatus.NO_RESULT, "timed out after 10 s at fizzbuzz(15)"),
        CaseResult("test_plain", CaseStatus.WRONG, "expected FizzBuzz, got 15"),
    ]
    said = wrong_on_reference(wrong)
    for value in ("Fizz'", "7291", "15", "FizzBuzz", "10 s"):
        assert value not in said, value
    assert "- test_fizz: an assertion failed" in said
    assert "- test_big: it raised ZeroDivisionError" in said
    assert "- test_slow: it did not run to a result" in said
    assert "- test_plain: an assertion failed" in said
