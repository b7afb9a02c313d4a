"""A hidden acceptance suite's parts as every layer sees them: a case (its call and expected
result), how a language performs the calls, and what a driver observed."""

from __future__ import annotations

import builtins
import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


@dataclass(frozen=True)
class Case:
    """One call and its expected result. `id` is the case's uuid, else its description path."""

    id: str
    description: str
    property: str
    input: Mapping[str, Any]
    expected: Any
    replaced: bool = False
    """Whether a newer case of the data reimplements this one (its `reimplements`): what it
    expects changed, and a track may implement either."""
    counterpart: str = ""
    """The other case of such a pair: the newer one of a replaced case, the one it replaces
    of a newer case ("" where the data reimplements nothing)."""

    @builtins.property  # `property` is a field of a case here
    def expects_error(self) -> bool:
        """Whether the call must fail, with `expected["error"]` as its message."""
        return isinstance(self.expected, dict) and set(self.expected) == {"error"}


class Restated(BaseModel):
    """A case as a track restates it in its own terms (`CallMap.restated`), or a case of
    the track's own that the data does not have (a test of its transcribed: `description`
    then names it, and it performs `TRACK_TEST`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    input: dict[str, Any]
    expected: Any
    description: str = ""


TRACK_TEST = "track test"
"""The property of a case of the track's own (`Restated.description`): one of its tests."""


CASE_TIME_BOUND_S = 60.0
"""The longest one case may be given to run."""


class CallMap(BaseModel):
    """How one language performs the kata's properties."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    setup: str = ""
    """Run once before the cases (Python: the imports; Rust: `use` lines; Go: the track's
    helpers a call passes an input through, in the driver's package)."""
    package_source: str = ""
    """Go: functions the track's tests give the model's package (bottle-song's `Title`),
    built with it as they are with its tests."""
    calls: dict[str, str]
    """Property -> the call that performs it."""
    errors: frozenset[str] = frozenset()
    """Error kinds that count as the kata's errors; empty: any."""
    messages: bool = True
    """Whether an error case's message must be the canonical one. False where the track
    words its errors its own way (or not at all: Go's `ok`), which is what its model is told:
    any error of the counted kinds is then the answer."""
    unordered: frozenset[str] = frozenset()
    """Properties whose answer, a list, the track's tests take in any order (they collect
    it into a set, or sort it): compared as the same items, each as often, in any order."""
    none_is_error: bool = False
    """Whether no answer (null, `None`, nil) and an error stand for each other: the track
    reports a case the data answers with null as an error (Go's alphametics), or one the
    data expects an error of as no answer (Rust's `Option`). The import's proof sets it
    where the reference answers so and passes every other case."""
    rounded: bool = False
    """Whether the data's decimal numbers are answers rounded to the places they show
    (space-age's 31.69 for 31.6880...), as the track compares them within half a last place:
    an answer is rounded so before it is compared. Set by the import's proof, as above."""
    hundredths: bool = False
    """Whether the data counts in hundredths what the track answers as a decimal (cents
    where Java's book-store answers 8.0 dollars for 800): an answer is multiplied by a
    hundred before it is compared. Set by the import's proof, as above."""
    steps: dict[str, dict[str, str]] = {}
    """Property -> operation -> the step that performs it, for a property performed by a
    script of operations (`languages.scripting`): its call's `${operations|steps}` is each
    operation of the case as its step. Its answer is every step's outcome, each judged on
    the host (`grading.scripts`)."""
    timeout_s: float = Field(5.0, gt=0, le=CASE_TIME_BOUND_S)
    """How long one case may run."""
    exclude: frozenset[str] = frozenset()
    """Ids of cases this language leaves out (an Exercism track's `tests.toml` excludes
    some, or predates them)."""
    restated: dict[str, Restated] = {}
    """Id -> the inputs and answer this language judges the case on instead of the data's,
    where the track's generator restates each case in its own terms (Go's case tables:
    `languages.go.tables`), or a case of the track's own beside the data's (a test of its
    that matches no case of the data, transcribed); only host-side, as the data is."""
    transcripts: dict[str, str] = {}
    """Id -> the track's own test of the case, transcribed (`languages.transcribing`, each
    pack's `transcripts`): its statements, inputs written in, each assertion answering only
    the value it asserts. What each must be is the case's restated
    `operations`, judged as a script's steps are; only host-side, as the data is."""


@dataclass(frozen=True)
class Observed:
    """What a driver reported for one case: a value, an error, or why there is neither."""

    value: Any = None
    error: str | None = None
    """The error's message, when the call failed."""
    error_type: str = ""
    """The error's kind as the language names it (`ValueError`, `Err`, `panic`)."""
    error_kinds: tuple[str, ...] = ()
    """The kinds the error is of besides its own, where the language says (a Python
    exception's bases: `BufferEmptyException` is a `BufferError`)."""
    failure: str | None = None
    """No result: timeout, crash, a value that is not plain data, output past its limit."""

    def is_of(self, kinds: frozenset[str]) -> bool:
        """Whether the error is of one of `kinds`, as its own or as a base; any, where
        `kinds` is empty."""
        return not kinds or self.error_type in kinds or not kinds.isdisjoint(self.error_kinds)


class Judged(enum.StrEnum):
    """Where a score's expected values were while the scored code ran: what it guarantees."""

    DATA = "data"
    """On the host only: the sandbox got the cases' inputs, the host compared the answers,
    so the code could neither read nor rewrite what it was judged against."""
    IN_PROCESS = "in_process"
    """In test files that ran beside the code, in its process (an Exercism track's own):
    the static policy and the runner's guard defend them, but the code could read them."""


GUARANTEES: Mapping[Judged, str] = {
    Judged.DATA: "judged as data: the expected values never entered the sandbox",
    Judged.IN_PROCESS: (
        "judged in-process: the kata's test files ran beside the code, which could read "
        "them (give the kata canonical data and calls.yaml to judge it as data)"
    ),
}
"""What each way of judging guarantees, as `score` says it under the score."""
