"""The kinds of the literals a track's tests pass a call, for the order of its inputs: the
data lists a case's inputs in an order of its own, and where the tests pass a literal of
another kind in an input's place, the kinds say where each input goes (C++'s allergies
makes `allergy_test(0)` and asks it `is_allergic_to("eggs")`; the data lists the item,
then the score)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence

from tdd_sandbox.languages.deriving import Source

_NUMBER = re.compile(r"[-+]?(?:\d[\d_']*)(?:\.\d+)?(?:[eE][-+]?\d+)?[uUlLfF]*")


def literal_kind(text: str) -> str | None:
    """The kind of an argument's source text, where it is a literal: "text" (a string),
    "number" or "bool"; None for anything else."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return "text"
    if text in ("true", "false", "True", "False"):
        return "bool"
    return "number" if _NUMBER.fullmatch(text) else None


def value_kind(value: object) -> str | None:
    """The kind of a canonical input's value, as `literal_kind` names it."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "number"
    return "text" if isinstance(value, str) else None


def arranged(example: Mapping[str, object], kinds: Sequence[str | None]) -> list[str]:
    """The inputs of `example` in the data's order, or, where a literal the tests pass
    (`kinds`, in the order of the call's places) is of another kind than the input in its
    place, in the one order that puts no input where a literal of another kind stands.
    The data's order where no order, or more than one, fits."""
    names = list(example)
    if len(kinds) != len(names) or _fits(names, example, kinds):
        return names
    fitting = [
        list(order) for order in itertools.permutations(names) if _fits(list(order), example, kinds)
    ]
    return fitting[0] if len(fitting) == 1 else names


def _fits(order: list[str], example: Mapping[str, object], kinds: Sequence[str | None]) -> bool:
    return all(
        kind is None or value_kind(example[name]) in (None, kind)
        for name, kind in zip(order, kinds, strict=True)
    )


def argument_texts(source: Source, start: int, end: int) -> list[str]:
    """The source text of each argument between `start` and the `)` before `end`, split at
    the commas of the code (where literals are blank), outside brackets; a call of none
    gives one empty text."""
    parts, depth, last = [], 0, start
    for at in range(start, end - 1):
        char = source.code[at]
        depth += (char in "([{") - (char in ")]}")
        if char == "," and depth == 0:
            parts.append(source.text[last:at])
            last = at + 1
    parts.append(source.text[last : end - 1])
    return [part.strip() for part in parts]


def lower_cased(values: Sequence[object], passed: Sequence[str]) -> bool:
    """Whether the tests spell a text input in lower case where the data does not: each of
    `passed` (the string literals the tests pass in its place, quotes and all) is one of
    the data's `values` in lower case, none as the data spells it (JavaScript's space-age
    passes 'earth' for "Earth")."""
    texts = {v for v in values if isinstance(v, str)}
    said = {p[1:-1] for p in passed if len(p) >= 2 and p[0] == p[-1] and p[0] in "'\"`"}
    if not said or len(said) != len(passed) or len(texts) != len(values):
        return False
    lowered = {text.lower() for text in texts}
    changed = {text.lower() for text in texts if text != text.lower()}
    # Only where lower case changes what the tests pass: a text with no capital is no sign.
    return said <= lowered and bool(said & changed) and not said & (texts - lowered)
