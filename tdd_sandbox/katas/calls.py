"""Data suites for imported exercises: where a kata has problem-specifications' canonical
data, each track's pack derives how its language performs the cases (`derive_calls`), read off
the track's stub and tests, and the mapping joins the kata's calls.yaml. The import's proof
then confirms it with the reference, or the track's tests judge instead."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from tdd_sandbox.errors import UsageError
from tdd_sandbox.grading.acceptance import flatten_cases
from tdd_sandbox.katas.exercism import Exercise
from tdd_sandbox.languages import get_language
from tdd_sandbox.vocabulary.cases import CallMap

CASES_FILE = "canonical-data.json"
CALLS_FILE = "calls.yaml"


def derive_data_suite(kata_dir: Path, exercise: Exercise) -> str | None:
    """Write (or clear) the exercise's language section of the kata's calls.yaml; a line
    saying which, and why; None where the kata has no canonical data."""
    assert exercise.language is not None  # a track's exercise
    head = f"{exercise.slug} ({exercise.language})"
    path = kata_dir / "acceptance" / CASES_FILE
    if not path.is_file():
        return None
    try:
        cases = flatten_cases(json.loads(path.read_text(encoding="utf-8")), source=str(path))
    except (ValueError, UsageError) as exc:
        return f"{head}: judged by its track's tests: its canonical data is unreadable ({exc})"
    included = exercise.included
    if included is not None:
        cases = [case for case in cases if included.get(case.id, False)]
    derived = get_language(exercise.language).derive_calls(cases, exercise.stub, exercise.tests)
    if not cases or isinstance(derived, str):
        write_calls(kata_dir, exercise.language, None)
        why = derived if isinstance(derived, str) else "the track implements none of its cases"
        return f"{head}: judged by its track's tests: {why}"
    every = flatten_cases(json.loads(path.read_text(encoding="utf-8")), source=str(path))
    kept = {case.id for case in cases}
    exclude = frozenset(case.id for case in every if case.id not in kept)
    write_calls(kata_dir, exercise.language, derived.model_copy(update={"exclude": exclude}))
    return (
        f"{head}: a data suite of {len(cases)} cases, its calls read off the track "
        f"({_shown(derived)}), to be proved with the reference"
    )


def _shown(calls: CallMap) -> str:
    return "; ".join(f"{prop}: {call}" for prop, call in sorted(calls.calls.items()))


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
