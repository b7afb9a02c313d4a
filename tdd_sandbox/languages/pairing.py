"""A property asked of two fresh objects in one run: forth's `evaluateBoth` gives the inputs
of `evaluate` twice (`instructionsFirst`, `instructionsSecond`) and expects both answers, so
a word one object defines must not be known to the other. Each half is its base property's
own call; the pack writes the two as one list (`Track.paired`). Asked apart, in two
processes, code that keeps its definitions in one global table would pass."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from tdd_sandbox.vocabulary.cases import CallMap, Case

SUFFIX = "Both"
HALVES = ("First", "Second")
"""The endings the data gives each of the base property's inputs, in the list's order."""


@dataclass(frozen=True)
class Pair:
    """A property asked of two objects: its `base` property's call once with each input of
    `keys` given its first half, then once with its second."""

    base: str
    keys: tuple[str, ...]

    def halves(self) -> list[dict[str, str]]:
        """Per half, each base input's name -> the name the pair's case gives it."""
        return [{key: key + half for key in self.keys} for half in HALVES]


def find_pairs(cases: Sequence[Case]) -> dict[str, Pair]:
    """The properties of `cases` that are another's asked of two objects: named as it and
    `Both`, every case giving each of its inputs once per half and expecting two answers
    (no error). A property that fits so only in part is none: it stays for the pack to
    derive, or refuse."""
    keys: dict[str, tuple[str, ...]] = {}
    for case in cases:
        if not case.property.endswith(SUFFIX):
            keys.setdefault(case.property, tuple(case.input))
    fits: dict[str, bool] = {}
    for case in cases:
        base = case.property.removesuffix(SUFFIX)
        if base == case.property or base not in keys:
            continue
        wanted = {key + half for key in keys[base] for half in HALVES}
        two = isinstance(case.expected, list) and len(case.expected) == len(HALVES)
        fits[case.property] = fits.get(case.property, True) and (
            set(case.input) == wanted and two and not case.expects_error
        )
    return {
        prop: Pair(prop.removesuffix(SUFFIX), keys[prop.removesuffix(SUFFIX)])
        for prop, fit in fits.items()
        if fit
    }


def with_pairs(
    calls: CallMap,
    pairs: Mapping[str, Pair],
    paired: Callable[[str, Sequence[Mapping[str, str]]], str | None],
) -> CallMap | str:
    """`calls` with each pair's call: its base's, once per half, as `paired` writes them in
    one list; a reason where a base's call is no plain one (a script's, or answered in any
    order) or the pack cannot write it so."""
    added = {}
    for prop, pair in pairs.items():
        if pair.base in calls.steps or pair.base in calls.unordered:
            return f"{pair.base} is no single answer, so {prop} cannot ask it twice"
        call = paired(calls.calls[pair.base], pair.halves())
        if call is None:
            return f"no rule asks {pair.base} of two objects in one call ({prop})"
        added[prop] = call
    return calls.model_copy(update={"calls": {**calls.calls, **added}})
