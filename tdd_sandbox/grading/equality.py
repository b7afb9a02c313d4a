"""How an answer compares with an expected value on the host: type-strict equality of
plain data, and how either is shown in a verdict."""

from __future__ import annotations

import math
from typing import Any

_ROUNDING = 4 * 2.0**-52
"""A few units in the last place of a double: how far honest arithmetic strays from a whole
number, and far short of the next one below 2**50."""


def plain_equal(expected: Any, actual: Any) -> bool:
    """Type-strict equality of plain data (JSON's types): `"1"` is not `1`, `True` is not `1`,
    a tuple never arrives (drivers send lists). Numbers compare by value: a whole number in
    the data within a float's rounding, a decimal closely (relative 1e-9)."""
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    if isinstance(expected, int | float) and isinstance(actual, int | float):
        if isinstance(expected, int):
            # A whole number in the data is met by that number, give or take a float's own
            # rounding (exp(i*pi) has an imaginary part of 1.2e-16, not 0), never within a
            # tolerance that holds another whole number: around 1e9, rel_tol=1e-9 let an
            # off-by-one float pass.
            return expected == actual or math.isclose(
                expected, actual, rel_tol=_ROUNDING, abs_tol=1e-12
            )
        return math.isclose(expected, actual, rel_tol=1e-9, abs_tol=1e-12)
    if type(expected) is not type(actual):
        return False
    if isinstance(expected, list):
        return len(expected) == len(actual) and all(
            plain_equal(e, a) for e, a in zip(expected, actual, strict=True)
        )
    if isinstance(expected, dict):
        return expected.keys() == actual.keys() and all(
            plain_equal(expected[k], actual[k]) for k in expected
        )
    return bool(expected == actual)  # same type here: str or None


def in_order_of(expected: Any, actual: Any) -> Any:
    """A list answer with its items in the expected list's order where they are the same
    items, each as often (an answer the track takes in any order); anything else as it is."""
    if not (isinstance(expected, list) and isinstance(actual, list)):
        return actual
    if len(expected) != len(actual):
        return actual
    left, ordered = list(actual), []
    for item in expected:
        match = next((k for k, have in enumerate(left) if plain_equal(item, have)), None)
        if match is None:
            return actual
        ordered.append(left.pop(match))
    return ordered


def show(value: Any) -> str:
    """`value` as a verdict shows it: its repr, cut to 120 characters."""
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."
