"""A Rust track's own `#[test]` functions transcribed as data: each runs as written in the
driver, and what it asserts stays on the host. The attack throughout is an expected value
reaching the sandbox, where the code could read it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tdd_sandbox.languages.literal_reader import NO
from tdd_sandbox.languages.rust.literals import read_literal
from tdd_sandbox.languages.rust.transcripts import derive_rust_transcripts
from tdd_sandbox.vocabulary.cases import CallMap, Case

SECRET = "the-answer-only-the-host-holds"


def _transcribed(body: str, *descriptions: str) -> CallMap | str:
    cases = [Case(f"id{k}", d, "prop", {}, None) for k, d in enumerate(descriptions)]
    source = f"use tally::*;\n\n{body}"
    return derive_rust_transcripts(cases, {"tests/tally.rs": source.encode()})


def _shipped(calls: CallMap) -> str:
    return json.dumps([calls.setup, calls.calls, calls.transcripts])


def _steps(calls: CallMap, case_id: str = "id0") -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = calls.restated[case_id].input["operations"]
    return steps


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('vec!["a", "b"]', ["a", "b"]),
        ("Vec::<String>::new()", []),
        ("&[1_u32, 2]", [1, 2]),
        ('"x".to_string()', "x"),
        ("Some(3)", 3),
        ("None", None),
        ('(1, "a")', [1, "a"]),
        ("vec![0; 3]", [0, 0, 0]),
        ('Err("bad".into())', {"error": "bad"}),
        ("'c'", "c"),
        ("known", [1]),
    ],
)
def test_a_literal_reads_as_the_driver_reports_the_value(text: str, value: Any) -> None:
    assert read_literal(text, {"known": [1]}) == value


@pytest.mark.parametrize("text", ["made(1)", "Tally::new(1)", "x + 1", "unknown"])
def test_anything_else_is_no_literal(text: str) -> None:
    assert read_literal(text) is NO


def test_a_value_the_test_asserts_against_stays_on_the_host() -> None:
    calls = _transcribed(
        "fn made(n: i64) -> Tally {\n    Tally::new(n)\n}\n\n"
        "#[test]\n#[ignore]\nfn sums() {\n"
        "    let tally = made(1).add(2);\n"
        f'    let expected = "{SECRET}";\n'
        "    assert_eq!(tally.label(), expected);\n"
        f'    assert_eq!("{SECRET}2".to_string(), tally.other());\n'
        "    assert!(!tally.is_empty());\n"
        "    assert!(tally.value() == 3)\n}\n\n"
        f'#[test]\n#[should_panic(expected = "{SECRET}3")]\n'
        "fn below() {\n    Tally::new(-1);\n}\n",
        "sums",
        "below",
    )
    assert isinstance(calls, CallMap), calls
    assert SECRET not in _shipped(calls)
    assert _steps(calls) == [
        {"operation": "tally.label()", "expected": SECRET},
        {"operation": "tally.other()", "expected": SECRET + "2"},
        {"operation": "assert!(!tally.is_empty())", "expected": False},
        {"operation": "tally.value()", "expected": 3},
    ]
    assert _steps(calls, "id1") == [
        {"operation": "below panics", "expected": {"error": SECRET + "3"}}
    ]
    assert "fn made(n: i64) -> Tally" in calls.setup  # the helper a test uses
    assert calls.setup.startswith("use tally::*;")


def test_what_would_hold_a_literal_against_the_code_in_the_driver_is_refused() -> None:
    compared = _transcribed("#[test]\nfn long() {\n    assert!(key().len() >= 100);\n}\n", "x")
    assert (
        compared
        == "the test long cannot be transcribed: it asserts a comparison: key().len() >= 100"
    )
    helper = _transcribed(
        "fn check(t: Tally) {\n"
        f'    assert_eq!(t.label(), "{SECRET}");\n}}\n\n'
        "#[test]\nfn checks() {\n    check(Tally::new(1));\n}\n",
        "checks",
    )
    assert helper == "a function of the tests' that a test calls asserts itself: fn check"


def test_a_literal_compared_inside_what_is_asked_is_never_shipped() -> None:
    compared = _transcribed(
        "#[test]\nfn compares() {\n    assert_eq!(value() > 7291, true);\n}\n", "x"
    )
    assert (
        compared
        == "the test compares cannot be transcribed: it compares beside the code: value() > 7291"
    )
