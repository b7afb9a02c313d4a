"""The rules by which a derived data suite is read where its track departs from the data:
each applies only where it explains every case the reference fails and leaves each property
judged by a case the stub does not pass."""

from __future__ import annotations

from tdd_sandbox.acceptance.proof import Proof
from tdd_sandbox.acceptance.readings import READINGS, departures
from tdd_sandbox.grading.acceptance import (
    AcceptanceReport,
    CaseResult,
    CaseStatus,
    flatten_cases,
    grade,
)
from tdd_sandbox.vocabulary.cases import CallMap, Case, Observed

ROUNDING, IN_HUNDREDTHS, NO_ANSWER, MORE_TIME, SWAPPING, LEAVING_ERRORS, LEAVING_REPLACED = READINGS
ROUNDED, HUNDREDTHS, NONE, TIME, SWAPPED, ERRORS, REPLACED = (r.explains for r in READINGS)


def _report(passed: int, total: int) -> AcceptanceReport:
    return AcceptanceReport(
        tuple(
            CaseResult(f"c{i}", CaseStatus.PASSED if i < passed else CaseStatus.WRONG)
            for i in range(total)
        )
    )


def _cases(*kinds: tuple[str, bool]) -> list[Case]:
    """Cases c0, c1, ... of (property, whether it expects an error)."""
    return [
        Case(f"c{i}", "-", prop, {}, {"error": "no"} if error else 1)
        for i, (prop, error) in enumerate(kinds)
    ]


def test_errors_a_track_reports_its_own_way_are_named_where_the_rest_still_judge() -> None:
    # go-counting's JavaScript reference returns `{error}` where the data throws: 7 of 11.
    cases = _cases(*[("territory", False)] * 6, *[("territories", False)] * 1,
                   *[("territory", True)] * 4)  # fmt: skip
    proof = Proof("go-counting", "javascript", _report(7, 11), _report(0, 11))
    assert departures(proof, cases, ERRORS) == ["c7", "c8", "c9", "c10"]
    # Half or more failing: not a few errors, and every case stays.
    half = _cases(*[("a", True)] * 10)
    assert departures(Proof("k", "go", _report(5, 10), _report(0, 10)), half, ERRORS) == []
    # A value the track answers otherwise (list-ops' map with its function inputs): its
    # property would be judged by the trivial cases left (the empty list), so every case stays.
    values = _cases(*[("a", False)] * 11)
    assert departures(Proof("k", "python", _report(9, 11), _report(0, 11)), values, ERRORS) == []
    # Nor where a property's only cases the reference passes are cases the stub passes too.
    stubbed = _cases(("b", False), *[("a", False)] * 8, ("a", True), ("a", True))
    assert departures(Proof("k", "go", _report(9, 11), _report(1, 11)), stubbed, ERRORS) == []
    assert departures(Proof("k", "go", _report(9, 11), _report(0, 11)), stubbed, ERRORS) == [
        "c9",
        "c10",
    ]
    # A reference that ran nothing, or a proved suite, departs nowhere.
    assert departures(Proof("k", "go", _report(0, 0), _report(0, 0)), [], ERRORS) == []
    assert departures(Proof("k", "go", _report(11, 11), _report(0, 11)), stubbed, ERRORS) == []


def test_no_answer_as_an_error_explains_failures_of_cases_expecting_null_or_an_error() -> None:
    # Go's alphametics: the reference returns an error for the 2 of 10 puzzles without a
    # solution, whose data answer is null.
    cases = [Case(f"c{i}", "-", "solve", {}, {"A": 1}) for i in range(8)]
    cases += [Case("c8", "-", "solve", {}, None), Case("c9", "-", "solve", {}, {"error": "x"})]
    proof = Proof("alphametics", "go", _report(8, 10), _report(0, 10))
    assert departures(proof, cases, NONE) == ["c8", "c9"]
    assert departures(proof, cases, ERRORS) == ["c9"]  # c8 expects no error
    # A value expected (c7), not null: this reading explains the others only, and c7 stays
    # failing unless another reading explains it (the suite is then not proved).
    seven = Proof("k", "go", _report(7, 10), _report(0, 10))
    assert departures(seven, cases, NONE) == ["c8", "c9"]
    reading = NO_ANSWER.reads(CallMap(calls={"solve": "solve(${p})"}), cases[8:])
    assert reading.none_is_error
    assert not reading.exclude  # every case stays


def test_more_time_explains_cases_the_reference_gave_no_result_for() -> None:
    # Rust's alphametics: 3 of 10 puzzles searched past a case's 5 s at a debug build's speed.
    cases = [Case(f"c{i}", "-", "solve", {}, {"A": 1}) for i in range(10)]
    slow = tuple(
        CaseResult(f"c{i}", CaseStatus.PASSED if i < 7 else CaseStatus.NO_RESULT, "timed out")
        for i in range(10)
    )
    proof = Proof("alphametics", "rust", AcceptanceReport(slow), _report(0, 10))
    assert departures(proof, cases, TIME) == ["c7", "c8", "c9"]
    assert departures(Proof("k", "rust", _report(7, 10), _report(0, 10)), cases, TIME) == []
    longer = MORE_TIME.reads(CallMap(calls={"solve": "x"}, timeout_s=20), cases[7:8])
    assert longer.timeout_s == 60  # four times as long, at most the bound
    assert MORE_TIME.says(longer, ["c7"]) == ", given 60 s a case, as the reference needs"


def test_a_case_a_newer_one_of_the_data_replaces_is_left_out_where_the_reference_fails_it() -> None:
    # Java's sgf-parsing: "escaped property" (11c36323), which the data reimplements with
    # SGF's newer escaping; the track's reference answers it the newer way, 12 of 13.
    document = {
        "cases": [
            *({"uuid": f"c{i}", "description": f"d{i}", "property": "parse", "input": {},
               "expected": i} for i in range(12)),
            {"uuid": "c12", "description": "old", "property": "parse", "input": {},
             "expected": "a\\nb"},
            {"uuid": "c13", "description": "new", "reimplements": "c12", "property": "parse",
             "input": {}, "expected": "anb"},
        ]
    }  # fmt: skip
    cases = flatten_cases(document)
    assert [case.id for case in cases if case.replaced] == ["c12"]
    ran = AcceptanceReport(tuple(
        CaseResult(f"c{i}", CaseStatus.WRONG if i == 12 else CaseStatus.PASSED) for i in range(14)
    ))  # fmt: skip
    proof = Proof("sgf-parsing", "java", ran, _report(0, 14))
    assert departures(proof, cases, REPLACED) == ["c12"]
    assert departures(proof, cases, ERRORS) == []  # a value, not an error
    read = LEAVING_REPLACED.reads(CallMap(calls={"parse": "parse(${encoded})"}), cases[12:13])
    assert read.exclude == {"c12"}
    assert "a newer case of the data replaces" in LEAVING_REPLACED.says(read, ["c12"])
    # A case nothing replaces is never left out so.
    unreplaced = flatten_cases({"cases": document["cases"][:13]})
    assert departures(proof, unreplaced, REPLACED) == []


def test_a_case_the_reference_fails_is_taken_as_the_other_statement_of_the_data() -> None:
    # JavaScript's scale-generator: its record names the scales that stop short of the tonic
    # (6f5b1410...), which the data reimplements closed on it; its tests and reference close
    # them. The reference fails 15 of 17, more than any other reading lets go: this one may
    # explain them all, as it keeps as many cases as it takes out.
    document = {"cases": [
        {"uuid": "chromatic", "description": "chromatic", "property": "chromatic",
         "input": {"tonic": "C"}, "expected": ["C", "C#"]},
        *({"uuid": f"old{i}", "description": f"scale {i}", "property": "interval",
           "input": {"tonic": "C"}, "expected": ["C", "D"]} for i in range(3)),
        *({"uuid": f"new{i}", "description": f"scale {i}", "property": "interval",
           "reimplements": f"old{i}", "input": {"tonic": "C"}, "expected": ["C", "D", "C"]}
          for i in range(3)),
    ]}  # fmt: skip
    every = flatten_cases(document)
    assert {c.id: c.counterpart for c in every if c.counterpart} == {
        "old0": "new0", "old1": "new1", "old2": "new2",
        "new0": "old0", "new1": "old1", "new2": "old2",
    }  # fmt: skip
    named = CallMap(calls={"interval": "x"}, exclude=frozenset({"new0", "new1", "new2"}))
    cases = [case for case in every if case.id not in named.exclude]
    failing = (CaseResult(f"old{i}", CaseStatus.WRONG) for i in range(3))
    ran = AcceptanceReport((CaseResult("chromatic", CaseStatus.PASSED), *failing))
    proof = Proof("scale-generator", "javascript", ran, _report(0, 4))
    assert SWAPPING.alone
    failed = departures(proof, cases, SWAPPED, alone=True)
    assert failed == ["old0", "old1", "old2"]
    read = SWAPPING.reads(named, [case for case in cases if case.id in failed])
    assert read.exclude == {"old0", "old1", "old2"}
    # Of the others' guard, too many fail; and a case of no pair has no other statement.
    assert departures(proof, cases, REPLACED) == []
    assert not SWAPPED(every[0], ran.results[0])


def test_decimals_the_data_rounds_explain_every_decimal_case_the_reference_fails() -> None:
    # C++'s space-age: the reference answers 31.6880... for every planet where the data says
    # 31.69 (its tests compare within 0.005), so it fails all 8 cases: this reading alone
    # may explain them all, and keeps every case.
    cases = [Case(f"c{i}", "-", "age", {}, 31.69) for i in range(7)]
    cases.append(Case("c7", "-", "age", {}, 2))  # a whole number: no places to round to
    proof = Proof("space-age", "cpp", _report(0, 8), _report(0, 8))
    rounded = ROUNDING
    assert rounded.alone
    assert departures(proof, cases, ROUNDED, alone=True) == [f"c{i}" for i in range(7)]
    assert departures(proof, cases, ROUNDED) == []  # the others' guard: too many failing
    assert rounded.reads(CallMap(calls={"age": "age()"}), cases[:1]).rounded


def test_whole_numbers_the_data_counts_in_hundredths_explain_decimal_answers_a_hundredth() -> None:
    # Java's book-store answers 8.0 (dollars) where the data counts 800 (cents): every case
    # but the empty basket's fails, and this reading alone may explain them all.
    cases = [Case(f"c{i}", "-", "total", {}, 800) for i in range(3)]
    results = (
        CaseResult("c0", CaseStatus.WRONG, "", 8.0),
        CaseResult("c1", CaseStatus.WRONG, "", 800),  # a whole number: no decimal read so
        CaseResult("c2", CaseStatus.WRONG, "", 7.5),  # a hundredth of another
    )
    proof = Proof("book-store", "java", AcceptanceReport(results), _report(0, 3))
    hundredths = IN_HUNDREDTHS
    assert hundredths.alone
    assert departures(proof, cases, HUNDREDTHS, alone=True) == ["c0"]
    assert hundredths.reads(CallMap(calls={"total": "total()"}), cases[:1]).hundredths


def test_a_decimal_answer_is_read_in_hundredths_only_where_a_whole_number_is_expected() -> None:
    cases = [Case("a", "-", "total", {}, 800), Case("b", "-", "total", {}, 8.0)]
    seen = {"a": Observed(value=8.0), "b": Observed(value=8.0)}
    as_said = grade(cases, seen)
    assert [r.status for r in as_said.results] == [CaseStatus.WRONG, CaseStatus.PASSED]
    read = grade(cases, seen, hundredths=True)
    assert [r.status for r in read.results] == [CaseStatus.PASSED, CaseStatus.PASSED]
