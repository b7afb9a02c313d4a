"""Which case of the data a row of a track's case table is (`tables`): the one its
description names, as the data words it or as the track's record does, or where that names
none alone, the one of the table's property whose inputs hold the row's values."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from tdd_sandbox.vocabulary.cases import Case

DESCRIPTION = "description"
"""The field of a row that describes its case."""
_NOT_WORD = re.compile(r"[^a-z0-9]+")


def row_case(
    row: Mapping[str, Any],
    cases: Sequence[Case],
    prefer: set[str] | None = None,
    given: Mapping[str, Any] | None = None,
) -> Case | None:
    """The one case the row's description names, as the whole path of groups or as its own
    description (of those, the one of a property `prefer` holds); else, given the row's
    inputs, the one case of such a property whose inputs hold the same values (the row of
    a case the data reworded since: darts' "center", now "centre")."""
    said = _words(str(row.get(DESCRIPTION, "")))
    for whole in (True, False):
        named = [c for c in cases if said == _words(_described(c.description, whole))]
        if len(named) > 1 and prefer:
            named = [case for case in named if case.property in prefer]
        if len(named) == 1:
            return named[0]
    if given is None:
        return None
    valued = [c for c in cases if (not prefer or c.property in prefer)
              and _values(c.input) == _values(given)]  # fmt: skip
    return valued[0] if len(valued) == 1 else None


def mentioned(row: Mapping[str, Any], cases: Sequence[Case]) -> bool:
    """Whether the row's description is one case's or more: a row of the data's."""
    said = _words(str(row.get(DESCRIPTION, "")))
    return any(said == _words(_described(c.description, w)) for c in cases for w in (True, False))


def _values(inputs: Mapping[str, Any]) -> list[str]:
    """The inputs' values, a whole decimal as its whole number (Go's `x: 0.0` is the data's 0)."""
    return sorted(json.dumps(_whole(value), sort_keys=True) for value in inputs.values())


def _whole(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_whole(item) for item in value]
    if isinstance(value, dict):
        return {key: _whole(item) for key, item in value.items()}
    return value


def _described(description: str, whole: bool) -> str:
    return description if whole else description.rpartition(" > ")[2]


def _words(text: str) -> str:
    """A description's words, lower case (`encode O M G` is not `encode OMG`)."""
    return _NOT_WORD.sub(" ", text.lower()).strip()
