"""Data suites for imported exercises: where a kata has problem-specifications' canonical
data, each track's pack derives how its language performs the cases (`derive_calls`), read off
the track's stub and tests, and the mapping joins the kata's calls.yaml. The import's proof
then confirms it with the reference, or the track's tests judge instead."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

import yaml

from tdd_sandbox.errors import UsageError
from tdd_sandbox.grading.acceptance import flatten_cases
from tdd_sandbox.katas.exercism import Exercise
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.languages.pairing import find_pairs, with_pairs
from tdd_sandbox.vocabulary.cases import CallMap, Case

CASES_FILE = "canonical-data.json"
CALLS_FILE = "calls.yaml"
_NAME = re.compile(r"\w+")
_SAID = re.compile(r"'([^'\n]*)'|\"([^\"\n]*)\"")
_NOT_WORD = re.compile(r"[^a-z0-9]")
_NAMED_LENGTH = 12
"""The fewest letters and digits a case's description has for a test named so to count
as its: a test named `empty` is no case's."""


def derive_data_suites(kata_dir: Path, exercises: Sequence[Exercise]) -> list[str]:
    """Write (or clear) each track exercise's language section of the kata's calls.yaml, the
    canonical data read once; a line per track saying which, and why. Without canonical
    data, a track's own tests transcribed are its only data."""
    path = kata_dir / "acceptance" / CASES_FILE
    tracks = [e for e in exercises if e.language is not None]
    every: list[Case] | None = None
    if path.is_file():
        try:
            every = flatten_cases(json.loads(path.read_text(encoding="utf-8")), source=str(path))
        except (ValueError, UsageError) as exc:
            why = f"its canonical data is unreadable ({exc})"
            return [f"{_head(e)}: judged by its track's tests: {why}" for e in tracks]
    return [_derive(kata_dir, exercise, every) for exercise in tracks]


def _derive(kata_dir: Path, exercise: Exercise, every: list[Case] | None) -> str:
    """One track's section, derived from the cases its tests implement (`implemented`), a
    property asked of two objects at once from its base's call (`pairing`); else, or with no
    canonical data (`every` None), the track's own tests transcribed."""
    assert exercise.language is not None  # a track's exercise
    cases = implemented(every or [], exercise.included, exercise.tests)
    language = get_language(exercise.language)
    pairs = find_pairs(cases)
    # As the track words them: a generator that names its tests after the cases read them so.
    worded = [replace(c, description=exercise.described.get(c.id, c.description)) for c in cases]
    derived: CallMap | str
    if every is None:
        derived = "it has no canonical data"
    elif not cases:
        derived = "the track implements none of its cases"
    else:
        single = [case for case in worded if case.property not in pairs]
        derived = language.derive_calls(single, exercise.stub, exercise.tests)
        if pairs and not isinstance(derived, str):
            derived = with_pairs(derived, pairs, language.paired)
    if isinstance(derived, str):
        # No call the inputs fill performs the cases: the track's own tests may, as data.
        transcribed = language.transcribe_tests(worded, exercise.tests)
        if isinstance(transcribed, CallMap):
            derived = transcribed
        elif every is None:
            derived = f"{derived}, and {transcribed}"
    if isinstance(derived, str):
        write_calls(kata_dir, exercise.language, None)
        return f"{_head(exercise)}: judged by its track's tests: {derived}"
    kept = {case.id for case in cases}
    exclude = frozenset(case.id for case in every or [] if case.id not in kept) | derived.exclude
    messages = derived.messages and (
        bool(derived.transcripts) or _compares_messages(cases, exercise.tests)
    )
    update = {"exclude": exclude, "messages": messages}
    write_calls(kata_dir, exercise.language, derived.model_copy(update=update))
    if derived.transcripts:
        said = transcribed_said(derived)
        return f"{_head(exercise)}: a data suite of {said}, to be proved with the reference"
    return (
        f"{_head(exercise)}: a data suite of {len(cases)} cases, its calls read off the track "
        f"({_shown(derived)}), to be proved with the reference"
    )


def transcribed_said(calls: CallMap) -> str:
    """How a suite of the track's tests transcribed reads, for people: how many, and those
    left out as they hold two answers of the code's own against each other."""
    out = sorted(i for i in calls.exclude if i in calls.restated and i not in calls.transcripts)
    said = (
        f"the track's {len(calls.transcripts)} tests transcribed, what each asserts held on "
        "the host"
    )
    if out:
        shown = ", ".join(out[:5]) + (", ..." if len(out) > 5 else "")
        said += (
            f"; {len(out)} left out, as they hold two answers of the code's own against each "
            f"other, which it could read while it makes them: {shown}"
        )
    return said


def implemented(
    every: Sequence[Case], included: Mapping[str, bool] | None, tests: Mapping[str, bytes]
) -> list[Case]:
    """The cases the track's tests implement: those its `tests.toml` includes, and those it
    does not mention (a file older than the tests: Rust's bowling lists 6 of the 31 cases)
    where a test is named as the case is described (`chromatic_scale_with_sharps`,
    `test('chromatic scale with sharps')`), unless two cases are described so; of a newer
    case described as the one it reimplements, the newer, where the record names neither
    (the reference's proof takes the other where the track's tests follow that:
    `readings`). Every case where the track has no `tests.toml`."""
    if included is None:
        return list(every)
    by_id = {case.id: case for case in every}
    restated = {
        case.id
        for case in every
        if case.replaced and _leaf(by_id.get(case.counterpart, case)) == _leaf(case)
    }
    leaves = Counter(_leaf(case) for case in every if case.id not in restated)
    text = b"\n".join(tests.values()).decode("utf-8", "replace")
    named = {_words(name).removeprefix("test") for name in _NAME.findall(text)}
    named |= {_words(said) for pair in _SAID.findall(text) for said in pair if said}
    return [
        case
        for case in every
        if included.get(case.id, False)
        or (
            case.id not in included
            and case.id not in restated
            and not included.get(case.counterpart, False)
            and leaves[leaf := _leaf(case)] == 1
            and len(leaf) >= _NAMED_LENGTH
            and leaf in named
        )
    ]


def _leaf(case: Case) -> str:
    """The case's own description (its groups' left out), as `_words` reads it."""
    return _words(case.description.rpartition(" > ")[2])


def _words(text: str) -> str:
    return _NOT_WORD.sub("", text.lower())


def _compares_messages(cases: Sequence[Case], tests: Mapping[str, bytes]) -> bool:
    """Whether the track's tests hold every canonical error message its cases expect, as a
    string of its own (not inside a test's name): else the track words its errors its own
    way (which its model is told), or not at all."""
    text = b"\n".join(tests.values()).decode("utf-8", "replace")
    wanted = {str(case.expected["error"]) for case in cases if case.expects_error}
    return all(any(f"{q}{m}{q}" in text for q in "\"'`") for m in wanted)


def _head(exercise: Exercise) -> str:
    return f"{exercise.slug} ({exercise.language})"


def _shown(calls: CallMap) -> str:
    return "; ".join(
        f"{prop}: {call}{' (in any order)' if prop in calls.unordered else ''}"
        for prop, call in sorted(calls.calls.items())
    )


def write_calls(kata_dir: Path, language: str, calls: CallMap | None) -> None:
    """Set `language`'s section of the kata's calls.yaml to `calls`, or remove it (None);
    the other languages' stay. A file left with no section goes."""
    path = kata_dir / "acceptance" / CALLS_FILE
    try:
        mapping = yaml.safe_load(path.read_text(encoding="utf-8")) if path.is_file() else {}
    except yaml.YAMLError:
        mapping = {}
    mapping = mapping if isinstance(mapping, dict) else {}
    if calls is None:
        mapping.pop(language, None)
    else:
        section = calls.model_dump(exclude_defaults=True)
        mapping[language] = {
            key: sorted(value) if isinstance(value, frozenset) else value
            for key, value in section.items()
        }
    if not mapping:
        path.unlink(missing_ok=True)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(mapping, sort_keys=True, allow_unicode=True), encoding="utf-8")
