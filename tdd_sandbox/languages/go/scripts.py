"""Go's types driven by a script (`scripting`): a type one exported function makes from the
case's other inputs (`NewBuffer(size int) *Buffer`), and its exported methods, each an
operation's (`ReadByte` reads, `Reset` clears: the one left). The driver's `tddScript`
takes each step, a function of the value made, and reads its results as a call's (an error
that is not nil, or a false ok, is the step's error); a group's run on four goroutines."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from tdd_sandbox.languages.go.folds import METHOD
from tdd_sandbox.languages.scripting import (
    STEPS,
    Script,
    choose_script,
    is_script,
    scripted,
    step_templates,
)
from tdd_sandbox.vocabulary.cases import CallMap, Case


def derive_go_scripts(
    cases: Sequence[Case],
    code: str,
    makers: Mapping[str, tuple[list[tuple[str, str]], str]],
    parameters: Callable[[str], list[tuple[str, str]]],
    argument: Callable[[str, str], str],
    name: Callable[[str], list[str]],
) -> CallMap | None:
    """The calls that perform every case by a script on the one type that one function of
    `makers` (function -> its parameters and the type it returns) makes and whose methods in
    `code` perform every operation; None where no one type does."""
    if not is_script(cases):
        return None
    receivers: dict[str, str] = {}
    methods: dict[str, dict[str, tuple[list[tuple[str, str]], bool]]] = {}
    for match in METHOD.finditer(code):
        receivers[match[2]] = f"{match[1]}kata.{match[2]}"
        found = (parameters(match[4]), bool(match[5].strip()))
        methods.setdefault(match[2], {})[match[3]] = found
    made_by: dict[str, list[str]] = {}
    for maker, (_, result) in makers.items():
        made_by.setdefault(result, []).append(maker)
    found_scripts: list[tuple[str, Script]] = []
    for owner, own in sorted(methods.items()):
        if len(made_by.get(owner, [])) != 1:
            continue
        maker = made_by[owner][0]
        arities = {method: len(params) for method, (params, _) in own.items()}
        script = choose_script(cases, owner, arities, len(makers[maker][0]), name)
        if isinstance(script, Script):
            found_scripts.append((maker, script))
    if len(found_scripts) != 1:
        return None
    maker, script = found_scripts[0]
    receiver, own = receivers[script.owner], methods[script.owner]

    def step(method: str, given: tuple[str, ...]) -> str:
        params, answers = own[method]
        args = ", ".join(
            argument(placeholder[2:-1], kind)
            for placeholder, (_, kind) in zip(given, params, strict=True)
        )
        took = f"tddMade.{method}({args})"
        took = f"return tddAll({took})" if answers else f"{took}; return nil"
        return f"func(tddMade {receiver}) []any {{ {took} }}"

    steps = step_templates(script, step, lambda times: f"tddTogether({times}, {STEPS})")
    made_with = ", ".join(
        argument(input_, kind)
        for input_, (_, kind) in zip(script.made_with, makers[maker][0], strict=True)
    )
    call = f"tddScript(kata.{maker}({made_with}), {STEPS})"
    return scripted(cases, call, steps, messages=False)
