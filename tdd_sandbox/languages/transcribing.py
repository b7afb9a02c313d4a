"""What every pack's transcripts share (`python.transcripts`, `javascript.transcripts`): a
track's own tests as data, where no call the data's inputs fill performs its cases. Each
test is a case (the data's, where the test is named as one; else one of the track's own,
and the data's cases no test is named as are left to those): it runs in the sandbox as
written, and each assertion there only answers the value it asserts, as a step of a script
does (`grading.scripts`); what that must be is read on the host, from the test's literal.
No expected value is shipped: a value the test binds to a literal and holds against stays
on the host; one it also gives the code is an input, never held against.

A test that holds two answers of the code's own against each other has no value to keep
out of the sandbox, where the code could read one while it makes the other: its case is
left out, and said so, where at most a quarter are. Any other test a pack cannot read
leaves the exercise to the track's tests."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tdd_sandbox.languages.literal_reader import SetLiteral
from tdd_sandbox.languages.scripting import NAME, OPERATIONS
from tdd_sandbox.vocabulary.cases import TRACK_TEST, CallMap, Case, Restated

TRANSCRIBED = "its test's own statements, transcribed"
"""What performs a transcribed case's property: each case's own transcript, not one call."""
_NOT_WORD = re.compile(r"[^a-z0-9]")


class Untranscribable(Exception):
    """Why a test cannot be transcribed."""


class OwnAnswers(Untranscribable):
    """A test that holds two answers of the code's own against each other: no value of it
    stays out of the sandbox, so its case is left out."""

    def __init__(self) -> None:
        super().__init__("it holds two answers of the code's own against each other")


@dataclass
class Transcript:
    """One test as it is transcribed: the values it binds to literals, as the host reads
    them; the lines it ships; the steps it holds them to."""

    host: dict[str, Any] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)
    steps: list[dict[str, Any]] = field(default_factory=list)

    def check(self, line: str, said: str, wanted: Any, any_order: bool = False) -> None:
        """A step that answers a value (`line` ships it), held to `wanted`: in any order
        where the test says so, or writes a set."""
        self.lines.append(line)
        step = {NAME: said, "expected": wanted}
        unordered = any_order or isinstance(wanted, SetLiteral)
        self.steps.append({**step, "unordered": True} if unordered else step)

    def block(self, line: str, said: str, message: str | None, succeeds: bool = False) -> None:
        """A step that runs a block (`line` ships it): it must fail, with `message` where
        the test says one, or, where it `succeeds`, must not."""
        self.lines.append(line)
        if succeeds:
            self.steps.append({NAME: said})
        elif message is None:
            self.steps.append({NAME: said, "should_succeed": False})
        else:
            self.steps.append({NAME: said, "expected": {"error": message}})


_COMPARING = re.compile(r"[=!]==?|<=|>=|\s[<>]\s")


def compares(code: str) -> bool:
    """Whether what a test asks (`code`, its literals blank) compares where the driver runs
    it: `x === 7291` would hold 7291 against the code beside it, in the shipped source it can
    read. Within a grouping's parentheses it still does; within a call's arguments or a
    block it is what the test gives the code (list-ops' `filter((x) => x % 2 === 1)`)."""
    given: list[bool] = []  # per open bracket: whether it holds what is given the code
    for at, char in enumerate(code):
        if char in "([{":
            before = code[:at].rstrip()[-1:]
            given.append(char != "(" or (bool(before) and (before.isalnum() or before in "_$)]>")))
        elif char in ")]}" and given:
            given.pop()
        elif not any(given) and _COMPARING.match(code, at):
            return True
    return False


def split_arguments(text: str, code: str) -> list[str]:
    """The arguments of a call or a macro, as their texts, split at its own commas (`code`
    is `text` with its literals and comments blank)."""
    parts, depth, start = [], 0, 0
    for at, char in enumerate(code):
        depth += (char in "([{") - (char in ")]}")
        if char == "," and depth == 0:
            parts.append(text[start:at].strip())
            start = at + 1
    last = text[start:].strip()
    return [*parts, last] if last else parts


def needed_names(
    sources: Iterable[str], items: Mapping[str, str], names: Callable[[str], set[str]]
) -> list[str]:
    """The names of the `items` of a test file (each the text that declares it) that the
    transcripts use, and of those these use in turn, in the file's order: nothing else of
    the file is shipped."""
    used = {name for source in sources for name in names(source)}
    wanted: list[str] = []
    while more := sorted((used & items.keys()) - set(wanted)):
        wanted += more
        used = {name for m in more for name in names(items[m])}
    order = list(items)
    return sorted(wanted, key=order.index)


def words(text: str) -> str:
    """A name or a description as letters and digits alone, in lower case: a test named
    `test_sums_two` or `'sums two'` is the case described "sums two"."""
    return _NOT_WORD.sub("", text.lower())


def leaf_words(case: Case) -> str:
    """The case's own description (its groups' left out), as `words` reads it."""
    return words(case.description.rpartition(" > ")[2])


class Transcribed:
    """An exercise's tests as they are transcribed, each a case: the data's where the test
    is named as one of its cases, else one of the track's own; then their call mapping."""

    def __init__(self, cases: Sequence[Case]) -> None:
        self.cases = cases
        self.transcripts: dict[str, str] = {}
        self.restated: dict[str, Restated] = {}
        self.left_out: list[str] = []
        """Tests left out (`OwnAnswers`): each restated with no step, for the record."""

    def case_of(self, name: str, groups: Sequence[str] = ()) -> tuple[str, str]:
        """The id of the data's case a test is named as, not taken yet, and "" (the data
        describes it); else the test's own id and description, its groups' names before its
        own."""
        named = [c for c in self.cases if leaf_words(c) == words(name) and not self._taken(c.id)]
        if len(named) > 1:
            path = words(" > ".join((*groups, name)))
            named = [c for c in named if path.endswith(words(c.description))]
        if len(named) == 1:
            return named[0].id, ""
        own = case_id = " > ".join((*groups, name))
        count = 1
        while self._taken(case_id):  # two tests of one name: each a case
            count += 1
            case_id = f"{own} ({count})"
        return case_id, own

    def _taken(self, case_id: str) -> bool:
        return case_id in self.transcripts or case_id in self.left_out

    def leave_out(self, case: tuple[str, str]) -> None:
        """The case `case_of` named left out: its test holds answers of the code's own."""
        case_id, description = case
        self.left_out.append(case_id)
        self.restated[case_id] = Restated(
            input={OPERATIONS: []}, expected={}, description=description
        )

    def take(
        self, case: tuple[str, str], test: str, transcribe: Callable[[], tuple[str, Transcript]]
    ) -> str | None:
        """The case `case_of` named performed by the source `transcribe` makes of `test`,
        or left out where it holds two answers of the code's own; why it cannot be, else
        None."""
        try:
            source, transcript = transcribe()
        except OwnAnswers:
            self.leave_out(case)
            return None
        except Untranscribable as exc:
            return f"the test {test} cannot be transcribed: {exc}"
        self.add(case, source, transcript.steps)
        return None

    def add(self, case: tuple[str, str], source: str, steps: Sequence[Mapping[str, Any]]) -> None:
        """The case `case_of` named performed by `source`, its `steps` held against on the
        host."""
        case_id, description = case
        self.transcripts[case_id] = source
        held = Restated(input={OPERATIONS: list(steps)}, expected={}, description=description)
        self.restated[case_id] = held

    def calls(self, setup: str, **more: Any) -> CallMap | str:
        """The call mapping of the tests transcribed, those left out and the data's cases
        no test is named as excluded; or why there is none, where more than a quarter of the
        tests are left out (judged on the rest, the kata would not be the track's: complex
        numbers held against the code's own `ComplexNumber(3, 0)`, dot-dsl's nodes against
        its `Node("a", {})`)."""
        tests = len(self.transcripts) + len(self.left_out)
        if not tests:
            # Read as a suite of none, it would leave every case of the data out: 0 of 0.
            return "the track's tests hold no test it reads"
        if len(self.left_out) * 4 > tests:
            return f"{len(self.left_out)} of its {tests} tests hold two answers of the code's own"
        unnamed = {case.id for case in self.cases if not self._taken(case.id)}
        return CallMap(
            setup=setup,
            calls=dict.fromkeys([*(case.property for case in self.cases), TRACK_TEST], TRANSCRIBED),
            transcripts=self.transcripts,
            restated=self.restated,
            exclude=frozenset(self.left_out) | unnamed,
            **more,
        )
