"""Calls read off Exercism's Go track, for a data suite: each canonical property is the stub's
exported function of its name (`convertToBase` -> `ConvertToBase`), or, for a kata of one
property, the stub's one exported function (leap's `IsLeapYear`); its parameters take the
case's inputs by name, or as many in the canonical order. The driver imports the code as
`kata`."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath

from tdd_sandbox.languages.deriving import choose_functions
from tdd_sandbox.languages.go.reader import GO_LEXEMES
from tdd_sandbox.languages.lexing import blank
from tdd_sandbox.vocabulary.cases import CallMap, Case

_FUNC = re.compile(r"^func\s+([A-Z]\w*)\s*\(([^)]*)\)", re.MULTILINE)


def derive_go_calls(cases: Sequence[Case], stub: Mapping[str, bytes]) -> CallMap | str:
    """The call mapping, or why there is none (the reference's proof confirms it)."""
    chosen = choose_functions(cases, _functions(stub), lambda p: [p[:1].upper() + p[1:]])
    if isinstance(chosen, str):
        return chosen
    # The track's tests ask whether an error came back, never what it says.
    return CallMap(
        calls={
            prop: f"kata.{c.function}({', '.join('${' + a + '}' for a in c.arguments)})"
            for prop, c in chosen.items()
        },
        messages=False,
    )


def _functions(stub: Mapping[str, bytes]) -> dict[str, list[str]]:
    """The exported top-level functions (not methods) of the stub's package at the root:
    name -> parameter names."""
    found: dict[str, list[str]] = {}
    for path, data in sorted(stub.items()):
        pure = PurePosixPath(path)
        if len(pure.parts) != 1 or pure.suffix != ".go" or pure.stem.endswith("_test"):
            continue
        code = blank(data.decode("utf-8", "replace"), GO_LEXEMES)
        for match in _FUNC.finditer(code):
            found[match[1]] = _names(match[2])
    return found


def _names(params: str) -> list[str]:
    """`a, b int, c []string` -> a, b, c."""
    names = []
    for part in (p.strip() for p in params.split(",")):
        if part:
            names.append(part.split()[0])
    return names
