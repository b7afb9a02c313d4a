"""Calls read off Exercism's Python track, for a data suite: each canonical property is the
stub's function of its snake_case name, given the case's inputs; the errors that count are
the ones the track's tests expect (`assertRaises(ValueError)`). Rows the track's tests pass as
one string of lines are joined so."""

from __future__ import annotations

import ast
import keyword
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from pathlib import PurePosixPath

from tdd_sandbox.languages.deriving import (
    Chosen,
    Use,
    by_module,
    choose_functions,
    choose_uses,
    is_rows,
    most_said,
)
from tdd_sandbox.languages.lambdas import Function, all_functions, read_function
from tdd_sandbox.languages.naming import snake_case
from tdd_sandbox.languages.python.folds import derive_python_folds
from tdd_sandbox.languages.python.reader import parse_python
from tdd_sandbox.languages.python.scripts import derive_python_scripts
from tdd_sandbox.vocabulary.cases import CallMap, Case

_RAISES = re.compile(rb"assertRaises\w*\(\s*([A-Z]\w*)")
"""The error classes the tests expect, as `assertRaises(ValueError)` or a helper of the track's
(`assertRaisesWithMessage(ValueError)`) names them: a class, not the helper's own parameter
(`assertRaisesRegex(exception, ...)`)."""
_ANY = frozenset({"Exception", "BaseException"})
_FUNCTIONS = "tdd_functions"
"""The driver's table of the data's functions, each written as a lambda on the host."""


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
        parsed, errors = list(_modules(stub)), raised_errors(tests)  # each read once
        return (
            derive_python_scripts(cases, parsed, _names, errors)
            or _derive_uses(cases, stub, tests)
            or _derive_starred(cases, stub, tests)
            or derive_python_folds(cases, parsed, _names, errors)
            or chosen
        )
    for call in chosen.values():
        names = [a.partition(".")[0] for a in call.arguments]
        if not all(a.isidentifier() and not keyword.iskeyword(a) for a in names):
            return f"an input of {call.function} is not a name Python can bind"
    calls: dict[str, str] = {}
    given: dict[str, Function] = {}
    for prop, call in chosen.items():
        # A record's field (`key.a`) is the field of the input bound to its name.
        arguments = [re.sub(r"\.(\w+)", r'["\1"]', a) for a in call.arguments]
        example = next(case.input for case in cases if case.property == prop)
        rows = example.get(arguments[0]) if len(arguments) == 1 else None
        if is_rows(rows) and _passes_text(call.function, tests):
            arguments = [f'"\\n".join({arguments[0]})']
        for k, name in enumerate(arguments):
            values = [case.input.get(name) for case in cases if case.property == prop]
            if all_functions(values):  # list-ops' `(x) -> x + 1`, a lambda the host wrote
                given.update((str(v), f) for v in values if (f := read_function(v)))
                arguments[k] = f"{_FUNCTIONS}[{name}]"
        calls[prop] = f"{call.function}({', '.join(arguments)})"
    modules = {name: module for name, (module, _) in functions.items()}
    setup = "\n".join(
        f"from {module} import {', '.join(names)}"
        for module, names in by_module(chosen, modules).items()
    )
    if given:
        table = ", ".join(f"{text!r}: {f.python()}" for text, f in sorted(given.items()))
        setup += f"\n{_FUNCTIONS} = {{{table}}}"
    return CallMap(setup=setup, calls=calls, errors=raised_errors(tests))


def raised_errors(tests: Mapping[str, bytes]) -> frozenset[str]:
    """The error kinds that count: the classes the tests expect, or any where they expect
    `Exception` itself, which every error of the code's is (an empty set: any)."""
    found = frozenset(m.decode() for data in tests.values() for m in _RAISES.findall(data))
    return frozenset() if found & _ANY else found


def _derive_uses(
    cases: Sequence[Case], stub: Mapping[str, bytes], tests: Mapping[str, bytes]
) -> CallMap | None:
    """Where no function performs the properties: the objects the track's tests make and
    use (`Luhn(card).valid()`, `game = ConnectGame(board)` then `game.get_winner()`), each
    made with the first inputs and its member given the rest, in the canonical order. None
    where the tests use no object of the stub so."""
    classes = _classes(stub)
    uses = [use for use in _uses(tests) if use.owner in classes]
    chosen = choose_uses(cases, uses, lambda prop: [*_names(prop), f"get_{snake_case(prop)}"])
    if isinstance(chosen, str):
        return None
    calls = {}
    for prop, use in chosen.items():
        example = next(case.input for case in cases if case.property == prop)
        inputs = list(example)
        if not all(a.isidentifier() and not keyword.iskeyword(a) for a in inputs):
            return None
        if len(inputs) == 1 and is_rows(example[inputs[0]]) and _passes_text(use.owner, tests):
            inputs = [f'"\\n".join({inputs[0]})']
        calls[prop] = use.spelled(inputs)
    owners = {use.owner: Chosen(use.owner, ()) for use in chosen.values()}
    setup = "\n".join(
        f"from {module} import {', '.join(names)}"
        for module, names in by_module(owners, classes).items()
    )
    return CallMap(setup=setup, calls=calls, errors=raised_errors(tests))


def _derive_starred(
    cases: Sequence[Case], stub: Mapping[str, bytes], tests: Mapping[str, bytes]
) -> CallMap | None:
    """For a kata of one property with one input, a list: the stub's one function, called as
    the tests call it, the list starred and keywords given constants, as most calls give them
    (proverb's `proverb(*input_data, qualifier=None)`, though its stub's `def proverb():`
    declares nothing, and two tests of the track's own qualify it). None where a call
    passes anything else, or no spelling is most calls'."""
    functions = _functions(stub)
    keys = {key for case in cases for key in case.input}
    if len(functions) != 1 or len({c.property for c in cases}) != 1 or len(keys) != 1:
        return None
    (name, (module, _)), key = next(iter(functions.items())), keys.pop()
    if not key.isidentifier() or not all(isinstance(c.input[key], list) for c in cases):
        return None
    spelled: Counter[str] = Counter()
    for test in _test_functions(tests):
        for node in ast.walk(test):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and (node.func.id == name)
            ):
                starred = len(node.args) == 1 and isinstance(node.args[0], ast.Starred)
                constant = all(isinstance(k.value, ast.Constant) and k.arg for k in node.keywords)
                if not (starred and constant):
                    return None
                spelled[", ".join(f"{k.arg}={ast.unparse(k.value)}" for k in node.keywords)] += 1
    keywords = most_said(spelled)
    if keywords is None:
        return None
    call = f"{name}(*{key}{', ' + keywords if keywords else ''})"
    prop = cases[0].property
    setup = f"from {module} import {name}"
    return CallMap(setup=setup, calls={prop: call}, errors=raised_errors(tests))


def _uses(tests: Mapping[str, bytes]) -> list[Use]:
    """Each `Owner(args).member(args)` (or `.member`) of the tests, the object made in the
    expression itself or bound to a name earlier in the same test: once per test using it."""
    found: list[Use] = []
    for test in _test_functions(tests):
        made: dict[str, ast.Call] = {}
        here: set[Use] = set()
        called = {
            id(node.func): len(node.args)
            for node in ast.walk(test)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
        }
        for node in ast.walk(test):
            if isinstance(node, ast.Assign) and (call := _made(node.value)) is not None:
                made.update((t.id, call) for t in node.targets if isinstance(t, ast.Name))
        for node in ast.walk(test):
            if not isinstance(node, ast.Attribute) or node.attr.startswith("_"):
                continue
            value = node.value
            call = made.get(value.id) if isinstance(value, ast.Name) else _made(value)
            if call is not None and isinstance(call.func, ast.Name) and not call.keywords:
                given = called.get(id(node))
                use = Use(call.func.id, len(call.args), node.attr, given)
                found.extend([use] if use not in here else [])
                here.add(use)
    return found


def _test_functions(tests: Mapping[str, bytes]) -> Iterator[ast.FunctionDef]:
    """Every function of the test files that parse (a test, or a helper a test calls)."""
    for data in tests.values():
        try:
            tree = parse_python(data)
        except (SyntaxError, ValueError):
            continue
        yield from (node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef))


def _made(node: ast.expr) -> ast.Call | None:
    """`node` when it makes an object: a call of a capitalised name."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return node if node.func.id[:1].isupper() else None
    return None


def _classes(stub: Mapping[str, bytes]) -> dict[str, str]:
    """The top-level classes of the stub's modules at the root: name -> module."""
    found: dict[str, str] = {}
    for module, tree in _modules(stub):
        found.update((n.name, module) for n in tree.body if isinstance(n, ast.ClassDef))
    return found


def _modules(stub: Mapping[str, bytes]) -> Iterator[tuple[str, ast.Module]]:
    """The stub's modules at the root that parse, by name, in path order."""
    for path, data in sorted(stub.items()):
        pure = PurePosixPath(path)
        if len(pure.parts) != 1 or pure.suffix != ".py":
            continue
        try:
            yield pure.stem, parse_python(data)
        except (SyntaxError, ValueError):
            continue


def _passes_text(function: str, tests: Mapping[str, bytes]) -> bool:
    """Whether the track's tests call `function` with a string of their own as its first
    argument: a literal, a sum or f-string of them, or one `join`ed, directly or through a
    name the test assigned it to (transpose's `text = "A1"`, `"\\n".join(lines)`)."""
    for test in _test_functions(tests):
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
    for module, tree in _modules(stub):
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                arguments = node.args.posonlyargs + node.args.args
                found[node.name] = (module, [a.arg for a in arguments])
    return found


def _names(prop: str) -> list[str]:
    """How the Python track spells a property: snake_case (`leapYear` -> `leap_year`)."""
    return list(dict.fromkeys((snake_case(prop), prop)))
