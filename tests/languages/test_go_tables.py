"""Go's generated case tables as the data suite: the track's own terms for each case (a hand
as one string, its suits as symbols), the call its test makes, the helpers it needs."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from tdd_sandbox.acceptance.suite import load_suite
from tdd_sandbox.grading.acceptance import flatten_cases
from tdd_sandbox.katas.calls import derive_data_suites, implemented
from tdd_sandbox.katas.exercism import read_exercise
from tdd_sandbox.languages.go.tables import derive_go_tables
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.vocabulary.cases import CallMap, Case

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "exercism"
TRACK = FIXTURES / "go" / "exercises" / "practice" / "high-card"
DATA = FIXTURES / "problem-specifications" / "exercises" / "high-card" / "canonical-data.json"


def _derive(tmp_path: Path, track: Path = TRACK) -> tuple[Path, str]:
    kata = tmp_path / "high-card"
    (kata / "acceptance").mkdir(parents=True)
    shutil.copy(DATA, kata / "acceptance" / "canonical-data.json")
    (said,) = derive_data_suites(kata, [read_exercise(track)])
    return kata, said


def test_the_tracks_table_restates_each_case_and_its_test_says_the_call(tmp_path: Path) -> None:
    # The data's hand is a list of cards ("JC"); the track's is one string ("4♤,J♧"), which
    # its test passes through a helper of its own before the call.
    kata, said = _derive(tmp_path)
    assert "highest: kata.Highest(spaced(${hand}))" in said, said
    cases = {case.description: case for case in load_suite(kata).cases_for("go")}
    assert cases["the higher of two ranks"].input == {"hand": "4♤,J♧"}
    assert cases["the higher of two ranks"].expected == "J♧"
    # A boolean field named for an error says the call fails.
    assert cases["a hand of no cards has no highest"].expects_error
    # The track's record words a case as the data once did ("ten beats nine"): matched so.
    assert cases["ten outranks nine"].expected == "10♢"
    # A case the track's record leaves out stays out.
    assert "an ace is low in a five-high straight" not in cases
    # Every other language judges the data's own values.
    assert load_suite(kata).cases[1].input == {"hand": ["4S", "JC"]}


def test_the_driver_gets_the_tracks_helpers_and_no_answer(tmp_path: Path) -> None:
    kata, _ = _derive(tmp_path)
    suite = load_suite(kata)
    calls, cases = suite.calls_for("go"), suite.cases_for("go")
    code = {"high_card.go": b"package highcard\n\nfunc Highest(hand string) (string, error) {\n"
            b"\treturn hand, nil\n}\n", "go.mod": b"module highcard\n\ngo 1.22\n"}  # fmt: skip
    prepared = get_language("go").driver.prepare(code, cases, calls, "n0nce")
    driver = next(text.decode() for path, text in prepared.files.items() if "driver" in path)
    # The helper a call passes an input through joins the driver, with its import once.
    assert "func spaced(hand string) string" in driver
    assert driver.count('"strings"') == 1
    # The helper the track's tests give the package joins the package, with what it calls.
    shared = prepared.files["tdd_track_shared.go"].decode()
    assert shared.startswith("package highcard\n")
    assert "func Rank(card string) int" in shared
    assert "func rankLetter(" in shared
    # Never a test, the table, or an answer: the expected values stay on the host.
    everything = b"\n".join(prepared.files.values()).decode()
    for secret in ("func TestHighest", "testCases", "expectError", '"10♢"'):
        assert secret not in everything


def _changed(tmp_path: Path, old: str, new: str) -> Path:
    track = tmp_path / "track"
    shutil.copytree(TRACK, track)
    table = track / "cases_test.go"
    table.write_text(table.read_text().replace(old, new))
    return track


@pytest.mark.parametrize(
    ("old", "new", "why"),
    [
        ('"ten beats nine"', '"nine beats ten"', "a row of the track's table testCases is no case"),
        ("\t{\n\t\tdescription: \"one card is its own highest\",\n\t\thand:        \"4♤\",\n"
         "\t\texpected:    \"4♤\",\n\t},\n", "", "1 cases are in no table of the track's"),
        ("expected    string", "expected    string\n\tnote string", "its rows give"),
    ],
    ids=["row-of-no-case", "case-in-no-row", "two-answers"],
)  # fmt: skip
def test_a_table_the_data_cannot_read_leaves_the_datas_own_calls(
    tmp_path: Path, old: str, new: str, why: str
) -> None:
    track = _changed(tmp_path, old, new)
    exercise = read_exercise(track)
    every = flatten_cases(json.loads(DATA.read_text()))
    cases = [replace(case, description=exercise.described.get(case.id, case.description))
             for case in implemented(every, exercise.included, exercise.tests)]  # fmt: skip
    reason = derive_go_tables(cases, exercise.tests, ["Highest"], lambda name, _: f"${{{name}}}")
    assert isinstance(reason, str)
    assert why in reason, reason
    # The data's own derivation is tried instead: its list of cards fits no string
    # parameter, which the reference's proof then says.
    _, said = _derive(tmp_path, track)
    assert "kata.Highest(${hand})" in said, said
    calls = yaml.safe_load((tmp_path / "high-card" / "acceptance" / "calls.yaml").read_text())
    assert "restated" not in calls["go"]


def test_an_error_field_of_a_message_says_the_call_fails_where_it_is_not_empty(
    tmp_path: Path,
) -> None:
    # Today's nth-prime and largest-series-product: `err: "there is no zeroth prime"`.
    track = _changed(tmp_path, "expectError bool", "err         string")
    table = track / "cases_test.go"
    table.write_text(table.read_text().replace("expectError: true", 'err:         "empty hand"'))
    test = track / "high_card_test.go"
    test.write_text(test.read_text().replace("case tc.expectError:", 'case tc.err != "":'))
    kata, said = _derive(tmp_path, track)
    assert "kata.Highest(spaced(${hand}))" in said, said
    cases = {case.description: case for case in load_suite(kata).cases_for("go")}
    assert cases["a hand of no cards has no highest"].expects_error
    assert not cases["the higher of two ranks"].expects_error


COLORS_TABLE = b"""package resistorcolor

var colorCodeTestCases = []struct {
\tdescription string
\tinput       string
\texpected    int
}{
\t{description: "Black", input: "black", expected: 0},
\t{description: "White", input: "white", expected: 9},
}

var colorsTestCases = []struct {
\tdescription string
\texpected    []string
}{
\t{description: "Colors", expected: []string{"black", "white"}},
}
"""
COLORS_TEST = b"""package resistorcolor

import "testing"

func TestColorCode(t *testing.T) {
\tfor _, tc := range colorCodeTestCases {
\t\tif got := ColorCode(tc.input); got != tc.expected {
\t\t\tt.Fatalf("ColorCode(%q) = %d", tc.input, got)
\t\t}
\t}
}

func TestColors(t *testing.T) {
\tfor _, tc := range colorsTestCases {
\t\tif got := Colors(); len(got) != len(tc.expected) {
\t\t\tt.Fatalf("Colors() = %v", got)
\t\t}
\t}
}
"""


def test_a_table_of_no_inputs_is_the_call_of_no_arguments_its_test_makes() -> None:
    # Today's resistor-color: `Colors()` for the rows of colorsTestCases, which give only
    # their answer.
    cases = [
        Case("black", "Color codes > Black", "colorCode", {"color": "black"}, 0),
        Case("white", "Color codes > White", "colorCode", {"color": "white"}, 9),
        Case("colors", "Colors", "colors", {}, ["black", "white"]),
    ]
    tests = {"cases_test.go": COLORS_TABLE, "resistor_color_test.go": COLORS_TEST}
    calls = derive_go_tables(cases, tests, ["ColorCode", "Colors"], lambda n, _: f"${{{n}}}")
    assert isinstance(calls, CallMap)
    assert calls.calls == {"colorCode": "kata.ColorCode(${input})", "colors": "kata.Colors()"}
    assert calls.restated["colors"].input == {}
    # A call of no arguments is never taken for a table whose rows give inputs.
    unused = COLORS_TEST.replace(b"ColorCode(tc.input)", b'ColorCode("black")')
    reason = derive_go_tables(
        cases,
        {**tests, "resistor_color_test.go": unused},
        ["ColorCode", "Colors"],
        lambda n, _: f"${{{n}}}",
    )
    assert reason == (
        "the track's table colorCodeTestCases: no test calls a function of the stub with a "
        "row's fields"
    )


CODEC_TABLE = b"""package codec

type codecCase struct {
\tdescription string
\tinput       string
\texpected    string
}

var encodeTests = []codecCase{
\t{description: "empty string", input: "", expected: ""},
\t{description: "two of a kind", input: "AA", expected: "2A"},
}

var decodeTests = []codecCase{
\t{description: "empty string", input: "", expected: ""},
\t{description: "a kind twice over", input: "2A", expected: "AA"},
}

var roundTrips = []codecCase{
\t{description: "encode followed by decode gives original string", input: "AAB", expected: "AAB"},
}
"""


def _looping(table: str, call: str) -> str:
    """A test that ranges over `table`, comparing `call` of the row with its answer."""
    return (
        f"func Test{table}(t *testing.T) {{\n\tfor _, tc := range {table} {{\n"
        f"\t\tif got := {call}; got != tc.expected {{\n\t\t\tt.Fatal(got)\n\t\t}}\n\t}}\n}}\n"
    )


CODEC_TEST = (
    'package codec\n\nimport "testing"\n\n'
    + _looping("encodeTests", "Encode(tc.input)")
    + _looping("decodeTests", "Decode(tc.input)")
    + _looping("roundTrips", "Decode(Encode(tc.input))")
).encode()


def test_a_row_described_as_cases_of_several_properties_is_its_tables_and_values_name_one() -> None:
    # Today's run-length-encoding: "empty string" is a case of encode and of decode alike;
    # each table's other rows say which it is. A row the data has reworded since ("a kind
    # twice over", now "two of a kind, decoded") is the case of its inputs' values.
    cases = [
        Case("e0", "encode > empty string", "encode", {"string": ""}, ""),
        Case("e1", "encode > two of a kind", "encode", {"string": "AA"}, "2A"),
        Case("d0", "decode > empty string", "decode", {"string": ""}, ""),
        Case("d1", "decode > two of a kind, decoded", "decode", {"string": "2A"}, "AA"),
        Case("c0", "consistency > encode followed by decode gives original string",
             "consistency", {"string": "AAB"}, "AAB"),
    ]  # fmt: skip
    tests = {"cases_test.go": CODEC_TABLE, "codec_test.go": CODEC_TEST}
    calls = derive_go_tables(cases, tests, ["Encode", "Decode"], lambda n, _: f"${{{n}}}")
    assert isinstance(calls, CallMap)
    # The package's functions inside an argument are the driver's `kata.` ones too.
    assert calls.calls == {
        "encode": "kata.Encode(${input})",
        "decode": "kata.Decode(${input})",
        "consistency": "kata.Decode(kata.Encode(${input}))",
    }
    assert calls.restated["d0"].input == {"input": ""}
    assert calls.restated["d1"].expected == "AA"
    # Two cases of the same values: which the row is, nothing says.
    twin = [*cases, Case("d2", "decode > again", "decode", {"string": "2A"}, "AA")]
    reason = derive_go_tables(twin, tests, ["Encode", "Decode"], lambda n, _: f"${{{n}}}")
    assert reason == "a row of the track's table decodeTests is no case of the data"


def test_a_comma_ok_field_says_the_call_fails_where_it_is_false() -> None:
    # Today's relative-distance: `expectedOk: false` where no relation is, as the driver
    # reads the call's `ok`; a row that leaves it out is Go's zero value, false.
    table = b"""package kin

var testCases = []struct {
\tdescription    string
\tpersonA        string
\texpectedDegree int
\texpectedOk     bool
}{
\t{description: "a parent", personA: "Vera", expectedDegree: 1, expectedOk: true},
\t{description: "a stranger", personA: "Zoe"},
}
"""
    test = b"""package kin

func TestDegree(t *testing.T) {
\tfor _, tc := range testCases {
\t\tif got, ok := Degree(tc.personA); ok != tc.expectedOk || got != tc.expectedDegree {
\t\t\tt.Fatal(got)
\t\t}
\t}
}
"""
    cases = [
        Case("p", "a parent", "degree", {"person": "Vera"}, 1),
        Case("s", "a stranger", "degree", {"person": "Zoe"}, None),
    ]
    tests = {"cases_test.go": table, "kin_test.go": test}
    calls = derive_go_tables(cases, tests, ["Degree"], lambda n, _: f"${{{n}}}")
    assert isinstance(calls, CallMap)
    assert calls.calls == {"degree": "kata.Degree(${personA})"}
    assert calls.restated["p"].expected == 1
    assert calls.restated["s"].expected == {"error": "an error"}


def _clock_test(compare: str) -> bytes:
    return (
        "package clock\n\nfunc TestAdd(t *testing.T) {\n\tfor _, tc := range addTests {\n"
        "\t\tif actual := New(tc.h, tc.m).Add(tc.a); " + compare + " {\n"
        '\t\t\tt.Fatalf("got %s", actual.String())\n\t\t}\n\t}\n}\n'
    ).encode()


def test_methods_called_on_the_result_and_the_one_it_is_compared_by_join_the_call() -> None:
    # Today's clock: `actual := New(tc.h, tc.m).Add(tc.a)`, compared as `actual.String()`.
    table = b"""package clock

var addTests = []struct {
\tdescription string
\th, m, a     int
\texpected    string
}{
\t{description: "add minutes", h: 10, a: 3, expected: "10:03"},
}
"""
    cases = [Case("add", "add minutes", "add", {"hour": 10, "minute": 0, "value": 3}, "10:03")]
    functions, argument = ["New"], lambda n, _: f"${{{n}}}"
    tests = {"cases_test.go": table, "clock_test.go": _clock_test("tc.expected != actual.String()")}
    calls = derive_go_tables(cases, tests, functions, argument)
    assert isinstance(calls, CallMap)
    assert calls.calls == {"add": "kata.New(${h}, ${m}).Add(${a}).String()"}
    assert calls.restated["add"].input == {"h": 10, "m": 0, "a": 3}
    # A method the test calls only to say what went wrong is not how it compares.
    tests["clock_test.go"] = _clock_test("actual != tc.expected")
    calls = derive_go_tables(cases, tests, functions, argument)
    assert isinstance(calls, CallMap)
    assert calls.calls == {"add": "kata.New(${h}, ${m}).Add(${a})"}
