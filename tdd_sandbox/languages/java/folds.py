"""Java's objects built step by step (`folding`): the stub's classes made without
arguments, and a call that replays a list input on one (the driver's `fold`), then asks the
property. A step that throws fails the case, never passes one that expects an error."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from tdd_sandbox.languages.folding import choose_folds
from tdd_sandbox.vocabulary.cases import CallMap, Case


def derive_java_folds(
    cases: Sequence[Case],
    classes: Mapping[str, Mapping[str, tuple[list[str], str]]],
    argument: Callable[[str, str, object], str],
) -> CallMap | None:
    """The calls of `folding.choose_folds` on `classes` (class -> its instance methods'
    parameter types and what each returns; only classes made without arguments), each
    argument as `argument(input, its type, an example value)` writes it, a member that
    returns nothing answering null (the driver's `done`); None where no class is built so."""
    arities = {
        owner: {method: len(types) for method, (types, _) in methods.items()}
        for owner, methods in classes.items()
    }
    chosen = choose_folds(cases, arities, lambda prop: [prop])
    if isinstance(chosen, str):
        return None
    calls = {}
    for prop, fold in chosen.items():
        example = next(case.input for case in cases if case.property == prop)
        types, returns = classes[fold.owner][fold.member]
        given = ", ".join(
            argument(name, kind, example.get(name))
            for name, kind in zip(fold.given, types, strict=True)
        )
        if fold.spread:
            return None  # a Java array holds one kind: an item of several is no array
        if fold.replayed:
            took = f"tddMade.{fold.step}(tddItem)"
            took = f"{{ {took}; return null; }}" if returns == "void" else took
            items = "${" + fold.items + "+" + fold.given[0] + "}"
            calls[prop] = (
                f"TddAcceptance.replay(new {fold.owner}(), {items}, (tddMade, tddItem) -> {took})"
            )
            continue
        items = "${" + fold.items + "}"
        step = f"tddMade -> {{ for (var tddItem : {items}) tddMade.{fold.step}(tddItem); }}"
        call = f"TddAcceptance.fold(new {fold.owner}(), {step}).{fold.member}({given})"
        calls[prop] = f"TddAcceptance.done(() -> {call})" if returns == "void" else call
    return CallMap(calls=calls)
