"""A case performed by a script of operations is judged step by step on the host: each
step's outcome against what the data says of its operation. The attacks are buffers that
answer the values right but never fail (or always do), which a judge of the values alone,
or of the case's own `expected` alone, would pass."""

from __future__ import annotations

from typing import Any

import pytest

from tdd_sandbox.grading.acceptance import CaseStatus, grade
from tdd_sandbox.grading.equality import plain_equal
from tdd_sandbox.vocabulary.cases import Case, Observed

BUFFER: list[dict[str, Any]] = [
    {"operation": "read", "should_succeed": False},
    {"operation": "write", "item": 1, "should_succeed": True},
    {"operation": "clear"},
    {"operation": "write", "item": 2, "should_succeed": True},
    {"operation": "read", "should_succeed": True, "expected": 2},
]
HONEST: list[dict[str, Any]] = [
    {"error": "empty", "error_type": "BufferIOException"},
    {"value": None},
    {"value": None},
    {"value": None},
    {"value": 2},
]
NEVER_FAILS: list[dict[str, Any]] = [
    {"value": None},
    {"value": None},
    {"value": None},
    {"value": None},
    {"value": 2},
]
ALWAYS_FAILS: list[dict[str, Any]] = [{"error": "no", "error_type": "BufferIOException"}] * 5
CLEAR_FAILS = [*HONEST[:2], {"error": "no", "error_type": "Unsupported"}, *HONEST[3:]]
WRONG_VALUE = [*HONEST[:4], {"value": 1}]


def _case(operations: list[dict[str, Any]], expected: Any = None) -> Case:
    return Case("c", "a script", "run", {"capacity": 1, "operations": operations},
                {} if expected is None else expected)  # fmt: skip


def _status(case: Case, answer: Any, **options: Any) -> CaseStatus:
    report = grade([case], {"c": Observed(value=answer)}, scripts=frozenset({"run"}), **options)
    return report.results[0].status


def _judged_by_values(case: Case, answer: list[dict[str, Any]]) -> bool:
    """A judge that holds each step's answer against its `expected`, and nothing else."""
    return all(
        "error" not in outcome and plain_equal(op["expected"], outcome["value"])
        for op, outcome in zip(case.input["operations"], answer, strict=True)
        if "expected" in op
    )


def test_every_step_of_an_honest_script_passes() -> None:
    assert _status(_case(BUFFER), HONEST) is CaseStatus.PASSED


@pytest.mark.parametrize("answer", [NEVER_FAILS, ALWAYS_FAILS, CLEAR_FAILS, WRONG_VALUE])
def test_a_step_that_departs_from_its_operation_fails_the_case(answer: Any) -> None:
    assert _status(_case(BUFFER), answer) is CaseStatus.WRONG


def test_a_buffer_that_never_fails_beats_a_judge_of_the_values_alone() -> None:
    assert _judged_by_values(_case(BUFFER), NEVER_FAILS)  # the attack, against the naive judge
    report = grade([_case(BUFFER)], {"c": Observed(value=NEVER_FAILS)}, scripts=frozenset({"run"}))
    assert report.results[0].status is CaseStatus.WRONG
    assert "step 1 (read): expected it to fail" in report.results[0].detail


def test_a_failing_step_must_fail_with_one_of_the_kata_s_errors() -> None:
    other = [{"error": "boom", "error_type": "NullPointerException"}, *HONEST[1:]]
    assert _status(_case(BUFFER), other, error_types=frozenset({"BufferIOException"})) is (
        CaseStatus.WRONG
    )
    assert _status(_case(BUFFER), HONEST, error_types=frozenset({"BufferIOException"})) is (
        CaseStatus.PASSED
    )


@pytest.mark.parametrize(
    ("expected", "last", "messages", "status"),
    [
        (100, {"value": 100}, True, CaseStatus.PASSED),
        (100, {"value": 99}, True, CaseStatus.WRONG),
        ({"error": "account closed"}, {"error": "account closed"}, True, CaseStatus.PASSED),
        ({"error": "account closed"}, {"error": "closed!"}, True, CaseStatus.WRONG),
        ({"error": "account closed"}, {"error": "closed!"}, False, CaseStatus.PASSED),
        ({"error": "account closed"}, {"value": 100}, True, CaseStatus.WRONG),
    ],
)
def test_the_case_s_own_expected_is_the_last_step_s(
    expected: Any, last: dict[str, Any], messages: bool, status: CaseStatus
) -> None:
    ops: list[dict[str, Any]] = [
        {"operation": "open"},
        {"operation": "deposit", "amount": 100},
        {"operation": "balance"},
    ]
    answer = [{"value": None}, {"value": None}, last]
    assert _status(_case(ops, expected), answer, messages=messages) is status


@pytest.mark.parametrize(
    "answer",
    [HONEST[:4], [*HONEST[:4], {"value": 2, "error": "x"}], [*HONEST[:4], "2"], {"value": 2}],
    ids=["a_step_short", "both", "not_a_record", "not_a_list"],
)
def test_outcomes_that_are_not_one_per_step_fail(answer: Any) -> None:
    assert _status(_case(BUFFER), answer) is CaseStatus.WRONG


def test_a_script_that_did_not_run_fails_and_one_with_no_result_is_no_result() -> None:
    case = _case(BUFFER)
    scripts = frozenset({"run"})
    made_failed = grade([case], {"c": Observed(error="no", error_type="E")}, scripts=scripts)
    assert made_failed.results[0].status is CaseStatus.WRONG
    crashed = grade([case], {"c": Observed(failure="timeout")}, scripts=scripts)
    assert crashed.results[0].status is CaseStatus.NO_RESULT


def test_an_error_of_a_kind_the_tests_expect_counts_as_that_kind_or_as_its_base() -> None:
    # Python's circular-buffer: the tests expect `BufferError`, the reference raises its
    # subclass `BufferEmptyException`.
    kinds = frozenset({"BufferError"})
    empty = {"error": "empty", "error_type": "BufferEmptyException", "error_kinds": ["BufferError"]}
    assert _status(_case(BUFFER), [empty, *HONEST[1:]], error_types=kinds) is CaseStatus.PASSED
    other = {**empty, "error_kinds": ["OSError", "Exception"]}
    assert _status(_case(BUFFER), [other, *HONEST[1:]], error_types=kinds) is CaseStatus.WRONG
    case = Case("c", "-", "read", {}, {"error": "empty"})
    seen = Observed(error="empty", error_type="BufferEmptyException", error_kinds=("BufferError",))
    assert grade([case], {"c": seen}, error_types=kinds).results[0].status is CaseStatus.PASSED


def test_a_transcribed_case_is_judged_as_a_script_by_its_id() -> None:
    # A case performed by its track's own test, transcribed: its property may be any, the
    # case is named by its id (`CallMap.transcripts`).
    ops = [{"operation": "tally.value()", "expected": 8}]
    case = Case("t", "a sum", "valueAfter", {"operations": ops}, {})
    right = grade([case], {"t": Observed(value=[{"value": 8}])}, transcribed=frozenset({"t"}))
    wrong = grade([case], {"t": Observed(value=[{"value": 9}])}, transcribed=frozenset({"t"}))
    assert right.results[0].status is CaseStatus.PASSED
    assert wrong.results[0].status is CaseStatus.WRONG
    assert "step 1 (tally.value())" in wrong.results[0].detail


@pytest.mark.parametrize(
    ("answer", "status"),
    [([0, 5, 2], CaseStatus.PASSED), ([0, 5], CaseStatus.WRONG), ([0, 5, 5], CaseStatus.WRONG)],
    ids=["any_order", "one_short", "one_twice"],
)
def test_a_step_its_test_takes_in_any_order_compares_the_same_items(
    answer: list[int], status: CaseStatus
) -> None:
    ops = [{"operation": "history()", "expected": [0, 2, 5], "unordered": True}]
    case = Case("t", "history", "history", {"operations": ops}, {})
    report = grade([case], {"t": Observed(value=[{"value": answer}])}, transcribed=frozenset({"t"}))
    assert report.results[0].status is status
