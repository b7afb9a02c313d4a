"""Acceptance cases as data, and their grading against what a driver observed.

A kata's hidden suite is cases in the shape of Exercism's problem-specifications
(`canonical-data.json`: nested groups of cases, each with a `property`, an `input` and an
`expected` value or `{"error": message}`). Only the inputs ever reach a sandbox; a driver
there performs the calls and reports each result as plain data. The comparison happens
here, on the host, with type-strict equality: a value that claims to equal anything, a
patched test runner or a read of the answers has nothing to act on.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from tdd_sandbox.errors import UsageError
from tdd_sandbox.grading.equality import in_order_of, plain_equal, show
from tdd_sandbox.grading.scripts import script_departure
from tdd_sandbox.grading.shapes import as_expected
from tdd_sandbox.vocabulary.cases import Case, Judged, Observed


def flatten_cases(document: Mapping[str, Any], *, source: str = "canonical data") -> list[Case]:
    """The leaf cases of a canonical-data document, in order.

    Raises:
        UsageError: the document is not in the canonical-data shape, or two cases share an id.
    """
    newer = _reimplemented(document.get("cases"))
    older = {new: old for old, new in newer.items()}
    cases = [
        replace(case, replaced=True, counterpart=newer[case.id])
        if case.id in newer
        else replace(case, counterpart=older[case.id])
        if case.id in older
        else case
        for case in _walk(document.get("cases"), (), source)
    ]
    seen: set[str] = set()
    for case in cases:
        if case.id in seen:
            raise UsageError(f"{source}: two cases have the id {case.id!r}: make them unique")
        seen.add(case.id)
    if not cases:
        raise UsageError(f"{source} holds no cases: add a `cases` list")
    return cases


def _reimplemented(nodes: Any) -> dict[str, str]:
    """The uuids the data's cases say they reimplement, at any depth: old -> new."""
    found: dict[str, str] = {}
    for node in nodes if isinstance(nodes, list) else ():
        if isinstance(node, dict):
            if isinstance(node.get("reimplements"), str) and isinstance(node.get("uuid"), str):
                found[node["reimplements"]] = node["uuid"]
            found |= _reimplemented(node.get("cases"))
    return found


def _walk(nodes: Any, path: tuple[str, ...], source: str) -> Iterator[Case]:
    if not isinstance(nodes, list):
        raise UsageError(f"{source}: `cases` must be a list under {' > '.join(path) or 'the top'}")
    for node in nodes:
        if not isinstance(node, dict) or not isinstance(node.get("description"), str):
            raise UsageError(f"{source}: every case needs a `description` ({node!r:.80})")
        here = (*path, node["description"])
        if "cases" in node:
            yield from _walk(node["cases"], here, source)
            continue
        missing = {"property", "input", "expected"} - set(node)
        if missing or not isinstance(node["input"], dict):
            raise UsageError(
                f"{source}: case {' > '.join(here)!r} needs property, input (a map) and "
                f"expected; missing {sorted(missing)}"
            )
        yield Case(
            id=str(node.get("uuid") or " > ".join(here)),
            description=" > ".join(here),
            property=str(node["property"]),
            input=node["input"],
            expected=node["expected"],
        )


class CaseStatus(enum.StrEnum):
    """How one case ended."""

    PASSED = "passed"
    WRONG = "wrong"
    """A value (or error) other than the expected one."""
    NO_RESULT = "no_result"
    """No usable result: the code did not build or import, hung, crashed, or returned
    something that is not plain data."""


@dataclass(frozen=True)
class CaseResult:
    """One case's verdict with the reason, for people."""

    id: str
    status: CaseStatus
    detail: str = ""
    answer: Any = field(default=None, compare=False)
    """The value a wrong case answered, for the rules that read a track's answers its own
    way (`acceptance.readings`)."""


@dataclass(frozen=True)
class AcceptanceReport:
    """Every case's verdict, and what stopped the code from running at all, if anything."""

    results: tuple[CaseResult, ...]
    problem: str = ""
    """Why no case could run (did not compile, did not import), else empty."""
    judged: Judged = Judged.IN_PROCESS
    """Where the expected values were while the code ran: only `grade` (cases compared here,
    on the host) says `data`; anything else makes the weaker claim."""
    tamper: str = ""
    """What gave a forged verdict away (a `TamperKind`: the policy, the guard's evidence,
    the probe), when that is why cases did not pass; else empty."""
    probed: int | None = None
    """Of an in-process suite's cases, how many the probe could check (their test file had
    expected values it knows to change); None for a suite judged as data, whose expected
    values never reach the code."""
    left_out: tuple[str, ...] = ()
    """Cases the kata's do-nothing stub passes (a `todo!()` panicking where a case expects a
    panic, a default value that is the answer): not in `results`, since they say nothing
    about the code."""

    def without(self, ids: Iterable[str]) -> AcceptanceReport:
        """This report less the cases `ids` (kept in `left_out`)."""
        dropped = frozenset(ids)
        kept = tuple(r for r in self.results if r.id not in dropped)
        gone = tuple(r.id for r in self.results if r.id in dropped)
        probed = None if self.probed is None else min(self.probed, len(kept))
        return replace(self, results=kept, left_out=gone, probed=probed)

    @property
    def passed(self) -> int:
        """Cases passed."""
        return sum(1 for r in self.results if r.status is CaseStatus.PASSED)

    @property
    def total(self) -> int:
        """Cases defined."""
        return len(self.results)

    @property
    def rate(self) -> float:
        """Passed over total (0 when there is nothing to pass)."""
        return self.passed / self.total if self.total else 0.0

    def probed_line(self) -> str:
        """How much of an in-process score the probe checked, for people ("" for data)."""
        if self.probed is None:
            return ""
        if self.probed == 0 and self.total:
            return "not probed: no test has an expected value the judge knows how to change"
        return f"{self.probed} of {self.total} cases probed"

    def why(self, names: Mapping[str, str] | None = None) -> str:
        """One line saying why the score is not full (empty when it is); a case named by
        `names` (its description by its id, a uuid where the data has one) where it has one."""
        if self.problem:
            return self.problem
        failed = [r for r in self.results if r.status is not CaseStatus.PASSED]
        if not failed:
            return ""
        first = (names or {}).get(failed[0].id, failed[0].id)
        return f"{len(failed)} failed; first: {first}: {failed[0].detail}"


def grade(
    cases: Iterable[Case],
    observed: Mapping[str, Observed],
    *,
    error_types: frozenset[str] = frozenset(),
    messages: bool = True,
    none_is_error: bool = False,
    unordered: frozenset[str] = frozenset(),
    rounded: bool = False,
    hundredths: bool = False,
    scripts: frozenset[str] = frozenset(),
    transcribed: frozenset[str] = frozenset(),
    problem: str = "",
) -> AcceptanceReport:
    """Each case against what was observed for it. `error_types`, when given, are the
    error kinds that count as the kata's errors (others are wrong answers); `messages`,
    whether an error's message must be the expected one; `none_is_error`, whether no
    answer (null) and an error of those kinds stand for each other; `unordered`, the
    properties whose list answers compare in any order; `rounded`, whether a number is
    rounded to the places of the expected one before it is compared; `hundredths`, whether
    a decimal answer counts what the data counts a hundred of (dollars for cents); `scripts`, the
    properties performed by a script, judged step by step (`CallMap.steps`), as are the
    cases `transcribed` names (`CallMap.transcripts`)."""
    results = []
    for case in cases:
        seen = observed.get(case.id)
        if seen is None or seen.failure is not None:
            why = seen.failure if seen is not None and seen.failure else (problem or "no result")
            results.append(CaseResult(case.id, CaseStatus.NO_RESULT, str(why)[:300]))
            continue
        if case.property in scripts or case.id in transcribed:
            results.append(_grade_script(case, seen, error_types, messages))
            continue
        if case.property in unordered and seen.error is None:
            seen = Observed(value=in_order_of(case.expected, seen.value))
        if rounded and isinstance(case.expected, float):
            seen = _rounded_as(case.expected, seen)
        if hundredths and type(case.expected) is int and type(seen.value) is float:
            seen = replace(seen, value=seen.value * 100)
        if none_is_error and _none_for_error(case, seen, error_types):
            results.append(CaseResult(case.id, CaseStatus.PASSED))
            continue
        results.append(_grade_one(case, seen, error_types, messages))
    return AcceptanceReport(tuple(results), problem, Judged.DATA)


def _rounded_as(expected: float, seen: Observed) -> Observed:
    """A decimal answer rounded to the places `expected` shows (31.688 for 31.69: 31.69);
    anything else as it came."""
    shown = repr(expected)
    if type(seen.value) is not float or "e" in shown:
        return seen
    return replace(seen, value=round(seen.value, len(shown.partition(".")[2])))


def _none_for_error(case: Case, seen: Observed, error_types: frozenset[str]) -> bool:
    """No answer where an error is expected, or an error of the counted kinds where the
    expected answer is null."""
    if case.expects_error:
        return seen.error is None and seen.value is None
    counted = seen.is_of(error_types)
    return case.expected is None and seen.error is not None and counted


def _grade_script(
    case: Case, seen: Observed, error_types: frozenset[str], messages: bool
) -> CaseResult:
    if seen.error is not None:
        said = f"{seen.error_type}: {seen.error[:120]!r}"
        return CaseResult(case.id, CaseStatus.WRONG, f"the script did not run: {said}")

    def judged(wanted: Any, step: Observed) -> str | None:
        """A step held against a value or an error, as a case's answer is."""
        result = _grade_one(replace(case, expected=wanted), step, error_types, messages)
        return None if result.status is CaseStatus.PASSED else result.detail

    departs = script_departure(case, seen.value, error_types, judged)
    if departs is not None:
        return CaseResult(case.id, CaseStatus.WRONG, departs)
    return CaseResult(case.id, CaseStatus.PASSED)


def _grade_one(
    case: Case, seen: Observed, error_types: frozenset[str], messages: bool
) -> CaseResult:
    if case.expects_error:
        wanted = str(case.expected["error"])
        if seen.error is None:
            return CaseResult(
                case.id, CaseStatus.WRONG, f"expected error {wanted!r}, got {show(seen.value)}"
            )
        if not seen.is_of(error_types):
            kinds = ", ".join(sorted(error_types))
            return CaseResult(
                case.id,
                CaseStatus.WRONG,
                f"expected a {kinds}, got {seen.error_type}: {seen.error[:120]!r}",
            )
        if messages and seen.error.strip() != wanted.strip():
            return CaseResult(
                case.id, CaseStatus.WRONG, f"expected error {wanted!r}, got {seen.error[:120]!r}"
            )
        return CaseResult(case.id, CaseStatus.PASSED)
    if seen.error is not None:
        return CaseResult(
            case.id,
            CaseStatus.WRONG,
            f"expected {show(case.expected)}, got {seen.error_type}: {seen.error[:120]!r}",
        )
    if not plain_equal(case.expected, as_expected(case.expected, seen.value)):
        said = f"expected {show(case.expected)}, got {show(seen.value)}"
        return CaseResult(case.id, CaseStatus.WRONG, said, seen.value)
    return CaseResult(case.id, CaseStatus.PASSED)
