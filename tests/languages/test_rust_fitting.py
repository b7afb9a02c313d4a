"""A property no function of the crate is named for is performed by the one function whose
types fit its cases (`rust.fitting`): the inputs its parameters hold, the answers (or the
error) its result holds."""

from __future__ import annotations

import pytest

from tdd_sandbox.languages.deriving import Chosen
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.languages.rust.fitting import choose_by_types, fits
from tdd_sandbox.vocabulary.cases import CallMap, Case

RUST = get_language("rust")
VLQ = b"""\
#[derive(Debug, PartialEq, Eq)]
pub enum Error {
    IncompleteNumber,
}

pub fn to_bytes(values: &[u32]) -> Vec<u8> {
    todo!()
}

pub fn from_bytes(bytes: &[u8]) -> Result<Vec<u32>, Error> {
    todo!()
}
"""
CASES = [
    Case("e", "-", "encode", {"integers": [0x4000]}, [0x81, 0x80, 0]),
    Case("d", "-", "decode", {"integers": [0xFF, 0xFF, 0x7F]}, [0x1FFFFF]),
    Case("x", "-", "decode", {"integers": [0xFF]}, {"error": "incomplete sequence"}),
]


def test_each_property_is_the_one_function_whose_types_fit_its_cases() -> None:
    functions = {"to_bytes": [("values", "&[u32]")], "from_bytes": [("bytes", "&[u8]")]}
    returns = {"to_bytes": "Vec<u8>", "from_bytes": "Result<Vec<u32>, Error>"}
    assert choose_by_types(CASES, functions, returns) == {
        "encode": Chosen("to_bytes", ("integers",)),
        "decode": Chosen("from_bytes", ("integers",)),
    }
    # Where both fit a property's cases, neither is guessed.
    wide = {**returns, "to_bytes": "Result<Vec<u32>, Error>"}
    assert choose_by_types(CASES, {**functions, "to_bytes": [("values", "&[u8]")]}, wide) is None


def test_the_crate_s_functions_are_chosen_by_their_types_where_no_name_says() -> None:
    calls = RUST.derive_calls(CASES, {"src/lib.rs": VLQ}, {})
    assert isinstance(calls, CallMap), calls
    assert calls.calls == {
        "encode": "kata::to_bytes(&${integers})",
        "decode": 'kata::from_bytes(&${integers}).map_err(|e| format!("{e:?}"))',
    }


@pytest.mark.parametrize(
    ("kind", "value", "fitting"),
    [
        ("u8", 255, True), ("u8", 256, False), ("i32", -5, True), ("u32", -1, False),
        ("&[u32]", [1, 2], True), ("Vec<u8>", [300], False), ("&str", "x", True),
        ("Option<u8>", None, True), ("u8", None, False), ("bool", True, True),
        ("u8", True, False), ("[u16; 2]", [1, 2], True), ("HashMap<String, u8>", {}, False),
    ],
)  # fmt: skip
def test_a_value_fits_a_type_that_can_hold_it(kind: str, value: object, fitting: bool) -> None:
    assert fits(kind, value) is fitting


ROMAN = b"""\
use std::fmt::{Display, Formatter, Result};

pub struct Roman;

impl Display for Roman {
    fn fmt(&self, _f: &mut Formatter<'_>) -> Result {
        todo!()
    }
}

impl From<u32> for Roman {
    fn from(num: u32) -> Self {
        todo!("{num}")
    }
}
"""


def test_a_text_answer_is_the_one_type_made_from_the_input_and_shown() -> None:
    # roman-numerals as Exercism serves it today: `Roman::from(n).to_string()`, no function.
    cases = [
        Case("a", "-", "roman", {"number": 1}, "I"),
        Case("b", "-", "roman", {"number": 4}, "IV"),
    ]
    calls = RUST.derive_calls(cases, {"src/lib.rs": ROMAN}, {})
    assert calls == CallMap(calls={"roman": "kata::Roman::from(${number}).to_string()"})
    # Not where an input does not fit what it is made from, nor for answers that are no text.
    negative = [Case("c", "-", "roman", {"number": -1}, "I")]
    assert isinstance(RUST.derive_calls(negative, {"src/lib.rs": ROMAN}, {}), str)
    numbers = [Case("d", "-", "roman", {"number": 1}, 1)]
    assert isinstance(RUST.derive_calls(numbers, {"src/lib.rs": ROMAN}, {}), str)
