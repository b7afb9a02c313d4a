"""Calls read off Exercism's Java track, for a data suite: each canonical property is a method
of the stub's classes of the same name, or, for a kata of one property, the stub's one method;
a static one is called on its class, another on a new instance (`new Leap().isLeapYear(...)`)
where the class can be made without arguments."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath

from tdd_sandbox.languages.deriving import choose_functions, split_parameters
from tdd_sandbox.languages.java.folds import derive_java_folds
from tdd_sandbox.languages.java.reader import JAVA_LEXEMES, java_text
from tdd_sandbox.languages.java.scripts import derive_java_scripts
from tdd_sandbox.languages.lexing import blank
from tdd_sandbox.vocabulary.cases import CallMap, Case

_CLASS = re.compile(r"\bclass\s+(\w+)\s*(?:<([^>]*)>)?")
_METHOD = re.compile(
    r"^[ \t]*((?:(?:public|protected|static|final|synchronized)\s+)*)"
    r"(?:<[^>]*>\s*)?([\w<>\[\],.? ]+?)\s+(\w+)\s*\(([^)]*)\)\s*(?:throws\s+[\w., ]+)?\{",
    re.MULTILINE,
)
_COLLECTION = re.compile(r"(List|Collection|Iterable|Set)<(\w+)>")
_BOXED = frozenset({"Integer", "Double"})  # an int[] or double[] boxes to them
_KEYWORDS = frozenset({"if", "for", "while", "switch", "catch", "return", "new", "else"})


def derive_java_calls(cases: Sequence[Case], stub: Mapping[str, bytes]) -> CallMap | str:
    """The call mapping, or why there is none (the reference's proof confirms it)."""
    # name -> (class, static, parameter names, their types)
    methods: dict[str, tuple[str, bool, list[str], list[str]]] = {}
    made: dict[str, tuple[list[str], list[str]]] = {}  # class -> its constructor's parameters
    # class -> each instance method's parameter types and what it returns
    own: dict[str, dict[str, tuple[list[str], str]]] = {}
    generic: dict[str, int] = {}  # class -> how many type parameters it declares
    for path, data in sorted(stub.items()):
        pure = PurePosixPath(path)
        if pure.suffix != ".java" or pure.parts[:2] == ("src", "test"):
            continue
        code = blank(java_text(data.decode("utf-8", "replace")), JAVA_LEXEMES)
        declared = next((m for m in _CLASS.finditer(code) if m[1] == pure.stem), None)
        if declared is None:
            continue
        owner = declared[1]
        generic[owner] = len(split_parameters(declared[2] or ""))
        for match in _METHOD.finditer(code):
            modifiers, returns, name, params = match[1], match[2], match[3], match[4]
            if name in _KEYWORDS or "private" in modifiers:
                continue
            names, types = _parameters(params)
            if name == owner:  # a constructor: one without arguments is preferred
                if owner not in made or not names:
                    made[owner] = (names, types)
                continue
            methods[name] = (owner, "static" in modifiers.split(), names, types)
            if "static" not in modifiers.split():
                own.setdefault(owner, {})[name] = (types, returns.strip())
    if scripted := derive_java_scripts(
        cases, own, {owner: len(names) for owner, (names, _) in made.items()}, generic
    ):
        return scripted
    # A method on an instance takes the constructor's parameters first (`new Hamming(a,
    # b).getHammingDistance()`, today's Java track).
    signatures = {
        name: (made.get(owner, ([], []))[0] if not static else []) + params
        for name, (owner, static, params, _) in methods.items()
    }
    chosen = choose_functions(cases, signatures, lambda p: [p])
    if isinstance(chosen, str):
        bare = {owner: found for owner, found in own.items() if not made.get(owner, ([],))[0]}
        return derive_java_folds(cases, bare, _argument) or chosen
    calls = {}
    for prop, call in chosen.items():
        owner, static, _, types = methods[call.function]
        first = [] if static else made.get(owner, ([], []))[1]
        example = next(case.input for case in cases if case.property == prop)
        arguments = [
            _argument(a, type_, example.get(a))
            for a, type_ in zip(call.arguments, first + types, strict=True)
        ]
        made_with = ", ".join(arguments[: len(first)])
        target = owner if static else f"new {owner}({made_with})"
        calls[prop] = f"{target}.{call.function}({', '.join(arguments[len(first) :])})"
    return CallMap(calls=calls)


def _parameters(params: str) -> tuple[list[str], list[str]]:
    """A parameter list's names and their types (`final` left out)."""
    declared = [p.split() for p in split_parameters(params)]
    names = [p[-1] for p in declared]
    return names, ["".join(w for w in p[:-1] if w != "final") for p in declared]


def _argument(name: str, declared: str, example: object) -> str:
    """The input `name` as the parameter's declared type takes it: the data's lists are
    written as arrays, so a `List` or `Set` parameter is made of one (boxed where its
    elements are numbers), and a `String` given a list of strings takes them as lines."""
    given = "${" + name + "}"
    if not isinstance(example, list):
        return given
    if match := _COLLECTION.fullmatch(declared):
        # A collection the code may change, as the track's tests' `Arrays.asList` can be
        # sorted in place (change's reference sorts its coins): `List.of` threw at that.
        kind = "java.util.HashSet" if match[1] == "Set" else "java.util.ArrayList"
        if match[2] in _BOXED:
            made = f"java.util.stream.Collectors.toCollection({kind}::new)"
            return f"java.util.Arrays.stream({given}).boxed().collect({made})"
        if match[2] == "String":
            return f"new {kind}<>(java.util.Arrays.asList({given}))"
    if declared == "String" and all(isinstance(item, str) for item in example):
        return "${" + name + "|lines}"
    return given
