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

from tdd_sandbox.languages.deriving import (
    Source,
    Use,
    arguments_at,
    by_module,
    choose_functions,
    choose_uses,
    is_rows,
    spread_cases,
)
from tdd_sandbox.languages.javascript.folds import derive_javascript_folds
from tdd_sandbox.languages.javascript.reader import read_javascript
from tdd_sandbox.languages.javascript.scripts import derive_javascript_scripts
from tdd_sandbox.languages.kinds import argument_texts, lower_cased
from tdd_sandbox.vocabulary.cases import CallMap, Case

# A return type (TypeScript's) may stand between an arrow function's parameters and its arrow.
_EXPORTED = re.compile(
    r"^export\s+(?:(?:async\s+)?function\s*\*?\s*(\w+)\s*\(([^)]*)\)"
    r"|const\s+(\w+)\s*=\s*(?:async\s+)?(?:\(([^)]*)\)(?:\s*:[^=;{]*)?|(\w+))\s*=>)",
    re.MULTILINE,
)
_TYPED = re.compile(r"^([A-Za-z_$][\w$]*)\s*:[^=]*$")
"""A parameter with a type (TypeScript's `year: number`), and no default."""
_NAME = re.compile(r"[A-Za-z_$][\w$]*")


def derive_javascript_calls(
    cases: Sequence[Case],
    stub: Mapping[str, bytes],
    tests: Mapping[str, bytes],
    suffixes: tuple[str, ...] = (".js", ".mjs"),
) -> CallMap | str:
    """The call mapping, or why there is none (the reference's proof confirms it). The
    stub's modules are its root's files of `suffixes`."""
    functions: dict[str, tuple[str, list[str]]] = {}
    for path, data in sorted(stub.items()):
        pure = PurePosixPath(path)
        if len(pure.parts) != 1 or pure.suffix not in suffixes:
            continue
        code = read_javascript(data.decode("utf-8", "replace")).code
        for match in _EXPORTED.finditer(code):
            name = match[1] or match[3]
            params = match[2] if match[1] else (match[4] if match[4] is not None else match[5])
            names = [_untyped(p.strip()) for p in (params or "").split(",") if p.strip()]
            if all(_NAME.fullmatch(n) for n in names):  # no defaults, rest or destructuring
                functions[name] = (path, names)
    declared = {name: params for name, (_, params) in functions.items()}
    chosen = choose_functions(cases, declared, lambda prop: [prop], unnamed=True)
    if isinstance(chosen, str):
        return _derive_uses(cases, stub, tests, suffixes) or chosen
    modules = {name: path for name, (path, _) in functions.items()}
    setup = "\n".join(
        f'import {{ {", ".join(names)} }} from "./{path}";'
        for path, names in by_module(chosen, modules).items()
    )
    text = b"\n".join(tests.values()).decode("utf-8", "replace")
    calls = {}
    read = Source(read_javascript(text).code, text)
    for prop, call in chosen.items():
        example = next(case.input for case in cases if case.property == prop)
        as_text = len(call.arguments) == 1 and _passes_text(call.function, text)
        passed = _passed(read, call.function)
        arguments = []
        for k, a in enumerate(call.arguments):
            values = [case.input.get(a) for case in cases if case.property == prop]
            filter_ = "|lines" if as_text and is_rows(example.get(a)) else ""
            if lower_cased(values, [given[k] for given in passed if len(given) > k]):
                filter_ = "|lower"
            arguments.append("${" + a + filter_ + "}")
        calls[prop] = f"{call.function}({', '.join(arguments)})"
    return CallMap(setup=setup, calls=calls)


_CLASS = re.compile(r"^(export\s+(?:default\s+)?)?class\s+([A-Za-z_$][\w$]*)", re.MULTILINE)
_DEFAULT = re.compile(r"^export\s+default\s+([A-Za-z_$][\w$]*)\s*;?\s*$", re.MULTILINE)
_MADE = re.compile(r"(?:([A-Za-z_$][\w$]*)\s*=\s*)?\bnew\s+([A-Za-z_$][\w$]*)\s*\(")
_MEMBER = re.compile(r"\s*\.\s*([A-Za-z_$][\w$]*)(\s*\()?")
_STATIC = re.compile(r"(?<![\w$.])([A-Z][\w$]*)\s*\.\s*([A-Za-z$][\w$]*)\s*\(")
"""A class's own member called, `House.verses(1, 2)` (a class's name is capitalised)."""


def _untyped(param: str) -> str:
    """A parameter's name where it is only a name and its type; else the parameter."""
    typed = _TYPED.match(param)
    return typed[1] if typed else param


def _derive_uses(
    cases: Sequence[Case],
    stub: Mapping[str, bytes],
    tests: Mapping[str, bytes],
    suffixes: tuple[str, ...],
) -> CallMap | None:
    """Where no exported function performs the properties: the objects the track's tests
    make and use (`new Board(board).winner()`, `const scale = new Scale(tonic)` then
    `scale.interval(intervals)`), made with the first inputs and given the rest, in the
    canonical order. None where the tests use no class of the stub so."""
    classes: dict[str, tuple[str, bool]] = {}  # name -> (module, whether the default export)
    for path, data in sorted(stub.items()):
        if len(PurePosixPath(path).parts) == 1 and path.endswith(suffixes):
            code = read_javascript(data.decode("utf-8", "replace")).code
            default = set(_DEFAULT.findall(code))
            for match in _CLASS.finditer(code):
                exported = match[1] or match[2] in default
                if exported:
                    classes[match[2]] = (path, "default" in (match[1] or "") or match[2] in default)
    text = "\n".join(d.decode("utf-8", "replace") for d in tests.values())
    uses = {use for use in _uses(Source(read_javascript(text).code, text)) if use.owner in classes}
    imports = {
        owner: f'import {owner} from "./{path}";'
        if default
        else f'import {{ {owner} }} from "./{path}";'
        for owner, (path, default) in classes.items()
    }
    if scripted := derive_javascript_scripts(cases, imports, uses):
        return scripted
    chosen = choose_uses(cases, uses, _member_names)
    if isinstance(chosen, str):
        # Lists the tests pass item by item (`new Triangle(2, 2, 2)` for `sides`).
        spread = spread_cases(cases)
        chosen = choose_uses(spread, uses, _member_names)
        cases = spread if not isinstance(chosen, str) else cases
    if isinstance(chosen, str) or _one_by_one(cases, chosen, text):
        return derive_javascript_folds(cases, imports, uses) or (
            None if isinstance(chosen, str) else _spelled(cases, chosen, text, imports)
        )
    return _spelled(cases, chosen, text, imports)


def _one_by_one(cases: Sequence[Case], chosen: Mapping[str, Use], text: str) -> bool:
    """Whether a property's one input is a list of texts that the tests give its member one
    text at a time (forth's `evaluate('1 2 +')` for its `instructions`): an object built
    step by step, where one is (`derive_javascript_folds`)."""
    for prop, use in chosen.items():
        example = next(case.input for case in cases if case.property == prop)
        values = list(example.values())
        passed = re.search(rf"\.{re.escape(use.member)}\(\s*['\"`]", text)
        if len(values) == 1 and is_rows(values[0]) and use.given == 1 and passed:
            return True
    return False


def _spelled(
    cases: Sequence[Case], chosen: Mapping[str, Use], text: str, imports: Mapping[str, str]
) -> CallMap:
    """The calls of the uses chosen, and the lines importing their classes."""
    calls = {}
    for prop, use in chosen.items():
        example = next(case.input for case in cases if case.property == prop)
        rows = len(example) == 1 and is_rows(next(iter(example.values())))
        lines = "|lines" if rows and _passes_text(use.owner, text) else ""
        inputs = ["${" + name + lines + "}" for name in example]
        calls[prop] = use.spelled(inputs, "new ")
    owners = sorted({use.owner for use in chosen.values()})
    return CallMap(setup="\n".join(imports[owner] for owner in owners), calls=calls)


def _member_names(prop: str) -> list[str]:
    """How the track names a member for `prop`: as it is, or its getter's `get` before it."""
    return [prop, f"get{prop[:1].upper()}{prop[1:]}"]


def _uses(read: Source) -> set[Use]:
    """Each `new Owner(args).member(args)` (or `.member`) of the tests' code, the object
    made in the expression or bound to a name (`x = new Owner(args)`, then `x.member`), and
    each `Owner.member(args)` of a class's own."""
    found: set[Use | None] = set()
    bound: dict[str, tuple[str, int]] = {}
    code = read.code
    for match in _MADE.finditer(code):
        count, end = arguments_at(read, match.end())
        if count is None:
            continue
        if match[1]:
            bound[match[1]] = (match[2], count)
        found.add(_use(read, match[2], count, end))
    for name, (owner, count) in bound.items():
        for member in re.finditer(rf"(?<![\w$.]){re.escape(name)}(?=\s*\.)", code):
            found.add(_use(read, owner, count, member.end()))
    for match in _STATIC.finditer(code):
        if match[1] not in bound and (given := arguments_at(read, match.end())[0]) is not None:
            found.add(Use(match[1], 0, match[2], given, static=True))
    return {use for use in found if use is not None}


def _use(read: Source, owner: str, count: int, at: int) -> Use | None:
    """The use of an object made by `owner` with `count` arguments whose member follows
    `at`; None where no member follows, a private one does, or its arguments are unknown."""
    member = _MEMBER.match(read.code, at)
    if member is None or member[1].startswith("_"):
        return None
    if not member[2]:
        return Use(owner, count, member[1], None)
    given = arguments_at(read, member.end())[0]
    return None if given is None else Use(owner, count, member[1], given)


def _passed(read: Source, function: str) -> list[list[str]]:
    """The arguments of each call of `function` in the tests, as source text."""
    found = []
    for match in re.finditer(rf"(?<![\w$.]){re.escape(function)}\s*\(", read.code):
        count, end = arguments_at(read, match.end())
        if count is not None:
            found.append([text for text in argument_texts(read, match.end(), end) if text])
    return found


def _passes_text(function: str, tests: str) -> bool:
    """Whether the track's tests call `function` with a string of their own (a literal)."""
    return re.search(rf"(?<![\w$.]){re.escape(function)}\(\s*['\"`]", tests) is not None
