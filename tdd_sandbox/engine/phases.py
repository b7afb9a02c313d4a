"""The phases of a cycle, what each asks and checks (a `PhaseSpec`), and what a phase and a
run end with."""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tdd_sandbox.agents.context import Situation
from tdd_sandbox.engine.edits import Role
from tdd_sandbox.errors import TddSandboxError
from tdd_sandbox.grading.gates import GateReport
from tdd_sandbox.languages.base import GateKind
from tdd_sandbox.protocol import EditPlan


class RunStatus(enum.StrEnum):
    """How a run ended."""

    COMPLETED = "completed"
    MAX_CYCLES = "max_cycles"
    STUCK = "stuck"
    ERROR = "error"
    INTERRUPTED = "interrupted"
    """Ctrl-C, SIGTERM or SIGHUP: what was committed before stays, and is counted."""


class Phase(enum.StrEnum):
    """The phases of a cycle."""

    RED = "red"
    GREEN = "green"
    REFACTOR = "refactor"


class Unchanged(enum.Enum):
    """What an attempt whose plan changes nothing comes to."""

    JUDGED = "judged"
    """Judged like any other (a tester's: the verdict says no new test was found)."""
    REFUSED = "refused"
    """Told to change something (an implementer's)."""
    QUIET = "quiet"
    """Ends quietly: nothing worth changing (a refactorer's)."""


Grade = Callable[[Mapping[str, bytes], GateReport], str]
"""A phase's check of a judged candidate (from `grading.verdicts`): raises VerdictError
unless it may land, and returns the new test's id (RED) or ""."""


@dataclass(frozen=True)
class PhaseSpec:
    """One phase, as data: who acts, on which files, told what, judged by which gates and
    which check. `engine.attempt` runs any of them; `engine.specs` builds them."""

    phase: Phase
    role: Role
    head: Mapping[str, bytes]
    """The files at HEAD (a racing attempt's worktree starts there)."""
    start: Mapping[str, bytes]
    """The files the attempt changes: HEAD, or HEAD with the RED test."""
    context: Situation
    """What the model is shown (its `previous_error` is filled in per attempt)."""
    grade: Grade
    gates: frozenset[GateKind] | None = None
    """The gates that judge it (None: every gate)."""
    count: int = 1
    """Attempts racing in each wave."""
    first_cycle: bool = False
    """The tester may create the scaffold's runner config, exactly as the scaffold has it."""
    code_only: bool = True
    """Refuse test code written into non-test files."""
    unchanged: Unchanged = Unchanged.REFUSED
    may_finish: bool = False
    """The role may answer "done" (nothing left to test), which ends the run."""
    too_early: str = ""
    """Why "done" may not end the run yet (before the kata's first test)."""
    hint: str = ""
    """The first attempt's feedback (the supervisor's request for a smaller test)."""


class NotGreen(TddSandboxError):
    """The repository's HEAD does not pass its own gates, so no cycle can start from it."""


@dataclass
class Red:
    """A checked RED candidate."""

    files: dict[str, bytes]
    new_test: str
    test_output: str
    """The end of the failing test run, shown to the implementer."""
    plan: EditPlan
    attempts: int


@dataclass
class Outcome:
    """What one phase produced: a result or the last error, and the attempts it took."""

    attempts: int = 0
    error: str = ""
    done: bool = False


@dataclass
class RunResult:
    """The end of a run."""

    status: RunStatus
    cycles: int
    commits: list[str] = field(default_factory=list)
    reason: str = ""


@dataclass
class RunSummary:
    """What `run --json` prints."""

    status: str
    cycles: int
    commits: list[str]
    tokens: dict[str, Any]
    cost: float
    run_id: str
    repo: str
    reason: str = ""
    branch: str = ""
    """The branch the commits went to."""
    wall_time_s: float = 0.0
    usage: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The summary document."""
        return {
            "status": self.status,
            "cycles": self.cycles,
            "commits": self.commits,
            "tokens": self.tokens,
            "cost": round(self.cost, 6),
            "run_id": self.run_id,
            "repo": self.repo,
            "reason": self.reason,
            "branch": self.branch,
            "wall_time_s": round(self.wall_time_s, 3),
            "usage": self.usage,
        }
