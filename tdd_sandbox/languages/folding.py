"""Objects built step by step, for every pack's derivation: a property asked of an object
after each item of a list input went to one of its methods. Bowling's `previousRolls`, each
a `roll(pins)`, then `score()` or one more `roll(roll)`; grade-school's `students`, each
an `add_student(name, grade)`, then `roster()` or `grade(desiredGrade)`. The canonical data
gives the object's history as that list; the tracks' tests replay it one call at a time."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from tdd_sandbox.languages.naming import extended_name, shares_a_word, worded_name
from tdd_sandbox.vocabulary.cases import Case


@dataclass(frozen=True)
class Fold:
    """An object of `owner`, made without arguments; each item of the input `items` given to
    its method `step` (an item that is a list spread over the step's parameters); then its
    method `member` given the inputs `given`, in order: the property's answer."""

    owner: str
    items: str
    step: str
    spread: bool
    member: str
    given: tuple[str, ...]
    reads: bool = False
    """Whether the steps perform the property (forth's `evaluate`, each instruction an
    `eval`) and the member, taking nothing, is read after them (its `stack`): the last
    step's error is then the case's, made from where every step is (`replayed`)."""

    @property
    def replayed(self) -> bool:
        """Whether the property asks one more step (bowling's `roll(roll)`): its call is
        then the replay's last, its item the inputs `given`, made from the one place every
        step is made from, so the code cannot tell it from the steps before it (by the
        call stack) and refuse only where the case is asked."""
        return self.member == self.step


def choose_folds(
    cases: Sequence[Case],
    classes: Mapping[str, Mapping[str, int]],
    names: Callable[[str], Sequence[str]],
    *,
    readers: bool = False,
) -> dict[str, Fold] | str:
    """Per property, the fold that performs it, on the one class of `classes` (class ->
    its methods' arities; only classes made without arguments) that performs every
    property so, one list input built the same way for all of them. The step is the class's
    one method that takes as many arguments as an item holds (a list item spread, anything
    else one), or of those the one that shares a word with the input's name; the member is
    the method of one of `names` (or its words, or them and more), or its past form
    (grade-school's `add` is `added()`: what the adds said), that takes the other inputs;
    with `readers` (a pack whose driver reads so: `Fold.reads`), where the property gives
    the list alone and names the step, or begins with its name (forth's `eval` evaluates),
    the one other method that takes nothing. A reason where there is none."""
    properties = list(dict.fromkeys(case.property for case in cases))
    shapes = _item_shapes(cases)
    found: list[dict[str, Fold]] = []
    for owner, methods in sorted(classes.items()):
        folds: dict[str, Fold] = {}
        for prop in properties:
            given = [case.input for case in cases if case.property == prop]
            fold = _fold(owner, methods, prop, given, shapes, names, readers)
            if fold is None:
                break
            folds[prop] = fold
        else:
            if len({(fold.items, fold.step) for fold in folds.values()}) == 1:
                found.append(folds)
    if len(found) != 1:
        how = "no object" if not found else "more than one object"
        return f"{how} of the stub is built item by item from a list input for every property"
    return found[0]


def _item_shapes(cases: Sequence[Case]) -> dict[str, tuple[int, bool]]:
    """The list inputs whose items are alike in every case: name -> (the arguments an item
    gives, whether it is spread): lists of one length are spread, items that are no list
    are one argument each."""
    items: dict[str, list[object]] = {}
    other: set[str] = set()  # inputs that are no list in some case: no fold's
    for case in cases:
        for key, value in case.input.items():
            if isinstance(value, list):
                items.setdefault(key, []).extend(value)
            else:
                other.add(key)
    shapes = {}
    for key, values in items.items():
        if key in other:
            continue
        lengths = {len(item) if isinstance(item, list) else None for item in values}
        if lengths == {None}:
            shapes[key] = (1, False)
        elif len(lengths) == 1 and (length := lengths.pop()) is not None and length > 1:
            shapes[key] = (length, True)
    return shapes


def _fold(
    owner: str,
    methods: Mapping[str, int],
    prop: str,
    given: Sequence[Mapping[str, object]],
    shapes: Mapping[str, tuple[int, bool]],
    names: Callable[[str], Sequence[str]],
    readers: bool,
) -> Fold | None:
    keys = list(given[0])
    if any(list(inputs) != keys for inputs in given):
        return None
    for items in (key for key in keys if key in shapes):
        arity, spread = shapes[items]
        steps = [name for name, count in methods.items() if count == arity]
        if len(steps) > 1:
            steps = [name for name in steps if shares_a_word(name, items)]
        rest = tuple(key for key in keys if key != items)
        tried = [*names(prop), *(f"{name}ed" for name in names(prop))]
        fitting = {name: () for name, count in methods.items() if count == len(rest)}
        member = next((n for n in tried if n in fitting), None)
        member = member or extended_name(tried, fitting) or worded_name(prop, fitting)
        if len(steps) == 1 and member is not None:
            return Fold(owner, items, steps[0], spread, member, rest)
        if readers and len(steps) == 1 and not rest and prop.startswith(steps[0]):
            read = [name for name in fitting if name != steps[0]]
            if len(read) == 1:
                return Fold(owner, items, steps[0], spread, read[0], rest, reads=True)
    return None
