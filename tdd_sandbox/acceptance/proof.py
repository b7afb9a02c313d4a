"""Proving a kata's hidden suite before anyone is scored by it: the reference solution must
pass every case and the starting files not all of them. A suite the stub passes whole
measures nothing; one the reference fails measures the suite. A stub may pass some: a Rust
`todo!()` passes every `#[should_panic]` test, and a stub's default value a case or two."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from tdd_sandbox.acceptance.scorer import score_kata
from tdd_sandbox.execution.base import Checker, GateCheck
from tdd_sandbox.grading.acceptance import AcceptanceReport
from tdd_sandbox.grading.verdicts import failing_summary
from tdd_sandbox.languages.base import Language
from tdd_sandbox.repo.scaffolding import starting_files
from tdd_sandbox.vocabulary.cancel import result_of


@dataclass(frozen=True)
class Proof:
    """How the reference and the starting files scored on the suite."""

    kata: str
    language: str
    reference: AcceptanceReport | None
    """None when the kata has no reference in the language."""
    start: AcceptanceReport
    start_gates: str = ""
    """Why the starting files fail their own gates (empty: they pass, so a run can start)."""

    @property
    def suite_proved(self) -> bool:
        """The reference passes every case and the starting files not all of them."""
        return (
            self.reference is not None
            and self.reference.total > 0
            and self.reference.rate == 1.0
            and self.start.passed < self.start.total
        )

    @property
    def ok(self) -> bool:
        """The suite is proved and a run can start from the starting files."""
        return self.suite_proved and not self.start_gates

    def describe(self) -> str:
        """One line for people."""
        head = f"{self.kata} ({self.language})"
        if self.reference is None:
            gates = f"; the starting files fail their gates ({self.start_gates})"
            gates = gates if self.start_gates else ""
            return f"{head}: no reference; stub {self.start.passed}/{self.start.total}{gates}"
        shown = (
            f"reference {self.reference.passed}/{self.reference.total}, "
            f"stub {self.start.passed}/{self.start.total}"
        )
        if self.ok:
            return f"{head}: proved ({shown})"
        if self.start_gates:
            why = f"the starting files fail their gates ({self.start_gates})"
        elif self.reference.rate < 1.0:
            why = self.reference.why()
        else:
            why = (  # a refactoring exercise's start: its suite cannot tell work from none
                "the stub already passes every case (a refactoring exercise): a run would score "
                f"100% without writing a line, so {self.kata} is not scored in {self.language}"
            )
        return f"{head}: not proved ({shown}): {why}"


def prove(checker: Checker, language: Language, kata_dir: Path) -> Proof:
    """Score the kata's reference and its starting files on its hidden suite, and check that
    the starting files pass their own gates (a run's first commit must be green).

    Raises:
        UsageError: no suite in the language.
        SandboxUnavailable: the sandbox failed.
    """
    start = encoded(starting_files(language, kata_dir))
    reference = None
    if (kata_dir / "reference" / language.name).is_dir():
        reference = encoded(starting_files(language, kata_dir, overlay="reference"))
    # Three sandboxes that share nothing: side by side, a kata's proof waits for the slowest
    # of them rather than for all three in turn.
    with ThreadPoolExecutor(max_workers=3, thread_name_prefix="proof") as pool:
        checked = pool.submit(checker.check, GateCheck(language, start))  # as a run checks HEAD
        started = pool.submit(score_kata, checker, language, start, kata_dir, every_case=True)
        solved = None
        if reference is not None:
            solved = pool.submit(
                score_kata, checker, language, reference, kata_dir, every_case=True
            )
        gates = result_of(checked).report
        start_report = result_of(started)
        reference_report = result_of(solved) if solved is not None else None
    start_gates = "" if gates.ok else failing_summary(gates, limit=200).splitlines()[0]
    return Proof(kata_dir.name, language.name, reference_report, start_report, start_gates)


def encoded(files: dict[str, str]) -> dict[str, bytes]:
    """Files as a sandbox takes them."""
    return {path: text.encode() for path, text in files.items()}
