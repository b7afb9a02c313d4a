"""The verdict rules, on hand-made results: green is strict."""

from __future__ import annotations

import pytest

from tdd_sandbox.execution.steps import plan_gates
from tdd_sandbox.grading.gates import GateStatus, judge_command, judge_tests
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.sandbox.base import ExecResult
from tdd_sandbox.settings import GateOverride
from tdd_sandbox.vocabulary.results import GateKind, TestOutcome, TestStatus

PASS = TestOutcome("t::a", TestStatus.PASSED)
FAIL = TestOutcome("t::b", TestStatus.FAILED)
SKIP = TestOutcome("t::c", TestStatus.SKIPPED)
MISSING = TestOutcome("t::d", TestStatus.ERROR, "expected test did not run")


def _run(
    code: int | None = 0,
    *,
    timed_out: bool = False,
    flooded: bool = False,
    oom_killed: bool = False,
) -> ExecResult:
    return ExecResult(
        code, "", "", 1.0, timed_out=timed_out, flooded=flooded, oom_killed=oom_killed
    )


@pytest.mark.parametrize(
    ("code", "outcomes", "status"),
    [
        (0, (PASS,), GateStatus.PASSED),
        (1, (PASS, FAIL), GateStatus.FAILED),
        (0, (PASS, SKIP), GateStatus.FAILED),  # a skip is not a pass
        (0, (), GateStatus.ERROR),  # zero collected
        (2, (), GateStatus.FAILED),  # build or collection failure
        (0, (PASS, FAIL), GateStatus.ERROR),  # exit code disagrees with results
        (1, (PASS,), GateStatus.ERROR),  # e.g. sys.exit(1) after all passed
        (0, (PASS, MISSING), GateStatus.ERROR),  # an expected test did not run
    ],
)
def test_judge_tests(code: int, outcomes: tuple[TestOutcome, ...], status: GateStatus) -> None:
    assert judge_tests(_run(code), outcomes).status is status


@pytest.mark.parametrize(
    ("result", "status"),
    [
        (_run(None, timed_out=True), GateStatus.TIMEOUT),
        (_run(None, flooded=True), GateStatus.OUTPUT_LIMIT),
        (_run(137, oom_killed=True), GateStatus.OOM),
        (_run(None), GateStatus.ERROR),
    ],
)
def test_abnormal_endings_win_over_results(result: ExecResult, status: GateStatus) -> None:
    assert judge_tests(result, (PASS,)).status is status
    assert judge_command(GateKind.LINT, result).status is status


def test_leftover_processes_are_not_green() -> None:
    result = ExecResult(0, "", "", 1.0, leftover_processes=("sleep 100",))
    verdict = judge_tests(result, (PASS,))
    assert verdict.status is GateStatus.ERROR
    assert "sleep 100" in verdict.reason


def test_command_gate() -> None:
    assert judge_command(GateKind.FORMAT, _run(0)).passed
    assert judge_command(GateKind.FORMAT, _run(1)).status is GateStatus.FAILED


def test_overrides_replace_only_the_named_gate() -> None:
    python = get_language("python")
    planned = plan_gates(python, GateOverride(test=["pytest", "-x"]))
    by_kind = {gate.kind: gate.command for gate in planned}
    assert by_kind[GateKind.TEST] == ("pytest", "-x")
    assert (
        by_kind[GateKind.LINT] == dict((g.kind, g.command) for g in python.gates())[GateKind.LINT]
    )


def test_a_failed_run_that_met_the_process_limit_is_that_limit_not_tampering() -> None:
    # Java's bank-account starts 1000 threads: on a loaded machine more of them live at once
    # than `sandbox.pids` allows, the JUnit launcher dies of the refused thread, and the honest
    # reference was "tampering suspected (channel): the run ended before the runner finished".
    limited = ExecResult(1, "", "", 1.0, process_limit=True)
    verdict = judge_tests(limited, (PASS, MISSING))
    assert verdict.status is GateStatus.ERROR
    assert "process limit" in verdict.reason
    assert "sandbox.pids" in verdict.reason
    assert verdict.tamper is None
    # A run that met it and still passed is judged by its results.
    assert judge_tests(ExecResult(0, "", "", 1.0, process_limit=True), (PASS,)).passed
