"""How a track spells a canonical property in its stub: the words of a function's name, read
against the property's, for every pack's derivation (`deriving`)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

_NEW_WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_WORD = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
_FORMS = ("ers", "er", "es", "s")
"""Endings of a word's other forms: `drinks` and `drinker` are `drink`."""


def same_words(prop: str, name: str) -> bool:
    """Whether `name` says what `prop` says in its words, in any order and form, less a
    getter's `get` or a predicate's `is`: `waterDrinker` and `getWaterDrinker` for
    drinksWater."""
    return _stems(prop) == _stems(name)


def shares_a_word(name: str, other: str) -> bool:
    """Whether two names have a word in common, in any form: `add_student` and `students`,
    `roll` and `previousRolls`."""
    return bool(set(_stems(name)) & set(_stems(other)))


def _stems(name: str) -> list[str]:
    words = [w.lower() for w in _WORD.findall(name)]
    if len(words) > 1 and words[0] in ("get", "is"):
        words = words[1:]
    stems = []
    for word in words:
        form = next((f for f in _FORMS if word.endswith(f) and len(word) - len(f) >= 3), "")
        stems.append(word[: len(word) - len(form)])
    return sorted(stems)


def worded_name(prop: str, functions: Iterable[str]) -> str | None:
    """The one of `functions` whose words say the property's (`same_words`); else None."""
    found = {name for name in functions if same_words(prop, name)}
    return found.pop() if len(found) == 1 else None


def extended_name(tried: Sequence[str], functions: Mapping[str, Sequence[str]]) -> str | None:
    """The stub's one function named as the property followed by more words (Go's
    `EncodeVarint` encodes, `parse_ledger` parses): a new word begins with a capital or
    after a `_`."""
    found = {
        name
        for name in functions
        for spelled in tried
        if name.startswith(spelled) and name[len(spelled) : len(spelled) + 1] in _NEW_WORD
    }
    return found.pop() if len(found) == 1 else None


def snake_case(name: str) -> str:
    """A camelCase name of the data as snake_case spells it: `inputBase` -> `input_base`."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()
