"""Go's types built step by step (`folding`): a type that an exported function of no
parameters makes (`NewGame() *Game`), its exported methods, and a call that replays a list
input on one (the driver's `tddFold`), then asks the property. A step that returns an error
or panics fails the case, never passes one that expects an error."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from tdd_sandbox.languages.folding import choose_folds
from tdd_sandbox.vocabulary.cases import CallMap, Case

METHOD = re.compile(
    r"^func\s+\(\s*\w+\s+(\*?)(\w+)\s*\)\s*([A-Z]\w*)\s*\(([^)]*)\)[ \t]*([^{\n]*)", re.MULTILINE
)
"""An exported method: whether its receiver is a pointer, its type, name, parameters and
results."""


def derive_go_folds(
    cases: Sequence[Case],
    code: str,
    makers: dict[str, str],
    parameters: Callable[[str], list[tuple[str, str]]],
    argument: Callable[[str, str], str],
    name: Callable[[str], list[str]],
) -> CallMap | None:
    """The calls of `folding.choose_folds` on the types `makers` (type -> the function of no
    parameters that makes it) make and `code` gives methods, each parameter list read by
    `parameters` and each argument written by `argument(input, its type)`; None where no
    type is built so, or an item would be spread."""
    receivers: dict[str, str] = {}
    params: dict[tuple[str, str], list[tuple[str, str]]] = {}
    results: dict[tuple[str, str], str] = {}
    for match in METHOD.finditer(code):
        pointer, owner, method = match[1], match[2], match[3]
        if owner in makers:
            receivers[owner] = f"{pointer}kata.{owner}"
            params[owner, method] = parameters(match[4])
            results[owner, method] = match[5].strip()
    classes = {
        owner: {method: len(found) for (o, method), found in params.items() if o == owner}
        for owner in receivers
    }
    chosen = choose_folds(cases, classes, name)
    if isinstance(chosen, str) or any(fold.spread for fold in chosen.values()):
        return None
    calls = {}
    for prop, fold in chosen.items():
        ((_, item),) = params[fold.owner, fold.step]
        step = f"tddMade.{fold.step}(tddItem)"
        if results[fold.owner, fold.step]:
            step = f"tddStep({step})"
        given = ", ".join(
            argument(input_, kind)
            for input_, (_, kind) in zip(fold.given, params[fold.owner, fold.member], strict=True)
        )
        made = f"kata.{makers[fold.owner]}()"
        if fold.replayed:
            took = f"tddMade.{fold.step}(tddItem)"
            took = (
                f"return tddAll({took})"
                if results[fold.owner, fold.step]
                else f"{took}; return nil"
            )
            items = f"tddAs[[]{qualified(item)}](${{{fold.items}+{fold.given[0]}|json}})"
            taking = f"tddMade {receivers[fold.owner]}, tddItem {qualified(item)}"
            calls[prop] = f"tddReplay({made}, {items}, func({taking}) []any {{ {took} }})..."
            continue
        items = f"tddAs[[]{qualified(item)}](${{{fold.items}|json}})"
        closure = f"func(tddMade {receivers[fold.owner]}, tddItem {qualified(item)}) {{ {step} }}"
        calls[prop] = f"tddFold({made}, {items}, {closure}).{fold.member}({given})"
    return CallMap(calls=calls, messages=False)


def qualified(kind: str) -> str:
    """A type as the driver's package spells it: the package's own types are `kata.`'s."""
    return re.sub(r"(?<![\w.])([A-Z]\w*)", r"kata.\1", kind)
