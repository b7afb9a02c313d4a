"""Which of a crate's functions performs a property no function is named for, by their types:
the one whose parameters' types can hold every case's inputs and whose result type can
hold every answer the cases expect (an error only where it returns a `Result`).
variable-length-quantity's `to_bytes(&[u32]) -> Vec<u8>` encodes numbers past a byte into
bytes, `from_bytes(&[u8]) -> Result<Vec<u32>, Error>` decodes bytes into such numbers or
an error: neither is named `encode` or `decode`, and neither fits the other's cases."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from tdd_sandbox.languages.deriving import Chosen, split_parameters
from tdd_sandbox.vocabulary.cases import Case

_RANGES = {
    **{f"u{bits}": (0, (1 << bits) - 1) for bits in (8, 16, 32, 64, 128)},
    **{f"i{bits}": (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) for bits in (8, 16, 32, 64, 128)},
    "usize": (0, (1 << 64) - 1),
    "isize": (-(1 << 63), (1 << 63) - 1),
}
_WRAPPED = re.compile(r"^(Vec|Option|Result|Box)\s*<(.*)>$", re.DOTALL)
_ARRAY = re.compile(r"^\[(.*?)(?:;\s*\w+)?\]$", re.DOTALL)


def choose_by_types(
    cases: Sequence[Case],
    functions: Mapping[str, Sequence[tuple[str, str]]],
    returns: Mapping[str, str],
) -> dict[str, Chosen] | None:
    """Per property, the one function (name -> parameters as name and type; `returns`: its
    result type) of as many parameters as the property gives inputs whose types fit every
    case of it, taking the inputs in the data's order; None where a property has not one
    such function, or two properties the same one."""
    chosen: dict[str, Chosen] = {}
    for prop in dict.fromkeys(case.property for case in cases):
        given = [case for case in cases if case.property == prop]
        keys = list(given[0].input)
        fitting = [
            name
            for name, params in functions.items()
            if len(params) == len(keys)
            and all(_fits_case(case, keys, params, returns[name]) for case in given)
        ]
        if len(fitting) != 1:
            return None
        chosen[prop] = Chosen(fitting[0], tuple(keys))
    if len({call.function for call in chosen.values()}) != len(chosen):
        return None
    return chosen


def _fits_case(
    case: Case, keys: Sequence[str], params: Sequence[tuple[str, str]], result: str
) -> bool:
    if list(case.input) != list(keys):
        return False
    if not all(fits(kind, case.input[key]) for key, (_, kind) in zip(keys, params, strict=True)):
        return False
    wrapped = _WRAPPED.match(result.strip())
    if case.expects_error:
        return wrapped is not None and wrapped[1] == "Result"
    if wrapped is not None and wrapped[1] == "Result":
        result = split_parameters(wrapped[2])[0]
    return fits(result, case.expected)


def fits(kind: str, value: object) -> bool:
    """Whether a value of the data can be of the Rust type `kind`: an integer in its range,
    a text a `str` or `String`, a list a slice, array or `Vec` of fitting items, null an
    `Option`; a type this does not know fits nothing."""
    kind = re.sub(r"^&\s*(?:'\w+\s+)?(?:mut\s+)?", "", kind.strip())
    if isinstance(value, bool):
        return kind == "bool"
    if isinstance(value, int):
        low, high = _RANGES.get(kind, (1, 0))
        return low <= value <= high
    if isinstance(value, str):
        return kind in ("str", "String")
    wrapped = _WRAPPED.match(kind)
    if value is None:
        return wrapped is not None and wrapped[1] == "Option"
    if wrapped is not None and wrapped[1] in ("Option", "Box"):
        return fits(wrapped[2], value)
    array = _ARRAY.match(kind)
    item = wrapped[2] if wrapped is not None and wrapped[1] == "Vec" else array and array[1]
    if isinstance(value, list) and item:
        return all(fits(item, element) for element in value)
    return False


_FROM = re.compile(r"\bimpl\s+From\s*<\s*([\w:&' ]+?)\s*>\s+for\s+(\w+)")
_DISPLAY = re.compile(r"\bimpl\s+(?:(?:std::)?fmt::)?Display\s+for\s+(\w+)")


def shown_from(cases: Sequence[Case], code: str, crate: str) -> dict[str, str] | None:
    """Per property, a value of the crate's one type that is `From` the property's one
    input and `Display`s, shown as text (`Roman::from(n).to_string()`, roman-numerals as
    Exercism serves it today): for a kata whose answers are all texts, no error among them;
    None where there is not one such type."""
    if not cases or any(not isinstance(case.expected, str) for case in cases):
        return None
    shown = set(_DISPLAY.findall(code))
    calls = {}
    for prop in dict.fromkeys(case.property for case in cases):
        given = [case.input for case in cases if case.property == prop]
        if any(len(inputs) != 1 for inputs in given):
            return None
        (key,) = given[0]
        made = {
            owner
            for kind, owner in _FROM.findall(code)
            if owner in shown and all(fits(kind, inputs.get(key)) for inputs in given)
        }
        if len(made) != 1:
            return None
        calls[prop] = f"{crate}::{made.pop()}::from(${{{key}}}).to_string()"
    return calls
