"""An answer read in the shape the canonical data gives it, where a track gives it another
(a song as one text, a record as a tuple, a day as a time at midnight): the comparison
itself stays type-strict (`equality.plain_equal`)."""

from __future__ import annotations

import re
from typing import Any

_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
_WHOLE = re.compile(r"-?\d+")
_DECIMAL = re.compile(r"-?\d+\.\d+(?:[eE][-+]?\d+)?")


def as_expected(expected: Any, value: Any) -> Any:
    """An answer in the shape a track gives it, read in the canonical data's: a string where
    a list of lines is expected as its lines (its final newlines dropped, as a track ends its
    last verse with the blank line that parts verses, where the data ends with none; the
    empty string none; a blank line between two others dropped where the data has no blank
    line), since tracks return a song or a table as one text; lines that spell the data's
    lines word for word, wrapped where it has none (`_unwrapped`); a list where a record is
    expected as its fields, each the next item of its kind (a tuple: two-bucket's `(moves,
    goal, other)`); a text where a record is expected as its words, one a field in order (a
    resistor's label "33 ohms" for `{value: 33, unit: "ohms"}`); a time at midnight where a
    day is expected as that day (a JavaScript `Date` is its time: meetup's `new Date(2013, 4,
    13)`). Anything else as it came."""
    lines = isinstance(expected, list) and all(isinstance(item, str) for item in expected)
    if lines and isinstance(value, str):
        blank_end = len(expected) - len("\n".join(expected).rstrip("\n").split("\n"))
        text = value.rstrip("\n") + "\n" * blank_end if expected else value
        read = text.split("\n") if text else []
        if "" in expected:
            return read
        # Verses a track parts with a blank line where the data lists none (twelve-days).
        read = [line for k, line in enumerate(read) if line or k in (0, len(read) - 1)]
        return _unwrapped(expected, read) or read
    if lines and isinstance(value, list) and all(isinstance(item, str) for item in value):
        return _unwrapped(expected, value) or value
    if isinstance(expected, dict) and isinstance(value, list) and len(value) == len(expected):
        return _fields_by_kind(expected, value)
    if isinstance(expected, dict) and expected and isinstance(value, str):
        words = value.split()
        if len(words) == len(expected):
            pairs = zip(expected.items(), words, strict=True)
            return {field: _word(word, wanted) for (field, wanted), word in pairs}
    if isinstance(expected, str) and _DAY.fullmatch(expected) and isinstance(value, str):
        return value.removesuffix("T00:00:00") if _DAY.fullmatch(value[:10]) else value
    return value


def _unwrapped(expected: list[str], value: list[str]) -> list[str] | None:
    """The lines of `value` joined, a space apart, into the data's lines where they spell them
    word for word (each data line from whole lines of the answer, in order, none left over),
    a blank line between two of them dropped: a track that wraps a verse's line (house in
    JavaScript); None where the data has a blank line, or they spell it otherwise."""
    if "" in expected or len(value) <= len(expected) or not value[0] or not value[-1]:
        return None
    # One pass over the answer's lines, whatever their number: the answer is the code's.
    rest = iter(line for line in value if line)
    read: list[str] = []
    for wanted in expected:
        joined = next(rest, "")
        while joined and len(joined) < len(wanted) and (line := next(rest, "")):
            joined = f"{joined} {line}"
        if joined != wanted:
            return None
        read.append(joined)
    return None if next(rest, None) is not None else read


def _word(word: str, wanted: Any) -> Any:
    """A word of a text read as a record's field: a number where the field is one and the
    word spells one (a whole number an int), else the word."""
    if _kind(wanted) != "number":
        return word
    if _WHOLE.fullmatch(word):
        return int(word)
    return float(word) if _DECIMAL.fullmatch(word) else word


def _fields_by_kind(expected: dict[str, Any], value: list[Any]) -> dict[str, Any]:
    """A tuple read as a record: each field takes the tuple's next item of its own kind, so
    the order within a kind is the record's and kinds need not interleave as they do there
    (Go's two-bucket returns `(goal bucket, moves, other bucket)`, the data `{moves, goal
    bucket, other bucket}`). A tuple whose kinds do not match the record's is read in order."""
    if sorted(map(_kind, expected.values())) != sorted(map(_kind, value)):
        return dict(zip(expected, value, strict=True))
    pending = {kind: [item for item in value if _kind(item) == kind] for kind in map(_kind, value)}
    return {field: pending[_kind(wanted)].pop(0) for field, wanted in expected.items()}


def _kind(value: Any) -> str:
    """JSON's kind of a value, numbers one kind."""
    if isinstance(value, bool) or value is None:
        return type(value).__name__
    return "number" if isinstance(value, int | float) else type(value).__name__
