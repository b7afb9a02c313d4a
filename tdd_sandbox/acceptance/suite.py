"""A kata's hidden acceptance suite on disk: `acceptance/canonical-data.json` (the cases,
in problem-specifications' shape) and `acceptance/calls.yaml` (per language, how a case's
`property` becomes a call; a language whose track's own tests are transcribed, `transcripts`,
needs no canonical data)::

    python:
      setup: from calculator import add       # run once, before any case
      calls: {add: add(numbers)}               # statements, ending in the expression judged
      errors: [ValueError]                     # error kinds that count as the kata's errors
    rust:
      calls: {add: "kata::add(${numbers})"}    # ${name}: the input as a Rust literal
      errors: [Err]                            # Err (a returned Err) or panic

Both files stay on the host; only the inputs travel to the sandbox, as does
`acceptance/left-out.json`, the cases the stub passes (`read_left_out`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from tdd_sandbox.errors import UsageError
from tdd_sandbox.grading.acceptance import flatten_cases
from tdd_sandbox.katas.calls import CALLS_FILE, CASES_FILE
from tdd_sandbox.vocabulary.cases import TRACK_TEST, CallMap, Case, Restated
from tdd_sandbox.vocabulary.files import write_atomic


@dataclass(frozen=True)
class Suite:
    """The cases and every language's call mapping."""

    name: str
    cases: tuple[Case, ...]
    languages: Mapping[str, CallMap]

    def calls_for(self, language: str) -> CallMap:
        """The mapping for `language`.

        Raises:
            UsageError: the suite has none for it.
        """
        if language not in self.languages:
            raise UsageError(
                f"{self.name} has no acceptance calls for {language}: add a `{language}:` "
                f"section to its acceptance/{CALLS_FILE}"
            )
        return self.languages[language]

    def cases_for(self, language: str) -> tuple[Case, ...]:
        """The cases `language` is judged on: all but those its mapping excludes, as it
        restates them, then the cases of its track's own (`Restated.description`).

        Raises:
            UsageError: the suite has no mapping for it.
        """
        calls = self.calls_for(language)
        known = {case.id for case in self.cases}
        own = tuple(
            Case(case_id, restated.description or case_id, TRACK_TEST, restated.input,
                 restated.expected)
            for case_id, restated in calls.restated.items()
            if case_id not in known and case_id not in calls.exclude
        )  # fmt: skip
        return (
            tuple(
                _restated(case, calls.restated.get(case.id))
                for case in self.cases
                if case.id not in calls.exclude
            )
            + own
        )


def _restated(case: Case, restated: Restated | None) -> Case:
    """The case as the language's track states it, where it restates it."""
    if restated is None:
        return case
    return replace(case, input=restated.input, expected=restated.expected)


def has_suite(kata_dir: Path, language: str) -> bool:
    """Whether the kata can be scored in `language` (without reading the cases): calls for
    it beside canonical data, or its own hidden test files (`acceptance/<language>/`)."""
    return has_calls(kata_dir, language) or (kata_dir / "acceptance" / language).is_dir()


def missing_suite(kata_dir: Path, language: str) -> UsageError:
    """The error for a kata without a suite in `language`, naming both ways to add one."""
    return UsageError(
        f"{kata_dir.name} has no hidden acceptance suite for {language}: add "
        f"acceptance/{language}/ test files, or canonical data with calls.yaml"
    )


def has_reference(kata_dir: Path, language: str) -> bool:
    """Whether the kata has a reference solution in `language` (`reference/<language>/`)."""
    return (kata_dir / "reference" / language).is_dir()


def has_calls(kata_dir: Path, language: str) -> bool:
    """Whether the kata is judged as data in `language`: a call mapping for it beside
    canonical data, or its track's own tests transcribed, which need none."""
    section = _calls_of(kata_dir, language)
    if section is None:
        return False
    return (kata_dir / "acceptance" / CASES_FILE).is_file() or bool(section.get("transcripts"))


def case_names(kata_dir: Path, language: str) -> dict[str, str]:
    """Each case judged as data in `language`, its description by its id (a uuid where the
    data has one): the name a model and a reader of a report know it by. Empty where the
    kata is not judged as data there."""
    if not has_calls(kata_dir, language):
        return {}
    return {case.id: case.description for case in load_suite(kata_dir).cases_for(language)}


def interface(kata_dir: Path, language: str) -> str:
    """How the acceptance suite reaches the kata's code in `language` (its `setup`: Python's
    imports), which the kata's text states too; empty where it has none."""
    section = _calls_of(kata_dir, language)
    setup = section.get("setup", "") if section is not None else ""
    return setup if isinstance(setup, str) else ""


def _calls_of(kata_dir: Path, language: str) -> dict[str, Any] | None:
    path = kata_dir / "acceptance" / CALLS_FILE
    if not path.is_file():
        return None
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return None
    section = data.get(language) if isinstance(data, dict) else None
    return section if isinstance(section, dict) else None


def load_suite(kata_dir: Path) -> Suite:
    """Read and check a kata's suite: every case's property has a call in every language.

    Raises:
        UsageError: a file is missing or malformed; the message names it and the fix.
    """
    folder = kata_dir / "acceptance"
    cases_path, calls_path = folder / CASES_FILE, folder / CALLS_FILE
    if not calls_path.is_file():
        raise UsageError(
            f"{kata_dir.name} has no hidden acceptance suite: add {cases_path} and {calls_path}"
        )
    try:
        # No canonical data: only a track's own tests, transcribed, are cases.
        given = cases_path.is_file()
        document = json.loads(cases_path.read_text(encoding="utf-8")) if given else {}
        mapping = yaml.safe_load(calls_path.read_text(encoding="utf-8"))
    except (OSError, ValueError, yaml.YAMLError) as exc:
        raise UsageError(f"{kata_dir.name}: cannot read its acceptance suite: {exc}") from None
    if not isinstance(document, dict) or not isinstance(mapping, dict):
        raise UsageError(f"{kata_dir.name}: {CASES_FILE} and {CALLS_FILE} must hold maps")
    cases = tuple(flatten_cases(document, source=str(cases_path))) if given else ()
    languages: dict[str, CallMap] = {}
    for language, section in mapping.items():
        try:
            languages[str(language)] = CallMap.model_validate(section)
        except ValidationError as exc:
            # A misspelt key explains the "missing" one that follows from it: name it first.
            errors = sorted(exc.errors(), key=lambda e: e["type"] != "extra_forbidden")
            where = ".".join(str(p) for p in errors[0]["loc"])
            message = "unknown key" if errors[0]["type"] == "extra_forbidden" else errors[0]["msg"]
            raise UsageError(f"{calls_path}: {language}.{where}: {message}") from None
        # Only the cases the language is judged on need a call (a track may leave a whole
        # property out: forth's evaluateBoth).
        section = languages[str(language)]
        if not given and not section.transcripts:
            raise UsageError(
                f"{kata_dir.name} has no cases for {language}'s calls: add {cases_path}"
            )
        wanted = {c.property for c in cases if c.id not in section.exclude}
        missing = sorted(wanted - set(section.calls))
        if missing:
            raise UsageError(f"{calls_path}: {language} has no call for {', '.join(missing)}")
    return Suite(kata_dir.name, cases, languages)


LEFT_OUT = "left-out.json"
"""`acceptance/left-out.json`: by language, the ids of the cases the kata's stub passes,
which its proof found and no score counts."""


def read_left_out(kata_dir: Path, language: str) -> frozenset[str]:
    """The cases of `language`'s suite that no score counts (none when the kata says none).

    Raises:
        UsageError: the file is not a map of languages to lists of case ids.
    """
    path = kata_dir / "acceptance" / LEFT_OUT
    if not path.is_file():
        return frozenset()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        ids = data.get(language, []) if isinstance(data, dict) else None
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise ValueError
    except ValueError:
        raise UsageError(
            f"{path} is not a map of languages to lists of case ids: fix it, or delete it "
            "and import the kata again"
        ) from None
    return frozenset(ids)


def write_left_out(kata_dir: Path, language: str, ids: Sequence[str]) -> None:
    """Record `ids` as `language`'s cases that no score counts (none: the entry goes)."""
    path = kata_dir / "acceptance" / LEFT_OUT
    data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    data.pop(language, None)
    if ids:
        data[language] = sorted(ids)
    if data:
        write_atomic(path, json.dumps(data, indent=2, sort_keys=True) + "\n")
    elif path.is_file():
        path.unlink()
