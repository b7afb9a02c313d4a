"""Calls read off Exercism's Go track, for a data suite: each canonical property is the stub's
exported function of its name (`convertToBase` -> `ConvertToBase`), or a field of that name
of the struct one function returns, or, for a kata of one property, the stub's one exported
function (leap's `IsLeapYear`); its parameters take the
case's inputs by name, or as many in the canonical order. The driver imports the code as
`kata`."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath

from tdd_sandbox.languages.deriving import choose_functions, split_parameters
from tdd_sandbox.languages.go.folds import derive_go_folds, qualified
from tdd_sandbox.languages.go.reader import GO_LEXEMES
from tdd_sandbox.languages.go.scripts import derive_go_scripts
from tdd_sandbox.languages.go.tables import derive_go_tables
from tdd_sandbox.languages.lexing import blank
from tdd_sandbox.vocabulary.cases import CallMap, Case

_FUNC = re.compile(r"^func\s+([A-Z]\w*)\s*\(([^)]*)\)\s*\(?\s*((?:\[\d*\]|\*)*\w+)?", re.MULTILINE)
_STRUCT = re.compile(r"^type\s+(\w+)\s+struct\s*\{([^{}]*)\}", re.MULTILINE)
_FIELD = re.compile(r"^\s*([A-Z]\w*)\s+\S", re.MULTILINE)
_SCALAR = "int|int8|int16|int32|int64|uint|uint8|uint16|uint32|uint64|float32|float64|byte|rune"
_AS_WRITTEN = re.compile(rf"(?:\[\])*(?:int|string|bool|float64)|{_SCALAR}")
"""Types the data's literals are written as (`[]int{...}`), or that a constant converts to."""
_CONVERTED = re.compile(r"(?:\[\d*\]|map\[|\*|[A-Z]\w*|bool|string|" + _SCALAR + r"|\])+")
"""Types the driver converts the data's JSON to: slices, arrays, maps, pointers and the
package's exported types of those and of builtins (`[]Domino`, `map[string]int`)."""


def derive_go_calls(
    cases: Sequence[Case], stub: Mapping[str, bytes], tests: Mapping[str, bytes]
) -> CallMap | str:
    """The call mapping, or why there is none (the reference's proof confirms it)."""
    code = _code(stub)
    signatures = _functions(code)
    # The track's own tables first: where its generator restated a case in Go's terms, that
    # is what its model is asked (and where it did not, the same as the data).
    tabled = derive_go_tables(cases, tests, list(signatures), _argument)
    if not isinstance(tabled, str):
        return tabled
    if scripted := derive_go_scripts(cases, code, signatures, _parameters, _argument, _name):
        return scripted
    functions = {name: [p for p, _ in params] for name, (params, _) in signatures.items()}
    fields = _fields(code)
    chosen = choose_functions(cases, functions, _name)
    if isinstance(chosen, str) and fields:
        # A field of what one function returns performs a property where no function does
        # (zebra-puzzle's `SolvePuzzle().DrinksWater`), tried only then: a kata of one
        # property is the stub's one function where it has one (tree-building's `Build`).
        read = {**{f: functions[owner] for f, owner in fields.items()}, **functions}
        if not isinstance(found := choose_functions(cases, read, _name), str):
            chosen = found
    properties = {case.property for case in cases}
    if isinstance(chosen, str) and len(properties) == 1:
        # Of a kata's functions, those whose result is of the data's kind (protein-translation's
        # `FromRNA` gives the list of proteins, `FromCodon` one).
        answers = [case.expected for case in cases if not case.expects_error]
        kind = {
            n: p for n, p in functions.items() if all(_fits(signatures[n][1], a) for a in answers)
        }
        if kind != functions and not isinstance(found := choose_functions(cases, kind, _name), str):
            chosen = found
    if isinstance(chosen, str):
        makers = {
            result: maker for maker, (params, result) in signatures.items() if not params and result
        }
        return derive_go_folds(cases, code, makers, _parameters, _argument, _name) or chosen
    calls = {}
    for prop, c in chosen.items():
        field = c.function not in functions  # a field of what its function returns
        owner = fields[c.function] if field else c.function
        kinds = [kind for _, kind in signatures[owner][0]]
        given = ", ".join(_argument(a, k) for a, k in zip(c.arguments, kinds, strict=True))
        calls[prop] = f"kata.{owner}({given})" + (f".{c.function}" if field else "")
    # The track's tests ask whether an error came back, never what it says.
    return CallMap(calls=calls, messages=False)


def _fits(result: str, answer: object) -> bool:
    """Whether a function's first result of type `result` can be `answer`, by its kind (a list
    a slice or an array, text a string, a number a number); a record or null any."""
    if isinstance(answer, list):
        return result.startswith("[")
    if isinstance(answer, str):
        return result == "string"
    if isinstance(answer, bool):
        return result == "bool"
    if isinstance(answer, int | float):
        return re.fullmatch(_SCALAR, result) is not None
    return True


def _name(prop: str) -> list[str]:
    return [prop[:1].upper() + prop[1:]]


def _code(stub: Mapping[str, bytes]) -> str:
    """The stub's package at the root, its literals and comments blanked."""
    codes = []
    for path, data in sorted(stub.items()):
        pure = PurePosixPath(path)
        if len(pure.parts) == 1 and pure.suffix == ".go" and not pure.stem.endswith("_test"):
            codes.append(blank(data.decode("utf-8", "replace"), GO_LEXEMES))
    return "\n".join(codes)


def _argument(name: str, kind: str) -> str:
    """The input `name` as the parameter of type `kind` takes it: a literal, or the driver's
    conversion of its JSON to the type (of the package's own types, `kata.`'s)."""
    if _AS_WRITTEN.fullmatch(kind) or not _CONVERTED.fullmatch(kind):
        return "${" + name + "}"
    return f"tddAs[{qualified(kind)}](${{{name}|json}})"


def _functions(code: str) -> dict[str, tuple[list[tuple[str, str]], str]]:
    """The exported top-level functions (not methods): name -> (parameters as name and type,
    the type of its first result)."""
    return {m[1]: (_parameters(m[2]), (m[3] or "").lstrip("*")) for m in _FUNC.finditer(code)}


def _fields(code: str) -> dict[str, str]:
    """The exported fields of the structs that exactly one exported function returns:
    field -> that function. A field of two such structs is neither's."""
    returning: dict[str, list[str]] = {}
    for name, (_, result) in _functions(code).items():
        returning.setdefault(result, []).append(name)
    owners: dict[str, set[str]] = {}
    for match in _STRUCT.finditer(code):
        makers = returning.get(match[1], [])
        for field in _FIELD.findall(match[2]) if len(makers) == 1 else []:
            owners.setdefault(field, set()).add(makers[0])
    return {field: found.pop() for field, found in owners.items() if len(found) == 1}


def _parameters(params: str) -> list[tuple[str, str]]:
    """`a, b int, c []string` -> (a, int), (b, int), (c, []string)."""
    named: list[tuple[str, str]] = []
    kind = ""
    for part in reversed(split_parameters(params, "[(")):
        name, _, written = part.strip().partition(" ")
        kind = written.strip() or kind
        named.append((name, kind))
    return named[::-1]
