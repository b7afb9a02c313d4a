"""Objects driven by a script, for every pack's derivation. The canonical data of a stateful
exercise lists `operations`: each names a method of one object (`operation`), gives its
arguments as its other fields (circular-buffer's `{"operation": "write", "item": 1,
"should_succeed": true}`), and may say what it answers (`expected`) or whether it fails
(`should_succeed`); a group of them runs many times at once (bank-account's `{"operation":
"concurrent", "number": 1000, "operations": [...]}`). The tracks' tests replay them one
call at a time. A driver does the same, given each operation's name and arguments only,
and reports every step's answer or error; the host judges each (`grading.scripts`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tdd_sandbox.languages.naming import extended_name, worded_name
from tdd_sandbox.vocabulary.cases import CallMap, Case

OPERATIONS = "operations"
"""The input, and a group's field, that lists the operations."""
NAME = "operation"
JUDGED = frozenset({NAME, "expected", "should_succeed"})
"""An operation's fields that say what it should do: never passed to the code."""
TIMES = "number"
"""A group's field: how many times its operations run at once (once where it has none)."""
STEPS = "${" + OPERATIONS + "|steps}"
"""Where a call, or a group's step, takes its operations' steps (`driving.render_call`)."""


@dataclass(frozen=True)
class Script:
    """A property performed by a script: an object of `owner` made with the inputs
    `made_with` (in the constructor's order), then each operation a call of its method
    (`methods`), given its fields `arguments` in their order."""

    owner: str
    made_with: tuple[str, ...]
    methods: Mapping[str, str]
    arguments: Mapping[str, tuple[str, ...]]


def is_script(cases: Sequence[Case]) -> bool:
    """Whether every case performs its property by a script of operations."""
    return bool(cases) and all(
        isinstance(ops := case.input.get(OPERATIONS), list)
        and ops
        and all(isinstance(op, dict) and isinstance(op.get(NAME), str) for op in ops)
        for case in cases
    )


def operations(cases: Sequence[Case]) -> Iterator[Mapping[str, Any]]:
    """Every operation of the cases' scripts, those of groups too, but not the groups."""
    pending = [op for case in cases for op in case.input[OPERATIONS]]
    while pending:
        op = pending.pop(0)
        if is_group(op):
            pending.extend(op[OPERATIONS])
        else:
            yield op


def is_group(op: Mapping[str, Any]) -> bool:
    """Whether an operation is a group of operations that run at once."""
    return isinstance(op.get(OPERATIONS), list)


def choose_script(
    cases: Sequence[Case],
    owner: str,
    methods: Mapping[str, int],
    made: int,
    names: Callable[[str], Sequence[str]],
) -> Script | str:
    """The script by which an object of `owner` (its methods' arities; its constructor takes
    `made` arguments) performs every case: each operation's method is the one of `names`
    (how the track spells it), or of those and more words, or of its words in another
    form (`balance` is `getBalance`), that takes as many arguments as the operation gives
    fields, or, for the one operation none is named for, the one method of its arity left;
    the constructor takes the case's other inputs. A reason where there is none."""
    given = [[key for key in case.input if key != OPERATIONS] for case in cases]
    if any(keys != given[0] for keys in given) or len(given[0]) != made:
        return f"the constructor of {owner} takes {made} arguments where the scripts give other"
    fields: dict[str, tuple[str, ...]] = {}
    for op in operations(cases):
        passed = tuple(key for key in op if key not in JUDGED)
        if fields.setdefault(op[NAME], passed) != passed:
            return f"the operations {op[NAME]} do not all give the same fields"
    chosen, unnamed = {}, []
    for name, passed in fields.items():
        fitting = {method: () for method, arity in methods.items() if arity == len(passed)}
        tried = list(names(name))
        method = next((n for n in tried if n in fitting), None) or extended_name(tried, fitting)
        method = method or worded_name(name, fitting)
        if method is None:
            unnamed.append(name)
        else:
            chosen[name] = method
    if len(unnamed) == 1:
        # The one operation no name performs is the one method of its arity no other
        # operation takes: C++'s linked-list `erase`s what the data calls `delete`, a word
        # the language keeps for itself.
        arity = len(fields[unnamed[0]])
        left = [m for m, count in methods.items() if count == arity and m not in chosen.values()]
        if len(left) == 1:
            chosen[unnamed.pop()] = left[0]
    if unnamed:
        spelled = ", ".join(names(unnamed[0]))
        return f"no method of {owner} performs the operation {unnamed[0]} ({spelled})"
    return Script(owner, tuple(given[0]), chosen, fields)


def passed_kind(cases: Sequence[Case], script: Script) -> type | None:
    """The one kind (`int`, `str`...) of every value the operations pass, for a generic
    type's argument (a Java `CircularBuffer<Integer>`, a Rust `CircularBuffer::<i64>`);
    None where they pass several kinds, or none."""
    kinds = {type(op[f]) for op in operations(cases) for f in script.arguments[op[NAME]]}
    return kinds.pop() if len(kinds) == 1 else None


def step_templates(
    script: Script,
    step: Callable[[str, tuple[str, ...]], str],
    group: Callable[[str], str],
) -> dict[str, str]:
    """Each operation's step, as a call's template writes it: `step(method, its argument
    placeholders)`, and a group's as `group(its count's placeholder)` (the placeholder of
    its own operations' steps inside: `STEPS`), under the empty name: a group is named by
    the data (`concurrent`), never by a method."""
    templates = {
        name: step(script.methods[name], tuple("${" + f + "}" for f in fields))
        for name, fields in script.arguments.items()
    }
    return templates | {"": group("${" + TIMES + "}")}


def step_of(op: Mapping[str, Any], templates: Mapping[str, str]) -> str | None:
    """The template of one operation's step: a group's, else its method's."""
    return templates.get("" if is_group(op) else str(op.get(NAME)))


def unanswered(inputs: Mapping[str, Any]) -> dict[str, Any]:
    """A script case's inputs without what its operations should do (`JUDGED` but their
    names), a group's too: for a driver given the inputs whole (Python's)."""

    def strip(op: Mapping[str, Any]) -> dict[str, Any]:
        kept = {key: value for key, value in op.items() if key == NAME or key not in JUDGED}
        if is_group(op):
            kept[OPERATIONS] = [strip(inner) for inner in op[OPERATIONS]]
        return kept

    return {**inputs, OPERATIONS: [strip(op) for op in inputs[OPERATIONS]]}


def scripted(cases: Sequence[Case], call: str, steps: Mapping[str, str], **more: Any) -> CallMap:
    """The calls of a kata performed by one script: every property's call is `call`, its
    operations taken by `steps`; `more` (a setup, the errors that count) as the pack says."""
    properties = dict.fromkeys(case.property for case in cases)
    return CallMap(
        calls=dict.fromkeys(properties, call),
        steps={prop: dict(steps) for prop in properties},
        **more,
    )
