"""Calls read off Exercism's Java track, for a data suite: each canonical property is a method
of the stub's classes of the same name, or, for a kata of one property, the stub's one method;
a static one is called on its class, another on a new instance (`new Leap().isLeapYear(...)`)
where the class can be made without arguments."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath

from tdd_sandbox.languages.deriving import choose_functions, split_parameters
from tdd_sandbox.languages.java.reader import JAVA_LEXEMES, java_text
from tdd_sandbox.languages.lexing import blank
from tdd_sandbox.vocabulary.cases import CallMap, Case

_CLASS = re.compile(r"\bclass\s+(\w+)")
_METHOD = re.compile(
    r"^[ \t]*((?:(?:public|protected|static|final|synchronized)\s+)*)"
    r"(?:<[^>]*>\s*)?[\w<>\[\],.? ]+?\s+(\w+)\s*\(([^)]*)\)\s*(?:throws\s+[\w., ]+)?\{",
    re.MULTILINE,
)
_KEYWORDS = frozenset({"if", "for", "while", "switch", "catch", "return", "new", "else"})


def derive_java_calls(cases: Sequence[Case], stub: Mapping[str, bytes]) -> CallMap | str:
    """The call mapping, or why there is none (the reference's proof confirms it)."""
    methods: dict[str, tuple[str, bool, list[str]]] = {}  # name -> (class, static, params)
    for path, data in sorted(stub.items()):
        pure = PurePosixPath(path)
        if pure.suffix != ".java" or pure.parts[:2] == ("src", "test"):
            continue
        code = blank(java_text(data.decode("utf-8", "replace")), JAVA_LEXEMES)
        owner = next((m[1] for m in _CLASS.finditer(code) if m[1] == pure.stem), None)
        if owner is None:
            continue
        for match in _METHOD.finditer(code):
            modifiers, name, params = match[1], match[2], match[3]
            if name in _KEYWORDS or "private" in modifiers:
                continue
            if name == owner:  # a constructor: one that takes arguments leaves no `new` to write
                if params.strip():
                    methods = {n: m for n, m in methods.items() if m[0] != owner}
                    break
                continue
            names = [p.split()[-1] for p in split_parameters(params)]
            methods[name] = (owner, "static" in modifiers.split(), names)
    chosen = choose_functions(cases, {n: m[2] for n, m in methods.items()}, lambda p: [p])
    if isinstance(chosen, str):
        return chosen
    calls = {}
    for prop, call in chosen.items():
        owner, static, _ = methods[call.function]
        target = owner if static else f"new {owner}()"
        arguments = ", ".join("${" + a + "}" for a in call.arguments)
        calls[prop] = f"{target}.{call.function}({arguments})"
    return CallMap(calls=calls)
