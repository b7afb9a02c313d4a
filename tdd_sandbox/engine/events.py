"""What a run reports as it goes, as types.

Events are types: the loop builds them, the journal writes each as one line of `log.jsonl`
(`{"ts": ..., "event": <name>, **fields}`), and the live view, `status` and the bench read
them by type or by `EventName`, never by matching strings written somewhere else.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import Any, ClassVar

from tdd_sandbox.engine.phases import Phase
from tdd_sandbox.engine.race import AttemptStatus
from tdd_sandbox.vocabulary.failures import Failure


class EventName(enum.StrEnum):
    """The `event` of each line of `log.jsonl`."""

    START = "start"
    RESUMED = "resumed"
    CYCLE = "cycle"
    ATTEMPT = "attempt"
    ATTEMPT_END = "attempt-end"
    GATES = "gates"
    FORMATTED = "formatted"
    REJECTED = "rejected"
    RED = "red"
    RACE = "race"
    SMALLER_STEP = "smaller-step"
    REVERTED = "reverted"
    COMMIT = "commit"
    END = "end"


@dataclass(frozen=True)
class Event:
    """One thing that happened in a run."""

    name: ClassVar[EventName]

    def fields(self) -> dict[str, Any]:
        """The event's fields as its log line holds them."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}


@dataclass(frozen=True)
class RunStarted(Event):
    """A run began."""

    name = EventName.START
    kata: str
    language: str
    models: dict[str, str]
    sandbox: str
    versions: dict[str, str]
    """What ran the sandboxes (`Runtime.versions`): engine, OCI runtime, kernel, image."""


@dataclass(frozen=True)
class Resumed(Event):
    """A run went on after one that died, having cleared what it left."""

    name = EventName.RESUMED
    after: str | None
    removed: list[str]


@dataclass(frozen=True)
class CycleStarted(Event):
    """A cycle began (with its RED phase)."""

    name = EventName.CYCLE
    cycle: int


@dataclass(frozen=True)
class AttemptStarted(Event):
    """An attempt at a phase began; `attempt` is the wave (or the try, for RED)."""

    name = EventName.ATTEMPT
    cycle: int
    phase: Phase
    attempt: int
    index: int = 0
    count: int = 1
    model: str = ""


@dataclass(frozen=True)
class AttemptEnded(Event):
    """A racing attempt ended."""

    name = EventName.ATTEMPT_END
    cycle: int
    phase: Phase
    index: int
    status: AttemptStatus
    seconds: float


@dataclass(frozen=True)
class GatesRan(Event):
    """The gates judged one candidate."""

    name = EventName.GATES
    ok: bool
    gates: dict[str, str]
    seconds: float


@dataclass(frozen=True)
class Formatted(Event):
    """Files a model wrote were formatted before being judged again."""

    name = EventName.FORMATTED
    paths: list[str]


@dataclass(frozen=True)
class Rejected(Event):
    """An attempt was refused; `error` is what the model is told."""

    name = EventName.REJECTED
    cycle: int
    phase: Phase
    attempt: int
    error: str
    kind: Failure
    index: int = 0


@dataclass(frozen=True)
class RedFound(Event):
    """A checked failing test."""

    name = EventName.RED
    cycle: int
    test: str
    attempts: int


@dataclass(frozen=True)
class RaceEnded(Event):
    """A wave of racing attempts ended: its winner (an index) and each attempt's end."""

    name = EventName.RACE
    cycle: int
    phase: Phase
    wave: int
    winner: int | None
    results: list[tuple[int, str, str]]
    cancel_s: float
    seconds: float


@dataclass(frozen=True)
class SmallerStepAsked(Event):
    """The implementer was stuck: the tester is asked for a smaller test."""

    name = EventName.SMALLER_STEP
    cycle: int


@dataclass(frozen=True)
class Reverted(Event):
    """No refactoring kept every test green: the cycle ends with its feature commit."""

    name = EventName.REVERTED
    cycle: int
    error: str


@dataclass(frozen=True)
class Committed(Event):
    """A green state was committed."""

    name = EventName.COMMIT
    cycle: int
    kind: str
    sha: str
    summary: str


@dataclass(frozen=True)
class RunEnded(Event):
    """A run ended."""

    name = EventName.END
    status: str
    reason: str
