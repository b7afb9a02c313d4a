"""Calls read off Exercism's Python track, for a data suite: each canonical property is the
stub's function of its snake_case name, given the case's inputs; the errors that count are
the ones the track's tests expect (`assertRaises(ValueError)`)."""

from __future__ import annotations

import ast
import keyword
import re
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath

from tdd_sandbox.languages.deriving import by_module, choose_functions
from tdd_sandbox.languages.python.reader import parse_python
from tdd_sandbox.vocabulary.cases import CallMap, Case

_RAISES = re.compile(rb"assertRaises(?:Regex)?\(\s*(\w+)")


def derive_python_calls(
    cases: Sequence[Case], stub: Mapping[str, bytes], tests: Mapping[str, bytes]
) -> CallMap | str:
    """The call mapping, or why there is none. Parameters named as the inputs take them by
    name; otherwise as many parameters as inputs take them in the canonical order (the
    reference's proof then confirms the order, or the track's tests judge instead)."""
    functions = _functions(stub)
    chosen = choose_functions(
        cases, {name: params for name, (_, params) in functions.items()}, _names
    )
    if isinstance(chosen, str):
        return chosen
    for call in chosen.values():
        if not all(a.isidentifier() and not keyword.iskeyword(a) for a in call.arguments):
            return f"an input of {call.function} is not a name Python can bind"
    calls = {prop: f"{c.function}({', '.join(c.arguments)})" for prop, c in chosen.items()}
    modules = {name: module for name, (module, _) in functions.items()}
    setup = "\n".join(
        f"from {module} import {', '.join(names)}"
        for module, names in by_module(chosen, modules).items()
    )
    errors = {m.decode() for data in tests.values() for m in _RAISES.findall(data)}
    return CallMap(setup=setup, calls=calls, errors=frozenset(errors))


def _functions(stub: Mapping[str, bytes]) -> dict[str, tuple[str, list[str]]]:
    """The top-level functions of the stub's modules at the root: name -> (module, the
    parameters a call passes by position)."""
    found: dict[str, tuple[str, list[str]]] = {}
    for path, data in sorted(stub.items()):
        pure = PurePosixPath(path)
        if len(pure.parts) != 1 or pure.suffix != ".py":
            continue
        try:
            tree = parse_python(data)
        except (SyntaxError, ValueError):
            continue
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                arguments = node.args.posonlyargs + node.args.args
                found[node.name] = (pure.stem, [a.arg for a in arguments])
    return found


def _names(prop: str) -> list[str]:
    """How the Python track spells a property: snake_case (`leapYear` -> `leap_year`)."""
    return list(dict.fromkeys((_snake(prop), prop)))


def _snake(name: str) -> str:
    """`leapYear` -> `leap_year`, as the Python track names canonical properties."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()
