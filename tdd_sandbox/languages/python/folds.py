"""Python's objects built step by step (`folding`): the stub's classes made without
arguments, and a call that replays a list input on one, then asks the property."""

from __future__ import annotations

import ast
import keyword
from collections.abc import Callable, Iterable, Sequence

from tdd_sandbox.languages.folding import choose_folds
from tdd_sandbox.vocabulary.cases import CallMap, Case

HELPER = '''
class TddStepFailed:
    """An object a step of its building failed on: whatever it is asked, it answers what
    failed, a text no canonical answer is (an error would pass a case that expects one)."""

    def __init__(self, said):
        self.said = said

    def __getattr__(self, name):
        return lambda *args: self.said


def tdd_said(exc):
    # What failed, read where nothing the error does can escape the step: its text is the
    # code's own, and may raise too.
    try:
        return f"{type(exc).__name__}: {exc}"
    except BaseException:
        return type(exc).__name__


def tdd_fold(made, step, items, spread, replayed=False):
    last = len(items) - 1 if replayed else -1
    for index, item in enumerate(items):
        try:
            # One call for every step, the one the case asks too: no caller tells them apart.
            answer = getattr(made, step)(*item) if spread else getattr(made, step)(item)
        except BaseException as exc:  # any throwable: one the step let past was the asked call's
            if index == last:
                raise
            return TddStepFailed(f"{step}({item!r}) raised {tdd_said(exc)}")
        if index == last:
            return answer
    return made
'''
"""The driver's fold, in the setup: a step that raises is a failure of the case, never
its error, but for the last of a replay (`Fold.replayed`), whose answer or error is the
case's."""


def derive_python_folds(
    cases: Sequence[Case],
    modules: Iterable[tuple[str, ast.Module]],
    names: Callable[[str], Sequence[str]],
    errors: frozenset[str],
) -> CallMap | None:
    """The calls of `folding.choose_folds` on the classes of the stub's `modules`; None
    where no class is built so, or an input is no name Python can bind."""
    owners: dict[str, str] = {}
    classes: dict[str, dict[str, int]] = {}
    for module, tree in modules:
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and (methods := _methods(node)) is not None:
                owners[node.name], classes[node.name] = module, methods
    chosen = choose_folds(cases, classes, names)
    if isinstance(chosen, str):
        return None
    calls = {}
    for prop, fold in chosen.items():
        if not all(
            n.isidentifier() and not keyword.iskeyword(n) for n in (fold.items, *fold.given)
        ):
            return None
        if fold.replayed:
            last = f"[{', '.join(fold.given)}]" if fold.spread else fold.given[0]
            replay = f"[*{fold.items}, {last}], {fold.spread}, True"
            calls[prop] = f"tdd_fold({fold.owner}(), {fold.step!r}, {replay})"
            continue
        built = f"tdd_fold({fold.owner}(), {fold.step!r}, {fold.items}, {fold.spread})"
        calls[prop] = f"{built}.{fold.member}({', '.join(fold.given)})"
    owner = next(iter(chosen.values())).owner
    setup = f"from {owners[owner]} import {owner}\n{HELPER}"
    return CallMap(setup=setup, calls=calls, errors=errors)


def _methods(node: ast.ClassDef) -> dict[str, int] | None:
    """A class's public methods and how many arguments each takes after `self`; None when
    its `__init__` takes any."""
    methods: dict[str, int] = {}
    for item in node.body:
        if not isinstance(item, ast.FunctionDef):
            continue
        arguments = item.args.posonlyargs + item.args.args
        if item.name == "__init__" and len(arguments) > 1:
            return None
        if not item.name.startswith("_"):
            methods[item.name] = max(len(arguments) - 1, 0)
    return methods
