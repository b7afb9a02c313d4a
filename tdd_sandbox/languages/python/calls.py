"""Calls read off Exercism's Python track, for a data suite: each canonical property is the
stub's function of its snake_case name, given the case's inputs; the errors that count are
the ones the track's tests expect (`assertRaises(ValueError)`). Rows the track's tests pass as
one string of lines are joined so."""

from __future__ import annotations

import ast
import keyword
import re
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath

from tdd_sandbox.languages.deriving import by_module, choose_functions, is_rows
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
    calls = {}
    for prop, call in chosen.items():
        arguments = list(call.arguments)
        example = next(case.input for case in cases if case.property == prop)
        rows = example.get(arguments[0]) if len(arguments) == 1 else None
        if is_rows(rows) and _passes_text(call.function, tests):
            arguments = [f'"\\n".join({arguments[0]})']
        calls[prop] = f"{call.function}({', '.join(arguments)})"
    modules = {name: module for name, (module, _) in functions.items()}
    setup = "\n".join(
        f"from {module} import {', '.join(names)}"
        for module, names in by_module(chosen, modules).items()
    )
    errors = {m.decode() for data in tests.values() for m in _RAISES.findall(data)}
    return CallMap(setup=setup, calls=calls, errors=frozenset(errors))


def _passes_text(function: str, tests: Mapping[str, bytes]) -> bool:
    """Whether the track's tests call `function` with a string of their own as its first
    argument: a literal, a sum or f-string of them, or one `join`ed, directly or through a
    name the test assigned it to (transpose's `text = "A1"`, `"\\n".join(lines)`)."""
    for data in tests.values():
        try:
            tree = parse_python(data)
        except (SyntaxError, ValueError):
            continue
        for test in ast.walk(tree):
            if not isinstance(test, ast.FunctionDef):
                continue
            bound = {
                target.id: node.value
                for node in ast.walk(test)
                if isinstance(node, ast.Assign)
                for target in node.targets
                if isinstance(target, ast.Name)
            }
            for node in ast.walk(test):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id == function
                    and node.args
                ):
                    given = node.args[0]
                    if isinstance(given, ast.Name):
                        given = bound.get(given.id, given)
                    if _is_text(given):
                        return True
    return False


def _is_text(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _is_text(node.left) or _is_text(node.right)
    func = node.func if isinstance(node, ast.Call) else None
    return isinstance(func, ast.Attribute) and func.attr == "join" and _is_text(func.value)


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
