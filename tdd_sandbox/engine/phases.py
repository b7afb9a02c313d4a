"""The phases of a cycle, and what a phase and a run end with (`engine.specs` says what each
phase asks and checks)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tdd_sandbox.errors import TddSandboxError

if TYPE_CHECKING:
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
    test_at_fault: bool = False
    """The phase's tests cannot pass as written (`Failure.TEST_MISTAKE` after RED): the
    implementer's waves stop, and the tester is asked again."""


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
    kata: str = ""
    """The kata's title."""
    kata_dir: str = ""
    """The folder of the kata's file."""
    language: str = ""
    base: str = ""
    """The branch the run started from, when it committed to one of its own (`run --pr`)."""
    models: dict[str, str] = field(default_factory=dict)
    """`provider:model` by role."""
    wall_time_s: float = 0.0
    usage: dict[str, Any] = field(default_factory=dict)
    pull_request: dict[str, Any] | None = None
    """`{"url", "number", "created"}` once the run's pull request is open (`run --pr`)."""
    acceptance: dict[str, int] | None = None
    """`{"passed", "total"}`: the kata's hidden suite on the branch, once scored (`--pr`)."""

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RunSummary:
        """The summary `to_json` wrote (unknown keys ignored: an older run's file reads)."""
        known = {name: data[name] for name in cls.__dataclass_fields__ if name in data}
        return cls(**known)

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
            "kata": self.kata,
            "kata_dir": self.kata_dir,
            "language": self.language,
            "base": self.base,
            "models": self.models,
            "wall_time_s": round(self.wall_time_s, 3),
            "usage": self.usage,
            "pull_request": self.pull_request,
            "acceptance": self.acceptance,
        }
