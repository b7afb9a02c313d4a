"""Confirming a data suite derived at import: it judges once the reference passes all of it
and the stub does not. Where the reference fails cases that a general rule says the track
answers its own way, the suite is read that way and proved again (`READINGS`, in order):

- the data's decimals are the answer rounded to the places they show (`CallMap.rounded`),
  for the cases it fails that expect a decimal number (C++'s space-age answers 31.6880...
  where the data says 31.69, and its tests compare within 0.005);
- the data's whole numbers count the hundredths of the answer (`CallMap.hundredths`), for
  the cases it fails whose decimal answer is a hundredth of the whole number expected
  (Java's book-store answers 8.0 dollars where the data counts 800 cents);
- no answer and an error stand for each other (`CallMap.none_is_error`), for the cases it
  fails that expect null or an error (Go's alphametics returns an error where the data's
  answer is null, Rust's two-bucket `None` where the data expects an error);
- more time a case (`CallMap.timeout_s`), for the cases it gave no result for, as a search
  the track's tests run in one process under the whole run's limit gives none in a case's
  few seconds (Rust's alphametics at a debug build's speed): four times as long, again
  while it helps, up to the bound;
- a case taken as the other statement of the data's (`Case.counterpart`), for the cases it
  fails that the data reimplements, or that reimplement another: the track's record names
  one statement and its tests follow the other (JavaScript's scale-generator names the
  scales that stop short of the tonic, and its tests close them on it);
- errors left out (`CallMap.exclude`), for the cases it fails that expect an error, which
  the track reports its own way (go-counting's JavaScript returns `{error}` where the data
  throws);
- replaced cases left out, for the cases it fails that a newer case of the data reimplements
  (`Case.replaced`): what they expect changed, and a track may answer either way (Java's
  sgf-parsing escapes as the newer case says).

Each is tried on what the ones before left, and kept where the reference then fails fewer
cases. Each but the first asks the reference to pass more than half the cases and, of
each property, a case the stub fails: a value the track answers otherwise could leave a
property judged by its trivial cases alone (list-ops' `map` of an empty list). Unless the
reference then passes every case, the calls go: the track's own tests transcribed judge as
data where the reference passes every one so (`Language.transcribe_tests`: the derived
calls guessed the track's API wrong, Python's grains calling `square(square)`), else the
track's tests themselves judge."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from tdd_sandbox.acceptance.proof import Proof, prove
from tdd_sandbox.acceptance.suite import load_suite
from tdd_sandbox.acceptance.testfiles import hidden_test_files
from tdd_sandbox.errors import UsageError
from tdd_sandbox.execution.base import Checker
from tdd_sandbox.grading.acceptance import CaseResult, CaseStatus
from tdd_sandbox.katas.calls import transcribed_said, write_calls
from tdd_sandbox.languages.base import Language
from tdd_sandbox.vocabulary.cases import CASE_TIME_BOUND_S, CallMap, Case


@dataclass(frozen=True)
class Reading:
    """A way a track departs from the data: the cases it can explain, the calls that read
    the suite that way, and how to say so."""

    explains: Callable[[Case, CaseResult], bool]
    reads: Callable[[CallMap, list[Case]], CallMap]
    says: Callable[[CallMap, list[str]], str]
    alone: bool = False
    """Whether it may explain every case the reference fails, not only a few: a reading that
    keeps every case and changes only how near an answer must be."""


def _left_out(failed: list[str], what: str = "error{s} the track reports its own way") -> str:
    shown = ", ".join(failed[:5]) + (", ..." if len(failed) > 5 else "")
    said = what.format(s="s" if len(failed) > 1 else "")
    return f" but {len(failed)} {said}, left out: {shown}"


def _leave_out(calls: CallMap, failed: list[Case]) -> CallMap:
    return calls.model_copy(update={"exclude": calls.exclude | {case.id for case in failed}})


def _swap(calls: CallMap, failed: list[Case]) -> CallMap:
    """Each of `failed` left out for its counterpart, taken in."""
    out = {case.id for case in failed}
    return calls.model_copy(
        update={"exclude": (calls.exclude | out) - {case.counterpart for case in failed}}
    )


READINGS = (
    Reading(
        explains=lambda case, result: (
            type(case.expected) is float and result.status is CaseStatus.WRONG
        ),
        reads=lambda calls, _: calls.model_copy(update={"rounded": True}),
        says=lambda *_: ", the data's decimals read as the answer rounded to their places",
        alone=True,
    ),
    Reading(
        explains=lambda case, result: (
            type(case.expected) is int
            and type(result.answer) is float
            and case.expected != 0
            and math.isclose(result.answer * 100, case.expected)
        ),
        reads=lambda calls, _: calls.model_copy(update={"hundredths": True}),
        says=lambda *_: ", the data's whole numbers read as the answer's hundredths",
        alone=True,
    ),
    Reading(
        explains=lambda case, _: case.expected is None or case.expects_error,
        reads=lambda calls, _: calls.model_copy(update={"none_is_error": True}),
        says=lambda *_: ", where the track's no answer and an error stand for each other",
    ),
    Reading(
        explains=lambda _, result: result.status is CaseStatus.NO_RESULT,
        reads=lambda calls, _: calls.model_copy(update={"timeout_s": _longer(calls)}),
        says=lambda calls, _: f", given {calls.timeout_s:g} s a case, as the reference needs",
    ),
    Reading(
        explains=lambda case, _: bool(case.counterpart),
        reads=_swap,
        says=lambda _, failed: (
            f", {len(failed)} case{'s' if len(failed) > 1 else ''} taken as the other "
            "statement of the data's (the track follows the one its record does not name)"
        ),
        alone=True,
    ),
    Reading(
        explains=lambda case, _: case.expects_error,
        reads=_leave_out,
        says=lambda _, failed: _left_out(failed),
    ),
    Reading(
        explains=lambda case, _: case.replaced,
        reads=_leave_out,
        says=lambda _, failed: _left_out(
            failed, "case{s} a newer case of the data replaces (the track may follow either)"
        ),
    ),
)
"""The rules, in the order they are tried: those that keep every case first."""


def _longer(calls: CallMap) -> float:
    return min(CASE_TIME_BOUND_S, calls.timeout_s * 4)


def departures(
    proof: Proof,
    cases: Sequence[Case],
    explains: Callable[[Case, CaseResult], bool],
    *,
    alone: bool = False,
) -> list[str]:
    """The cases the reference fails that `explains` (given the case, and how it failed),
    where it passes more than half and, of each property, one that the stub does not (or,
    `alone`, whatever it passes); else empty."""
    reference = proof.reference
    if reference is None or reference.problem or not reference.results:
        return []
    failed = [r for r in reference.results if r.status is not CaseStatus.PASSED]
    by_id = {case.id: case for case in cases}
    if alone:
        return [r.id for r in failed if r.id in by_id and explains(by_id[r.id], r)]
    if len(failed) * 2 >= len(reference.results):
        return []
    stub = {r.id for r in proof.start.results if r.status is CaseStatus.PASSED}
    property_of = {case.id: case.property for case in cases}
    kept = {property_of.get(r.id) for r in reference.results
            if r.status is CaseStatus.PASSED and r.id not in stub}  # fmt: skip
    if not set(property_of.values()) <= kept:
        return []
    return [r.id for r in failed if r.id in by_id and explains(by_id[r.id], r)]


def confirm_calls(
    checker: Checker, language: Language, kata_dir: Path, proof: Proof, lines: list[str]
) -> Proof:
    """The kata's proof with its derived data suite confirmed, read by such of `READINGS`
    as each leave the reference fewer cases to fail, in turn, or given up for the track's
    tests (proved in turn); a line for people in `lines`.

    Raises:
        UsageError: the suite cannot be scored.
        SandboxUnavailable: the sandbox failed.
    """
    head = f"{kata_dir.name} ({language.name}): judged"
    if proof.reference is not None and proof.suite_proved:
        lines.append(f"{head} as data: the reference passes every case of the data suite")
        return proof
    why = "no reference to confirm them" if proof.reference is None else proof.describe()
    suite = load_suite(kata_dir)
    calls, cases, said = suite.calls_for(language.name), suite.cases_for(language.name), ""
    derived_calls, derived_cases = calls, cases
    for reading in READINGS:
        said_here = ""
        # Again while it helps and changes the calls: more time is asked for in steps.
        while (failed := departures(proof, cases, reading.explains, alone=reading.alone)) and (
            read_calls := reading.reads(calls, [c for c in cases if c.id in failed])
        ) != calls:
            write_calls(kata_dir, language.name, read_calls)
            read = prove(checker, language, kata_dir)
            if _failures(read) >= _failures(proof):
                write_calls(kata_dir, language.name, calls)  # no better read so
                break
            calls, proof, said_here = read_calls, read, reading.says(read_calls, failed)
            # A swap takes cases in: the suite as now read, not read again from disk.
            suite = replace(suite, languages={**suite.languages, language.name: calls})
            cases = suite.cases_for(language.name)
            if proof.suite_proved:
                whole = "the reference passes every case of the data suite"
                lines.append(f"{head} as data: {whole}{said}{said_here}")
                return proof
        said += said_here
    transcribed = _transcribed(checker, language, kata_dir, derived_calls, derived_cases)
    if transcribed is not None:
        whole = "the reference passes every one of the track's tests"
        lines.append(f"{head} as data: {whole}: {transcribed_said(transcribed.calls)}")
        return transcribed.proof
    write_calls(kata_dir, language.name, None)
    lines.append(f"{head} by its track's tests: the derived calls did not prove ({why})")
    return prove(checker, language, kata_dir)


@dataclass(frozen=True)
class _Transcribed:
    proof: Proof
    calls: CallMap


def transcribed_calls(
    language: Language, kata_dir: Path, calls: CallMap, cases: Sequence[Case]
) -> CallMap | None:
    """The track's own tests of `cases` as data (`transcribe_tests`), in place of `calls`
    (what they leave out left out still); None where they cannot be read so, or `calls`
    are such already."""
    if calls.transcripts:
        return None
    try:
        tests = hidden_test_files(kata_dir, language)
    except UsageError:
        return None
    derived = language.transcribe_tests(cases, tests)
    if isinstance(derived, str):
        return None
    return derived.model_copy(update={"exclude": calls.exclude | derived.exclude})


def _transcribed(
    checker: Checker, language: Language, kata_dir: Path, calls: CallMap, cases: Sequence[Case]
) -> _Transcribed | None:
    """The proof with the track's own tests transcribed (`transcribed_calls`), where the
    reference passes every case so; else None, and the calls as they were derived.

    Raises:
        SandboxUnavailable: the sandbox failed.
    """
    if (transcribed := transcribed_calls(language, kata_dir, calls, cases)) is None:
        return None
    write_calls(kata_dir, language.name, transcribed)
    proof = prove(checker, language, kata_dir)
    if proof.reference is not None and proof.suite_proved:
        return _Transcribed(proof, transcribed)
    write_calls(kata_dir, language.name, calls)
    return None


def _failures(proof: Proof) -> int:
    """How many cases the reference does not pass (every one, where none could run)."""
    reference = proof.reference
    if reference is None or reference.problem:
        return 1 << 30
    return sum(r.status is not CaseStatus.PASSED for r in reference.results)
