"""Calls read off Exercism's JavaScript track, for a data suite: each canonical property is the
stub's exported function of its name (`export const isLeap = (year) => ...` or `export function
isLeap(year)`), or, for a kata of one property, its one exported function (leap's `isLeap` for
leapYear); one that declares no parameters (the track's stubs often do not) takes the inputs
in order. The setup imports it from its module beside the driver. Rows the track's tests pass
as one string of lines (`convert(' _ \n' + ...)`) are given so."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath

from tdd_sandbox.languages.deriving import by_module, choose_functions, is_rows
from tdd_sandbox.languages.javascript.reader import read_javascript
from tdd_sandbox.vocabulary.cases import CallMap, Case

_EXPORTED = re.compile(
    r"^export\s+(?:(?:async\s+)?function\s*\*?\s*(\w+)\s*\(([^)]*)\)"
    r"|const\s+(\w+)\s*=\s*(?:async\s+)?(?:\(([^)]*)\)|(\w+))\s*=>)",
    re.MULTILINE,
)
_NAME = re.compile(r"[A-Za-z_$][\w$]*")


def derive_javascript_calls(
    cases: Sequence[Case], stub: Mapping[str, bytes], tests: Mapping[str, bytes]
) -> CallMap | str:
    """The call mapping, or why there is none (the reference's proof confirms it)."""
    functions: dict[str, tuple[str, list[str]]] = {}
    for path, data in sorted(stub.items()):
        pure = PurePosixPath(path)
        if len(pure.parts) != 1 or pure.suffix not in (".js", ".mjs"):
            continue
        code = read_javascript(data.decode("utf-8", "replace")).code
        for match in _EXPORTED.finditer(code):
            name = match[1] or match[3]
            params = match[2] if match[1] else (match[4] if match[4] is not None else match[5])
            names = [p.strip() for p in (params or "").split(",") if p.strip()]
            if all(_NAME.fullmatch(n) for n in names):  # no defaults, rest or destructuring
                functions[name] = (path, names)
    declared = {name: params for name, (_, params) in functions.items()}
    chosen = choose_functions(cases, declared, lambda prop: [prop], unnamed=True)
    if isinstance(chosen, str):
        return chosen
    modules = {name: path for name, (path, _) in functions.items()}
    setup = "\n".join(
        f'import {{ {", ".join(names)} }} from "./{path}";'
        for path, names in by_module(chosen, modules).items()
    )
    text = b"\n".join(tests.values()).decode("utf-8", "replace")
    calls = {}
    for prop, call in chosen.items():
        example = next(case.input for case in cases if case.property == prop)
        as_text = len(call.arguments) == 1 and _passes_text(call.function, text)
        arguments = [
            "${" + a + ("|lines}" if as_text and is_rows(example.get(a)) else "}")
            for a in call.arguments
        ]
        calls[prop] = f"{call.function}({', '.join(arguments)})"
    return CallMap(setup=setup, calls=calls)


def _passes_text(function: str, tests: str) -> bool:
    """Whether the track's tests call `function` with a string of their own (a literal)."""
    return re.search(rf"(?<![\w$.]){re.escape(function)}\(\s*['\"`]", tests) is not None
