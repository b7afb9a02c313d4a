"""Go's composite literals read as plain data: what a generated test table holds."""

from __future__ import annotations

import pytest

from tdd_sandbox.languages.go.literals import LiteralReader, Unreadable, struct_fields, unquote


def _read(source: str, structs: dict[str, dict[str, str]] | None = None) -> object:
    reader = LiteralReader(source, 0, structs or {})
    return reader.value("")


@pytest.mark.parametrize(
    ("source", "value"),
    [
        ('"tab\\there"', "tab\there"),
        ("`raw \\n stays`", "raw \\n stays"),
        ('"\\u00e9t\\xc3\\xa9 \\101"', "été A"),
        ("'♤'", ord("♤")),
        ("-4", -4),
        ("0x1F", 31),
        ("1_000", 1000),
        ("2.5", 2.5),
        ("[]string{\"a\", `b`,}", ["a", "b"]),
        ("[2][2]int{{0, 0}, {6, 0}}", [[0, 0], [6, 0]]),
        ('map[string][2][2]int{"go": {{-1, -1}, {-1, -1}}}', {"go": [[-1, -1], [-1, -1]]}),
        ("[]string(nil)", None),
    ],
)  # fmt: skip
def test_a_literal_reads_as_the_data_it_spells(source: str, value: object) -> None:
    if source.endswith("(nil)"):
        with pytest.raises(Unreadable):  # a conversion is a call, not a literal
            _read(source)
        return
    assert _read(source) == value


def test_nil_is_the_empty_value_of_its_type_as_the_driver_reports_it() -> None:
    fields = {"hands": "[]string", "counts": "map[string]int", "next": "*Node"}
    row = _read("row{hands: nil, counts: nil, next: nil}", {"row": fields})
    assert row == {"hands": [], "counts": {}, "next": None}


def test_a_struct_reads_as_a_record_of_its_fields_keyed_or_in_order() -> None:
    structs = {"pair": {"left": "int", "right": "[]string"}}
    assert _read('[]pair{{left: 1, right: []string{"x"}}, {2, nil}}', structs) == [
        {"left": 1, "right": ["x"]},
        {"left": 2, "right": []},
    ]


@pytest.mark.parametrize("source", ["Black", "len(x)", "&node{}", '"\\xff"'])
def test_what_is_no_plain_data_is_unreadable(source: str) -> None:
    with pytest.raises(Unreadable):
        _read(source)


def test_an_escape_reads_as_go_reads_it() -> None:
    assert unquote('"a\\"b\\\\c\\n"') == 'a"b\\c\n'


def test_a_struct_s_fields_of_one_type_may_share_a_line() -> None:
    # Today's clock: `h, m int`.
    fields = struct_fields("\n\tdescription string\n\th, m        int // hours, minutes\n")
    assert fields == {"description": "string", "h": "int", "m": "int"}
