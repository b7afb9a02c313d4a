"""Cross-checking a report against the guard's channel, as data."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tdd_sandbox.grading.evidence import TamperKind, cross_check
from tdd_sandbox.vocabulary.results import Evidence, TestOutcome, TestStatus

P, F, E, S = TestStatus.PASSED, TestStatus.FAILED, TestStatus.ERROR, TestStatus.SKIPPED
SENTINELS = {"check_a": P, "check_b": F}


def _report(**statuses: TestStatus) -> list[TestOutcome]:
    return [TestOutcome(f"t.py::{name}", status) for name, status in statuses.items()]


def _evidence(ended: bool = True, **statuses: TestStatus) -> Evidence:
    outcomes = {("t.py::" + k if not k.startswith("check") else k): v for k, v in statuses.items()}
    return Evidence(outcomes=outcomes, ended=ended, sentinels=SENTINELS)


def test_an_honest_green_run() -> None:
    own, code, tamper = cross_check(
        _report(a=P, check_a=P, check_b=F), _evidence(a=P, check_a=P, check_b=F), 1
    )
    assert [o.id for o in own] == ["t.py::a"]
    assert (code, tamper) == (0, None)  # the failing sentinel's exit 1 is not the kata's


def test_an_honest_red_run_keeps_its_exit_code() -> None:
    _, code, tamper = cross_check(
        _report(a=F, check_a=P, check_b=F), _evidence(a=F, check_a=P, check_b=F), 1
    )
    assert (code, tamper) == (1, None)


@pytest.mark.parametrize(
    ("report", "evidence", "exit_code", "kind"),
    [
        # A runner patched to pass everything passes the failing sentinel too.
        (_report(a=P, check_a=P, check_b=P), _evidence(a=P, check_a=P, check_b=P), 0,
         TamperKind.SENTINEL),
        # The results file rewritten after the run: the stream saw the failure.
        (_report(a=P, check_a=P, check_b=F), _evidence(a=F, check_a=P, check_b=F), 1,
         TamperKind.CHANNEL),
        # Everything rewritten, the sentinel too, and exit 0.
        (_report(a=P, check_a=P), _evidence(a=F, check_a=P, check_b=F), 0,
         TamperKind.SENTINEL),
        # Exit 0 although the failing sentinel failed.
        (_report(a=P, check_a=P, check_b=F), _evidence(a=P, check_a=P, check_b=F), 0,
         TamperKind.CHANNEL),
        # The run cut short before the runner's end (os._exit) with exit 0.
        (_report(a=P, check_a=P, check_b=F), _evidence(False, a=P, check_a=P, check_b=F), 0,
         TamperKind.CHANNEL),
        # The process ended with exit 0 before any test ended (Java's `System::exit`).
        (_report(), _evidence(False), 0, TamperKind.CHANNEL),
        # A plain exit of the code's choosing after a test ended, before the runner's end.
        (_report(a=P, check_a=P), _evidence(False, a=P, check_a=P), 3, TamperKind.CHANNEL),
        # One of several runner processes (a Go test binary) ended by the code, the run as
        # a whole ended: a failing run to the exit code alone.
        (_report(a=P, check_a=P, check_b=F),
         replace(_evidence(a=P, check_a=P, check_b=F), cut=("the test binary of k exited 3",)),
         1, TamperKind.CHANNEL),
        # Passes printed that the channel never saw.
        (_report(a=P, b=P, check_a=P, check_b=F), _evidence(a=P, check_a=P, check_b=F), 1,
         TamperKind.CHANNEL),
    ],
)  # fmt: skip
def test_forged_results_are_tamper(
    report: list[TestOutcome], evidence: Evidence, exit_code: int, kind: TamperKind
) -> None:
    _, _, tamper = cross_check(report, evidence, exit_code)
    assert tamper is not None
    assert tamper.kind is kind


def test_changed_internals_and_foreign_hooks_are_runner_tamper() -> None:
    base = _evidence(a=P, check_a=P, check_b=F)
    for evidence in (
        Evidence(base.outcomes, True, SENTINELS, changed=("_pytest.python.pytest_pyfunc_call",)),
        Evidence(base.outcomes, True, SENTINELS, foreign=("conftest",)),
    ):
        _, _, tamper = cross_check(_report(a=P, check_a=P, check_b=F), evidence, 1)
        assert tamper is not None
        assert tamper.kind is TamperKind.RUNNER


def test_a_run_that_never_got_to_its_tests_is_not_tamper() -> None:
    # A collection or build failure (pytest 2, cargo 101 before any binary) runs no sentinel.
    _, code, tamper = cross_check(_report(mod=E), _evidence(False), 2)
    assert (code, tamper) == (2, None)


def test_a_rust_build_failure_is_not_tamper() -> None:
    # cargo's compile error (the usual Rust red) exits 101 before any test binary ran.
    rust = Evidence(outcomes={}, ended=False, sentinels={"t::check_b": F}, failing_exit=101)
    _, code, tamper = cross_check([], rust, 101)
    assert (code, tamper) == (101, None)


def test_a_log_framed_twice_is_channel_tamper() -> None:
    # Attack: a test binary prints a forged frame for its own log beside the shell's real one.
    base = _evidence(a=P, check_a=P, check_b=F)
    forged = Evidence(base.outcomes, True, SENTINELS, conflicts=("fizzbuzz",))
    _, _, tamper = cross_check(_report(a=P, check_a=P, check_b=F), forged, 1)
    assert tamper is not None
    assert tamper.kind is TamperKind.CHANNEL


@pytest.mark.parametrize("exit_code", [139, 134])
def test_a_crash_is_not_tamper(exit_code: int) -> None:
    # A segfault or an abort in the middle of the run (128 + the signal): an honest failure.
    _, code, tamper = cross_check(
        _report(a=P, check_a=P), _evidence(False, a=P, check_a=P), exit_code
    )
    assert (code, tamper) == (exit_code, None)
