"""What proves a suite: the reference passes every case and the stub does not pass them all
(a `todo!()` stub passes every `#[should_panic]` test, and a stub that returns a value can
pass a case or two; neither can be mistaken for a solution)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from tdd_sandbox.acceptance.proof import Proof
from tdd_sandbox.acceptance.proof_pool import prove_katas
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
    assert proof.describe() == (
        "ledger (go): not proved (reference 3/3, stub 3/3): the stub already passes every case "
        "(a refactoring exercise): a run would score 100% without writing a line, so ledger "
        "is not scored in go"
    )


def test_a_reference_short_of_full_or_a_suite_of_nothing_does_not() -> None:
    assert not Proof("leap", "go", _report(4, 5), _report(0, 5)).suite_proved
    assert not Proof("leap", "go", _report(0, 0), _report(0, 0)).suite_proved


def _kata(root: Path, name: str, *languages: str) -> Path:
    for language in languages:
        (root / name / "acceptance" / language).mkdir(parents=True)
    return root / name


def test_an_import_proves_katas_side_by_side_and_reports_them_in_order(tmp_path: Path) -> None:
    # Proving waits on sandboxes more than on this machine's cores: two katas in flight at
    # once. A serial loop never has two at the barrier, which then breaks.
    together = threading.Barrier(2, timeout=10)
    busy: set[str] = set()
    overlapped: list[str] = []

    def prove_one(language: str, kata_dir: Path) -> tuple[bool, list[str]]:
        # One kata's languages in turn: they share its kata.md, which a proof may write.
        if kata_dir.name in busy:
            overlapped.append(kata_dir.name)
        busy.add(kata_dir.name)
        if language == "python":
            together.wait()
        time.sleep(0.01)
        busy.discard(kata_dir.name)
        return kata_dir.name != "b", [f"{kata_dir.name} ({language}): done"]

    katas = [_kata(tmp_path, "a", "python", "go"), _kata(tmp_path, "b", "python")]
    got = list(prove_katas(katas, prove_one, jobs=2))
    assert [(p.kata_dir.name, p.language, p.ok, p.lines) for p in got] == [
        ("a", "python", True, ["a (python): done"]),
        ("a", "go", True, ["a (go): done"]),
        ("b", "python", False, ["b (python): done"]),
    ]
    assert not overlapped


def test_one_job_proves_one_kata_at_a_time(tmp_path: Path) -> None:
    running: list[str] = []
    most = 0

    def prove_one(language: str, kata_dir: Path) -> tuple[bool, list[str]]:
        nonlocal most
        running.append(kata_dir.name)
        most = max(most, len(running))
        time.sleep(0.01)
        running.remove(kata_dir.name)
        return True, []

    katas = [_kata(tmp_path, name, "python") for name in "abc"]
    assert [p.kata_dir.name for p in prove_katas(katas, prove_one, jobs=1)] == ["a", "b", "c"]
    assert most == 1
