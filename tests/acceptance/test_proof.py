"""What proves a suite: the reference passes every case and the stub does not pass them all
(a `todo!()` stub passes every `#[should_panic]` test, and a stub that returns a value can
pass a case or two; neither can be mistaken for a solution)."""

from __future__ import annotations

from tdd_sandbox.acceptance.proof import Proof
from tdd_sandbox.grading.acceptance import AcceptanceReport, CaseResult, CaseStatus


def _report(passed: int, total: int) -> AcceptanceReport:
    return AcceptanceReport(
        tuple(
            CaseResult(f"c{i}", CaseStatus.PASSED if i < passed else CaseStatus.WRONG)
            for i in range(total)
        )
    )


def test_a_stub_that_passes_some_cases_proves_the_suite() -> None:
    # Exercism's Rust stubs (`todo!()`) pass every `#[should_panic]` test; such katas were
    # refused ("the stub passes cases").
    proof = Proof("dominoes", "rust", _report(13, 13), _report(6, 13))
    assert proof.suite_proved
    assert proof.describe() == "dominoes (rust): proved (reference 13/13, stub 6/13)"


def test_a_stub_that_passes_every_case_does_not() -> None:
    proof = Proof("ledger", "go", _report(3, 3), _report(3, 3))
    assert not proof.suite_proved
    assert proof.describe().endswith(
        "not proved (reference 3/3, stub 3/3): the stub passes every case"
    )


def test_a_reference_short_of_full_or_a_suite_of_nothing_does_not() -> None:
    assert not Proof("leap", "go", _report(4, 5), _report(0, 5)).suite_proved
    assert not Proof("leap", "go", _report(0, 0), _report(0, 0)).suite_proved
