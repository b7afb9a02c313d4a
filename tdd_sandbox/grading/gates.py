"""What decides a gate: its status from the command's result and the per-test outcomes.

Green is strict: a test gate passes only when every expected test ran and passed, nothing
was skipped, the exit code agrees with the per-test results, and nothing shows the results
were forged (`grading.evidence`).
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tdd_sandbox.grading.evidence import Tamper
from tdd_sandbox.sandbox.base import ExecResult
from tdd_sandbox.vocabulary.results import GateKind, TestOutcome, TestStatus

TAIL_CHARS = 2000


class GateStatus(enum.StrEnum):
    """How a gate ended."""

    PASSED = "passed"
    FAILED = "failed"
    ERROR = "error"
    TIMEOUT = "timeout"
    OOM = "oom"
    OUTPUT_LIMIT = "output_limit"


@dataclass(frozen=True)
class TestCounts:
    """Per-test tallies of one run."""

    __test__ = False  # not a pytest test class, despite the name

    passed: int = 0
    failed: int = 0
    skipped: int = 0
    errors: int = 0

    @classmethod
    def of(cls, outcomes: tuple[TestOutcome, ...]) -> TestCounts:
        """Count outcomes by status."""
        tally = Counter(outcome.status for outcome in outcomes)
        return cls(
            passed=tally[TestStatus.PASSED],
            failed=tally[TestStatus.FAILED],
            skipped=tally[TestStatus.SKIPPED],
            errors=tally[TestStatus.ERROR],
        )


@dataclass(frozen=True)
class GateResult:
    """One gate's verdict, with the evidence."""

    kind: GateKind
    status: GateStatus
    reason: str
    result: ExecResult
    tests: tuple[TestOutcome, ...] = ()
    tamper: Tamper | None = None
    """Evidence that the result was forged (never green then)."""

    @property
    def passed(self) -> bool:
        """Whether the gate is green."""
        return self.status is GateStatus.PASSED

    @property
    def counts(self) -> TestCounts:
        """Per-test tallies (all zero for gates that run no tests)."""
        return TestCounts.of(self.tests)

    @property
    def output_tail(self) -> str:
        """The end of the gate's output, for people and for the next prompt."""
        text = "\n".join(part for part in (self.result.stdout, self.result.stderr) if part)
        return text[-TAIL_CHARS:]

    def to_json(self) -> dict[str, Any]:
        """The `--json` form of one gate."""
        counts = self.counts
        return {
            "name": self.kind.value,
            "status": self.status.value,
            "reason": self.reason,
            "duration_s": round(self.result.duration_s, 3),
            "tests": {
                "passed": counts.passed,
                "failed": counts.failed,
                "skipped": counts.skipped,
                "errors": counts.errors,
            },
            "output_tail": self.output_tail,
            "tamper": None if self.tamper is None else self.tamper.kind.value,
        }


@dataclass(frozen=True)
class GateReport:
    """Every gate of one run on one snapshot."""

    language: str
    gates: tuple[GateResult, ...] = field(default_factory=tuple)

    @property
    def ok(self) -> bool:
        """All gates green (and there was at least one)."""
        return bool(self.gates) and all(gate.passed for gate in self.gates)

    def gate(self, kind: GateKind) -> GateResult | None:
        """The result of one gate, if it ran."""
        return next((gate for gate in self.gates if gate.kind is kind), None)

    def to_json(self) -> dict[str, Any]:
        """The `--json` document of `tdd-sandbox gates`."""
        return {
            "language": self.language,
            "ok": self.ok,
            "gates": [gate.to_json() for gate in self.gates],
        }


def abnormal(result: ExecResult) -> tuple[GateStatus, str] | None:
    if result.timed_out:
        return GateStatus.TIMEOUT, f"killed after {result.duration_s:.1f}s wall-clock limit"
    if result.flooded:
        return GateStatus.OUTPUT_LIMIT, "printed past the output limit and was stopped"
    if result.oom_killed:
        return GateStatus.OOM, "a process was killed for exceeding the memory limit"
    if result.exit_code is None:
        return GateStatus.ERROR, "the command was killed before it could finish"
    if result.process_limit and result.exit_code != 0:
        # An honest failure the kernel caused, not the code ending its runner: a run that
        # met the limit never reaches the guard's checks (it is not green either way).
        return GateStatus.ERROR, (
            "a process or thread could not start: the run met the sandbox's process limit "
            "(sandbox.pids)"
        )
    if result.leftover_processes:
        left = ", ".join(result.leftover_processes[:3])
        return GateStatus.ERROR, f"left processes running (killed): {left}"
    return None


def judge_command(kind: GateKind, result: ExecResult) -> GateResult:
    """A gate that runs no tests: green when the command exits 0 cleanly."""
    if found := abnormal(result):
        return GateResult(kind, found[0], found[1], result)
    if result.exit_code != 0:
        return GateResult(kind, GateStatus.FAILED, f"exited with {result.exit_code}", result)
    return GateResult(kind, GateStatus.PASSED, "", result)


def judge_tests(
    result: ExecResult, outcomes: tuple[TestOutcome, ...], *, tamper: Tamper | None = None
) -> GateResult:
    """The test gate: strict agreement between exit code and per-test results, and no
    evidence of tampering."""
    kind = GateKind.TEST
    if found := abnormal(result):
        return GateResult(kind, found[0], found[1], result, outcomes)
    if tamper is not None:
        return GateResult(kind, GateStatus.ERROR, str(tamper), result, outcomes, tamper)
    counts = TestCounts.of(outcomes)
    bad = counts.failed + counts.errors
    code = result.exit_code
    if not outcomes:
        if code == 0:
            return GateResult(kind, GateStatus.ERROR, "no test ran", result, outcomes)
        reason = f"no test results (exit {code}): the build or test collection failed"
        return GateResult(kind, GateStatus.FAILED, reason, result, outcomes)
    if code == 0 and bad:
        reason = f"exit code 0 disagrees with {bad} failing or missing tests"
        return GateResult(kind, GateStatus.ERROR, reason, result, outcomes)
    if code != 0 and not bad:
        reason = f"exit code {code} disagrees with results in which every test passed"
        return GateResult(kind, GateStatus.ERROR, reason, result, outcomes)
    if bad:
        reason = f"{counts.failed} failed, {counts.errors} errors"
        return GateResult(kind, GateStatus.FAILED, reason, result, outcomes)
    if counts.skipped:
        reason = f"{counts.skipped} skipped: a skipped test is not a pass"
        return GateResult(kind, GateStatus.FAILED, reason, result, outcomes)
    return GateResult(kind, GateStatus.PASSED, "", result, outcomes)
