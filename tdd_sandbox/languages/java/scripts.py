"""Java's objects driven by a script (`scripting`): one class of the stub whose constructor
takes the case's other inputs and whose methods perform its operations, replayed by the
driver's `script` (a group's by its `together`), each step a lambda on the object."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tdd_sandbox.languages.scripting import (
    STEPS,
    Script,
    choose_script,
    is_script,
    passed_kind,
    scripted,
    step_templates,
)
from tdd_sandbox.vocabulary.cases import CallMap, Case

_BOXES: dict[type | None, str] = {int: "Integer", str: "String", bool: "Boolean", float: "Double"}
"""The type argument of a generic class whose operations pass values of one kind."""


def derive_java_scripts(
    cases: Sequence[Case],
    classes: Mapping[str, Mapping[str, tuple[list[str], str]]],
    made: Mapping[str, int],
    generic: Mapping[str, int],
) -> CallMap | None:
    """The calls that perform every case by a script on the one class of `classes` (class ->
    its instance methods' parameter types and what each returns; `made`: how many
    arguments its constructor takes; `generic`: how many type parameters it declares) whose
    methods perform every operation; None where no one class does, or its type argument
    is not one kind of the data's."""
    if not is_script(cases):
        return None
    found = [
        script
        for owner, methods in sorted(classes.items())
        if isinstance(
            script := choose_script(
                cases,
                owner,
                {method: len(types) for method, (types, _) in methods.items()},
                made.get(owner, 0),
                lambda name: [name],
            ),
            Script,
        )
    ]
    if len(found) != 1:
        return None
    script = found[0]
    methods = classes[script.owner]
    type_argument = ""
    if count := generic.get(script.owner, 0):
        if count != 1 or (box := _BOXES.get(passed_kind(cases, script))) is None:
            return None
        type_argument = f"<{box}>"

    def step(method: str, arguments: tuple[str, ...]) -> str:
        call = f"tddMade.{method}({', '.join(arguments)})"
        if methods[method][1] == "void":
            return f"tddMade -> {{ {call}; return null; }}"
        return f"tddMade -> {call}"

    steps = step_templates(script, step, lambda times: f"TddAcceptance.together({times}, {STEPS})")
    made_with = ", ".join("${" + name + "}" for name in script.made_with)
    call = f"TddAcceptance.script(new {script.owner}{type_argument}({made_with}), {STEPS})"
    return scripted(cases, call, steps)
