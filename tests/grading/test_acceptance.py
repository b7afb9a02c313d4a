"""The pure half of scoring: canonical data flattened, plain-data equality, grading."""

from __future__ import annotations

from typing import Any

import pytest

from tdd_sandbox.errors import UsageError
from tdd_sandbox.grading.acceptance import (
    AcceptanceReport,
    CaseStatus,
    flatten_cases,
    grade,
)
from tdd_sandbox.grading.equality import plain_equal
from tdd_sandbox.vocabulary.cases import Case, Judged, Observed

DOCUMENT = {
    "exercise": "x",
    "cases": [
        {"description": "group", "cases": [
            {"uuid": "u1", "description": "a", "property": "p", "input": {"n": 1},
             "expected": "1"},
            {"description": "b", "property": "p", "input": {"n": 2}, "expected": 2},
        ]},
        {"description": "fails", "property": "p", "input": {"n": -1},
         "expected": {"error": "negative"}},
    ],
}  # fmt: skip


def test_flatten_takes_uuids_or_description_paths_in_order() -> None:
    cases = flatten_cases(DOCUMENT)
    assert [c.id for c in cases] == ["u1", "group > b", "fails"]
    assert cases[2].expects_error
    assert not cases[0].expects_error


@pytest.mark.parametrize(
    "document",
    [
        {"cases": []},
        {"cases": "x"},
        {"cases": [{"description": "a", "input": {}, "expected": 1}]},
        {"cases": [{"description": "a", "property": "p", "input": [1], "expected": 1}]},
        {"cases": [{"property": "p", "input": {}, "expected": 1}]},
        {"cases": [{"description": "a", "property": "p", "input": {}, "expected": 1}] * 2},
    ],
)
def test_malformed_canonical_data_is_a_usage_error(document: dict[str, Any]) -> None:
    with pytest.raises(UsageError):
        flatten_cases(document)


@pytest.mark.parametrize(
    ("expected", "actual", "equal"),
    [
        ("1", "1", True),
        ("1", 1, False),
        (1, True, False),
        (True, 1, False),
        (False, 0, False),
        (None, None, True),
        (None, 0, False),
        (1, 1.0, True),
        (0.1 + 0.2, 0.3, True),
        (0.3, 0.31, False),
        ([1, 2], [1, 2], True),
        ([1, 2], [2, 1], False),
        ([1], [1, 1], False),
        ({"a": [1]}, {"a": [1]}, True),
        ({"a": 1}, {"a": 1, "b": 2}, False),
        ([], {}, False),
        ("", None, False),
    ],
)
def test_plain_equality_is_type_strict(expected: Any, actual: Any, equal: bool) -> None:
    assert plain_equal(expected, actual) is equal


@pytest.mark.parametrize(
    ("expected", "forged"),
    # Within rel_tol=1e-9 of the answer, one off: an integer expectation met by a float near it.
    [
        (1_000_000_000, 1_000_000_001.0),
        (1_000_000_000, 999_999_999.5),
        (7_291_000_000, 7.291e9 + 3),
    ],
)
def test_an_integer_expectation_takes_no_tolerance(expected: int, forged: float) -> None:
    assert not plain_equal(expected, forged)
    assert plain_equal(expected, float(expected))  # the same number, as a float, still is
    assert plain_equal(0, 1.2246467991473532e-16)  # exp(i*pi)'s imaginary part: rounding
    assert plain_equal(-1, -1.0000000000000002)
    # A decimal in the data keeps its tolerance: 0.1 + 0.2 is 0.3.
    assert plain_equal(float(expected) + 0.5, float(expected) + 0.5 + 1e-7)


def test_an_always_equal_value_is_never_equal_here() -> None:
    class Anything(str):
        def __eq__(self, other: object) -> bool:
            return True

        __hash__ = str.__hash__

    assert not plain_equal("Fizz", Anything("?"))


def _case(expected: Any) -> Case:
    return Case("c", "c", "p", {}, expected)


@pytest.mark.parametrize(
    ("expected", "seen", "errors", "status"),
    [
        ("1", Observed(value="1"), frozenset(), CaseStatus.PASSED),
        ("1", Observed(value="2"), frozenset(), CaseStatus.WRONG),
        ("1", Observed(error="boom", error_type="ValueError"), frozenset(), CaseStatus.WRONG),
        ("1", Observed(failure="timed out after 5s"), frozenset(), CaseStatus.NO_RESULT),
        ("1", None, frozenset(), CaseStatus.NO_RESULT),
        ({"error": "neg"}, Observed(error="neg", error_type="ValueError"), frozenset(),
         CaseStatus.PASSED),
        ({"error": "neg"}, Observed(error="neg ", error_type="Err"), frozenset({"Err"}),
         CaseStatus.PASSED),
        ({"error": "neg"}, Observed(error="neg", error_type="panic"), frozenset({"Err"}),
         CaseStatus.WRONG),
        ({"error": "neg"}, Observed(error="other", error_type="Err"), frozenset(),
         CaseStatus.WRONG),
        ({"error": "neg"}, Observed(value=None), frozenset(), CaseStatus.WRONG),
    ],
)  # fmt: skip
def test_grade_one_case(
    expected: Any, seen: Observed | None, errors: frozenset[str], status: CaseStatus
) -> None:
    observed = {} if seen is None else {"c": seen}
    report = grade([_case(expected)], observed, error_types=errors)
    assert report.results[0].status is status


def test_where_messages_do_not_count_any_error_of_the_kinds_is_the_answer() -> None:
    case = _case({"error": "empty stack"})
    wording = Observed(error="Insufficient number of items in stack", error_type="ValueError")
    assert grade([case], {"c": wording}).results[0].status is CaseStatus.WRONG
    relaxed = grade([case], {"c": wording}, error_types=frozenset({"ValueError"}), messages=False)
    assert relaxed.results[0].status is CaseStatus.PASSED
    # Still an error of the counted kinds, and still an error at all.
    other = Observed(error="x", error_type="IndexError")
    for seen in (other, Observed(value=None)):
        report = grade([case], {"c": seen}, error_types=frozenset({"ValueError"}), messages=False)
        assert report.results[0].status is CaseStatus.WRONG


def test_where_no_answer_is_an_error_either_stands_for_the_other() -> None:
    # Go's alphametics returns an error where the data's answer is null (no solution), and
    # Rust's two-bucket `None` where the data expects an error: both tracks' references failed.
    nothing, error = _case(None), _case({"error": "impossible"})
    failed = Observed(error="no solution", error_type="error")
    for case, seen in ((nothing, failed), (error, Observed(value=None))):
        assert grade([case], {"c": seen}).results[0].status is CaseStatus.WRONG
        report = grade([case], {"c": seen}, none_is_error=True)
        assert report.results[0].status is CaseStatus.PASSED
    # An answer is still not nothing, nor an error of another kind.
    kinds = frozenset({"error"})
    for case, seen in (
        (error, Observed(value=0)),
        (nothing, Observed(error="x", error_type="panic")),
    ):
        report = grade([case], {"c": seen}, none_is_error=True, error_types=kinds)
        assert report.results[0].status is CaseStatus.WRONG


@pytest.mark.parametrize(
    ("value", "status"),
    [
        ("On the first day\nOn the second day\n", CaseStatus.PASSED),
        ("On the first day\nOn the second day", CaseStatus.PASSED),
        # Go's beer-song and JavaScript's food-chain end the last verse with the blank line
        # that parts verses: every case failed.
        ("On the first day\nOn the second day\n\n", CaseStatus.PASSED),
        ("On the first day\nOn the second day\n\n\n", CaseStatus.PASSED),
        ("On the first day\nOn the second day \n", CaseStatus.WRONG),
        ("On the first day\n\nOn the second day\n", CaseStatus.PASSED),
        ("\nOn the first day\nOn the second day", CaseStatus.WRONG),
        ("On the first day On the second day", CaseStatus.WRONG),
        (["On the first day", "On the second day"], CaseStatus.PASSED),
    ],
)
def test_a_string_answer_where_lines_are_expected_is_read_as_its_lines(
    value: Any, status: CaseStatus
) -> None:
    # Tracks return a song or a table as one string (Java's bottle-song, JavaScript's
    # twelve-days) where the canonical data lists its lines.
    lines = _case(["On the first day", "On the second day"])
    assert grade([lines], {"c": Observed(value=value)}).results[0].status is status
    none = grade([_case([])], {"c": Observed(value="")})  # transpose of nothing, in Java
    assert none.results[0].status is CaseStatus.PASSED
    verses = _case(["One", "", "Two"])  # the data's blank line between verses stays
    for text, status in (("One\n\nTwo\n\n", CaseStatus.PASSED), ("One\nTwo", CaseStatus.WRONG)):
        assert grade([verses], {"c": Observed(value=text)}).results[0].status is status
    # Verses a track separates with a blank line (twelve-days) where the data lists none;
    # where the data has its blank lines, they count.
    verses = _case(["a", "", "b"])
    assert grade([verses], {"c": Observed(value="a\nb")}).results[0].status is CaseStatus.WRONG
    assert grade([verses], {"c": Observed(value="a\n\nb")}).results[0].status is CaseStatus.PASSED


@pytest.mark.parametrize(
    ("value", "status"),
    [
        ([4, "one", 5], CaseStatus.PASSED),
        # Go's order: each field takes the next item of its kind, in order within a kind.
        (["one", 4, 5], CaseStatus.PASSED),
        (["one", 5, 4], CaseStatus.WRONG),
        ([4, 5, "one"], CaseStatus.PASSED),
        ([4, 5, 6], CaseStatus.WRONG),
        ([4, "one"], CaseStatus.WRONG),
        ({"moves": 4, "goalBucket": "one", "otherBucket": 5}, CaseStatus.PASSED),
    ],
)
def test_a_tuple_answer_where_a_record_is_expected_is_read_by_kind_in_the_records_order(
    value: Any, status: CaseStatus
) -> None:
    # two-bucket's Python track returns (moves, goal bucket, other bucket), the canonical
    # record's fields in its order: the reference scored 0/9. Go's returns (goal bucket,
    # moves, other bucket).
    record = _case({"moves": 4, "goalBucket": "one", "otherBucket": 5})
    assert grade([record], {"c": Observed(value=value)}).results[0].status is status


def test_the_report_says_why_it_is_low() -> None:
    cases = [Case(str(i), str(i), "p", {}, i) for i in range(3)]
    report = grade(cases, {"0": Observed(value=0), "1": Observed(value=5)})
    assert (report.passed, report.total) == (1, 3)
    assert report.why().startswith("2 failed; first: 1: expected 1, got 5")
    broken = grade(cases, {}, problem="did not compile: error[E0425]")
    assert broken.rate == 0
    assert broken.why() == "did not compile: error[E0425]"
    assert grade(cases[:1], {"0": Observed(value=0)}).why() == ""


def test_the_reason_names_a_case_as_people_know_it() -> None:
    # The board's reasons read "17 failed; first: 1fc316ed-17ab-4fba-88ef-3ae78296b692: ...":
    # the data's uuid, where the kata's tests and the model's prompt give a description.
    uuid = "1fc316ed-17ab-4fba-88ef-3ae78296b692"
    report = grade([Case(uuid, "full garden > for Alice", "p", {}, 1)], {})
    assert report.why({uuid: "full garden > for Alice"}).startswith(
        "1 failed; first: full garden > for Alice: "
    )
    assert report.why().startswith(f"1 failed; first: {uuid}: ")  # no names: the id


def test_only_cases_compared_on_the_host_are_judged_as_data() -> None:
    case = Case("1", "one", "f", {"x": 1}, 2)
    assert grade([case], {"1": Observed(value=2)}).judged is Judged.DATA
    # Any other report makes the weaker claim unless it says otherwise.
    assert AcceptanceReport(()).judged is Judged.IN_PROCESS


def test_a_time_at_midnight_where_a_day_is_expected_is_that_day() -> None:
    # JavaScript's meetup returns a Date, read as its time: "a Date is not plain data" before.
    day = _case("2013-05-13")
    for value, status in (
        ("2013-05-13T00:00:00", CaseStatus.PASSED),
        ("2013-05-13", CaseStatus.PASSED),
        ("2013-05-13T01:00:00", CaseStatus.WRONG),
        ("2013-05-14T00:00:00", CaseStatus.WRONG),
    ):
        assert grade([day], {"c": Observed(value=value)}).results[0].status is status
    moment = _case("2043-01-01T00:00:00")  # a time expected stays a time
    assert grade([moment], {"c": Observed(value="2043-01-01")}).results[0].status is (
        CaseStatus.WRONG
    )


def test_a_property_the_track_takes_in_any_order_compares_as_the_same_items() -> None:
    # Rust's poker collects the winning hands into a HashSet: the reference's two winners in
    # the other order failed the one case with two.
    case = Case(id="c", description="", property="best", input={}, expected=["a", "b", "b"])
    for value, status in (
        (["b", "a", "b"], CaseStatus.PASSED),
        (["b", "a"], CaseStatus.WRONG),
        (["b", "a", "a"], CaseStatus.WRONG),  # each as often
        ("ab", CaseStatus.WRONG),
    ):
        report = grade([case], {"c": Observed(value=value)}, unordered=frozenset({"best"}))
        assert report.results[0].status is status, value
    ordered = grade([case], {"c": Observed(value=["b", "a", "b"])})
    assert ordered.results[0].status is CaseStatus.WRONG


def test_a_text_where_a_record_is_expected_is_read_as_its_fields_word_by_word() -> None:
    # resistor-color-trio: Java's and JavaScript's tracks label a resistor "33 ohms" where
    # the data's answer is {value: 33, unit: "ohms"}; the references scored 0 of 10.
    record = _case({"value": 33, "unit": "ohms"})
    for value, status in (
        ("33 ohms", CaseStatus.PASSED),
        ("33  ohms\n", CaseStatus.PASSED),
        ("33.0 ohms", CaseStatus.PASSED),  # numbers compare by value, as everywhere
        ("33.5 ohms", CaseStatus.WRONG),
        ("thirty-three ohms", CaseStatus.WRONG),
        ("ohms 33", CaseStatus.WRONG),
        ("33 kiloohms", CaseStatus.WRONG),
        ("3 3 ohms", CaseStatus.WRONG),
        ("33", CaseStatus.WRONG),
    ):
        assert grade([record], {"c": Observed(value=value)}).results[0].status is status, value
    # A number only where the data's field is one: a unit spelled as digits stays text.
    named = _case({"name": "7", "size": 2.5})
    assert grade([named], {"c": Observed(value="7 2.5")}).results[0].status is CaseStatus.PASSED


def test_lines_a_track_wraps_are_read_as_the_data_s_lines_they_spell_word_for_word() -> None:
    # house: JavaScript's track breaks each verse into a line per clause (and parts verses
    # with a blank line) where the data gives a verse a line: its reference scored 1 of 14.
    two = _case(
        ["This is the house that Jack built.", "This is the malt that lay in the house that "
         "Jack built."]
    )  # fmt: skip
    wrapped = ["This is the house that Jack built.", "", "This is the malt",
               "that lay in the house that Jack built."]  # fmt: skip
    for value, status in (
        (wrapped, CaseStatus.PASSED),
        ([line for line in wrapped if line], CaseStatus.PASSED),
        ("\n".join(wrapped) + "\n", CaseStatus.PASSED),
        ([*wrapped, "that Jack built."], CaseStatus.WRONG),  # a line more
        (wrapped[:-1], CaseStatus.WRONG),
        ([*wrapped[:-1], "that lay in the house that Jill built."], CaseStatus.WRONG),
        (["This is the house", "that Jack built. This is the malt", wrapped[-1]],
         CaseStatus.WRONG),  # a line of the data split across two of the answer's
    ):  # fmt: skip
        assert grade([two], {"c": Observed(value=value)}).results[0].status is status, value


def test_where_the_data_rounds_a_decimal_the_answer_is_rounded_to_its_places() -> None:
    # C++'s space-age answers 31.688087814028947 where the data says 31.69.
    case = _case(31.69)
    near, far, whole = Observed(value=31.688087814), Observed(value=31.7), Observed(value=31)
    assert grade([case], {"c": near}).results[0].status is CaseStatus.WRONG
    statuses = [grade([case], {"c": seen}, rounded=True).results[0].status
                for seen in (near, far, whole)]  # fmt: skip
    assert statuses == [CaseStatus.PASSED, CaseStatus.WRONG, CaseStatus.WRONG]
    # A whole number expected: nothing to round to, the answer compares as it came.
    assert grade([_case(2)], {"c": Observed(value=2.0001)}, rounded=True).results[0].status is (
        CaseStatus.WRONG
    )
