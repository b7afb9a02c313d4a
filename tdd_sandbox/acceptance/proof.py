"""Proving a kata's hidden suite before anyone is scored by it: the reference solution must
pass every case and the starting files none. A suite that passes the stub measures nothing;
one the reference fails measures the suite."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tdd_sandbox.acceptance.runner import score_kata
from tdd_sandbox.grading.acceptance import AcceptanceReport
from tdd_sandbox.languages.base import Language
from tdd_sandbox.repo.scaffolding import starting_files
from tdd_sandbox.runtime import Runtime


@dataclass(frozen=True)
class Proof:
    """How the reference and the starting files scored on the suite."""

    kata: str
    language: str
    reference: AcceptanceReport | None
    """None when the kata has no reference in the language."""
    start: AcceptanceReport

    @property
    def ok(self) -> bool:
        """The reference passes everything and the starting files nothing."""
        return (
            self.reference is not None
            and self.reference.total > 0
            and self.reference.rate == 1.0
            and self.start.passed == 0
        )

    def describe(self) -> str:
        """One line for people."""
        head = f"{self.kata} ({self.language})"
        if self.reference is None:
            return f"{head}: no reference solution; stub {self.start.passed}/{self.start.total}"
        shown = (
            f"reference {self.reference.passed}/{self.reference.total}, "
            f"stub {self.start.passed}/{self.start.total}"
        )
        if self.ok:
            return f"{head}: proved ({shown})"
        why = self.reference.why() if self.reference.rate < 1.0 else "the stub passes cases"
        return f"{head}: not proved ({shown}): {why}"


def prove(runtime: Runtime, language: Language, kata_dir: Path) -> Proof:
    """Score the kata's reference and its starting files on its hidden suite.

    Raises:
        UsageError: no suite in the language.
        SandboxUnavailable: the sandbox failed.
    """
    start = _encoded(starting_files(language, kata_dir))
    start_report = score_kata(runtime, language, start, kata_dir)
    reference_report = None
    if (kata_dir / "reference" / language.name).is_dir():
        reference = _encoded(starting_files(language, kata_dir, overlay="reference"))
        reference_report = score_kata(runtime, language, reference, kata_dir)
    return Proof(kata_dir.name, language.name, reference_report, start_report)


def _encoded(files: dict[str, str]) -> dict[str, bytes]:
    return {path: text.encode() for path, text in files.items()}
