"""Go's generated case tables as the data suite: the track's generator writes each canonical
case as a row of a table in its tests (`var testCases = []struct{...}{...}` in
`cases_test.go`) in Go's own terms, where the data's do not fit the track's API (poker's
suits as ♤♡♢♧, word-search's word not found as the call's error, scale-generator's chromatic
scale as an interval of ""). The test that ranges over a table says the call
(`Scale(tc.tonic, tc.interval)`); a row's other field is its answer, and a boolean field
named for an error says the call must fail. Each row is the case its description names,
restated so (`CallMap.restated`), and stays on the host as the data does."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tdd_sandbox.languages.go.literals import (
    Fields,
    LiteralReader,
    Unreadable,
    struct_fields,
    zero_value,
)
from tdd_sandbox.languages.go.reader import GO_LEXEMES
from tdd_sandbox.languages.go.rows import DESCRIPTION, mentioned, row_case
from tdd_sandbox.languages.lexing import blank, block_end
from tdd_sandbox.vocabulary.cases import CallMap, Case, Restated

_VAR = re.compile(r"^var\s+(\w+)\s*=\s*", re.MULTILINE)
_TYPE = re.compile(r"^type\s+(\w+)\s+struct\s*\{", re.MULTILINE)
_LOOP = re.compile(r"\bfor\s+_\s*,\s*(\w+)\s*:=\s*range\s+(\w+)\s*\{")
_CALL = re.compile(r"(?<![\w.])([A-Z]\w*)\s*\(")
_CALLED = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\s*\(")
_FUNC = re.compile(r"^func\s+(\w+)\s*\([^{]*\{", re.MULTILINE)
_SHARED = re.compile(r"(?!(?:Test|Benchmark|Example|Fuzz)(?![a-z]))[A-Z]\w*")
"""An exported function of a test file that is no test: one the package's code may call."""
_IMPORT = re.compile(r'^\s*(?:import\s+)?("(?:[\w.]+/)*(\w+)")\s*$', re.MULTILINE)
"""A package a test file imports, and the name it goes by."""
_ERROR = re.compile(r"(?i)err")
_FLAGS = ("bool", "string", "error")
"""The types of a field named for an error that says a row's call fails: true, a message,
an error that is not nil (nth-prime's `err: "there is no zeroth prime"`)."""
_OK = re.compile(r"(?:^ok|Ok)$")
"""A field named for the comma-ok idiom, a bool: false says the call fails, as the driver
reads `ok` (relative-distance's `expectedOk`)."""
_METHOD = re.compile(r"\s*\.\s*[A-Z]\w*\s*\(")
_BOUND = re.compile(r"(?<!,)(?<!,\s)\b(\w+)\s*:?=\s*$")
"""One name bound to what follows (not the last of several: `actual, err :=`)."""


@dataclass(frozen=True)
class Table:
    """A table of a test file: its rows' fields (name -> type) and its rows."""

    fields: Fields
    rows: list[dict[str, Any]]


def derive_go_tables(
    cases: Sequence[Case],
    tests: Mapping[str, bytes],
    functions: Sequence[str],
    argument: Callable[[str, str], str],
) -> CallMap | str:
    """The calls and the restated cases of the track's tables: each of `cases` the row its
    description names, in a table a test ranges over with one call of one of `functions`
    (each input written by `argument(its path, its type)`); a reason where a table the data
    describes cannot be read so, or a case is in none."""
    code = "\n".join(
        data.decode("utf-8", "replace") for path, data in sorted(tests.items())
        if path.endswith("_test.go")
    )  # fmt: skip
    clear = blank(code, GO_LEXEMES)
    structs = _structs(code, clear)
    calls: dict[str, str] = {}
    restated: dict[str, Restated] = {}
    for name, (loop, body) in _loops(code, clear).items():
        table = _table(code, clear, name, structs)
        if table is None or DESCRIPTION not in table.fields:
            continue
        if not any(mentioned(row, cases) for row in table.rows):
            continue  # a table of the track's own, no case of the data's
        described = [row_case(row, cases) for row in table.rows]
        read = _call(body, loop, table, structs, functions, argument)
        if isinstance(read, str):
            return f"the track's table {name}: {read}"
        call, answer, failing = read
        # A row its description does not name alone is named among the cases of the
        # table's property, else by its inputs' values.
        of = {case.property for case in described if case}
        called = {c.property for c in cases if f"kata.{_name(c.property)}(" in call}
        prefer = of if len(of) == 1 else called
        for row, case in zip(table.rows, described, strict=True):
            given = {k: v for k, v in row.items() if k not in (DESCRIPTION, answer, failing)}
            case = case or row_case(row, cases, prefer, given)
            if case is None:
                return f"a row of the track's table {name} is no case of the data"
            if case.id in restated or calls.setdefault(case.property, call) != call:
                return f"the track's tables give {case.property} two ways"
            fails = failing and (not row[failing] if _OK.search(failing) else row[failing])
            expected = {"error": "an error"} if fails else row[answer]
            restated[case.id] = Restated(input=given, expected=expected)
    if not restated:
        return "the track's tests hold no table of the data's cases"
    if missing := [case.id for case in cases if case.id not in restated]:
        return f"{len(missing)} cases are in no table of the track's (first: {missing[0]})"
    # What a call passes an input through (connect's `prepare`, which takes the spaces out
    # of the board's rows) joins the driver; what the package may call (bottle-song's
    # `Title`, a copy of the deprecated strings.Title) joins the package, as with its tests.
    sources = {m[1]: code[m.start() : block_end(clear, m.end())]
               for m in _FUNC.finditer(clear)}  # fmt: skip
    setup = _helpers(code, sources, _called(" ".join(calls.values())))
    shared = {n for n, source in sources.items()
              if _SHARED.fullmatch(n) and "testing." not in source}  # fmt: skip
    return CallMap(
        calls=calls,
        messages=False,
        restated=restated,
        setup=setup,
        package_source=_helpers(code, sources, shared),
    )


def _helpers(code: str, functions: Mapping[str, str], wanted: set[str]) -> str:
    """Of the test files' `functions` (name -> source), those `wanted` and those they call
    in turn, after the packages they import: the track's code, never the model's."""
    found: dict[str, str] = {}
    while todo := [name for name in wanted if name in functions and name not in found]:
        for name in todo:
            found[name] = functions[name]
            wanted |= _called(found[name])
    body = "\n\n".join(found.values())
    imports = [
        f"import {path}\n"
        for path, name in dict.fromkeys(_IMPORT.findall(code))
        if re.search(rf"(?<![\w.]){name}\.", body)
    ]
    return "".join(imports) + body


def _called(source: str) -> set[str]:
    """The names `source` calls (a package's own functions, not a selector's)."""
    return set(_CALLED.findall(blank(source, GO_LEXEMES)))


def _structs(code: str, clear: str) -> dict[str, Fields]:
    """The struct types the test files declare (`clear`: `code` with its literals and
    comments blank): name -> fields."""
    return {
        match[1]: struct_fields(code[match.end() : block_end(clear, match.end()) - 1])
        for match in _TYPE.finditer(clear)
    }


def _loops(code: str, clear: str) -> dict[str, tuple[str, str]]:
    """Per table a test ranges over (its first loop), the loop's variable and body."""
    found: dict[str, tuple[str, str]] = {}
    for match in _LOOP.finditer(clear):
        body = code[match.end() : block_end(clear, match.end()) - 1]
        found.setdefault(match[2], (match[1], body))
    return found


def _table(code: str, clear: str, name: str, structs: Mapping[str, Fields]) -> Table | None:
    """The top-level `var name = []T{...}` of rows of a struct, where it reads as data."""
    match = next((m for m in _VAR.finditer(clear) if m[1] == name), None)
    if match is None:
        return None
    reader = LiteralReader(code, match.end(), structs)
    try:
        kind = reader.kind()
        fields = reader.fields_of(kind.removeprefix("[]"))
        rows = reader.composite(kind)
    except (Unreadable, IndexError):
        return None
    if not kind.startswith("[]") or fields is None or not isinstance(rows, list):
        return None
    # A field a row leaves out is its type's zero value, as Go gives it.
    return Table(
        fields, [{f: row.get(f, zero_value(k)) for f, k in fields.items()} for row in rows]
    )


def _name(prop: str) -> str:
    return prop[:1].upper() + prop[1:]


def _call(
    body: str,
    loop: str,
    table: Table,
    structs: Mapping[str, Fields],
    functions: Sequence[str],
    argument: Callable[[str, str], str],
) -> tuple[str, str, str] | str:
    """The driver's call of the loop's first call of the package's (the row's fields as
    inputs), the field that is its answer, and the one that says it fails (or "")."""
    clear = blank(body, GO_LEXEMES)
    inputs = [f for f in table.fields if f != DESCRIPTION and f not in _answers(table)]
    for match in _CALL.finditer(clear):
        if match[1] not in functions:
            continue
        end = _chained(clear, block_end(clear, match.end(), "(", ")"))
        given = body[match.end() : end] + _read_back(clear, match.start(), end, loop)
        if f"{loop}." not in given and (given.strip(" ()") or inputs):
            continue  # a call of no arguments only where the rows give no inputs
        field = re.compile(rf"(?<![\w.]){loop}\.(\w+(?:\.\w+)*)")
        used = {path.split(".")[0] for path in field.findall(given)}
        arguments = field.sub(
            lambda found: argument(found[1], _kind(found[1].split("."), table.fields, structs)),
            given,
        )
        # The package's own functions in an argument are the driver's `kata.` ones
        # (run-length-encoding's `RunLengthDecode(RunLengthEncode(tc.input))`).
        arguments = re.sub(rf"(?<![\w.])({'|'.join(map(re.escape, functions))})\s*\(",
                           r"kata.\1(", arguments) if functions else arguments  # fmt: skip
        rest = [f for f in table.fields if f not in used and f != DESCRIPTION]
        failing = [f for f in rest if _says_failure(f, table.fields[f])]
        answers = [f for f in rest if f not in failing]
        if len(answers) != 1 or len(failing) > 1:
            return f"its rows give {', '.join(rest) or 'nothing'} besides the call's inputs"
        return f"kata.{match[1]}({arguments}", answers[0], "".join(failing)
    return "no test calls a function of the stub with a row's fields"


def _chained(clear: str, at: int) -> int:
    """Past the methods called on a call's result in the same expression (clock's
    `New(tc.h, tc.m).Add(tc.addedValue)`)."""
    while method := _METHOD.match(clear, at):
        at = block_end(clear, method.end(), "(", ")")
    return at


def _read_back(clear: str, start: int, end: int, loop: str) -> str:
    """The method of no arguments by which the test compares the result it binds to a name
    with a row's field (clock's `actual := New(...)`, then `tc.expected !=
    actual.String()`): so the driver reads it."""
    bound = _BOUND.search(clear[:start])
    if bound is None:
        return ""
    read = rf"{bound[1]}\s*\.\s*([A-Z]\w*)\s*\(\s*\)"
    row = rf"{loop}\.\w+"
    compared = re.search(
        rf"(?<![\w.])(?:{read}\s*[!=]=\s*{row}|{row}\s*[!=]=\s*{read})", clear[end:]
    )
    return f".{compared[1] or compared[2]}()" if compared else ""


def _answers(table: Table) -> list[str]:
    """The fields that can only be a row's answer or its error (by their names)."""
    return [f for f in table.fields if re.match(r"(?:expected|want)", f) or _named_failure(f)]


def _named_failure(field: str) -> bool:
    return _ERROR.search(field) is not None or _OK.search(field) is not None


def _says_failure(field: str, kind: str) -> bool:
    """Whether a row's field says its call fails (`_FLAGS`, `_OK`)."""
    if _OK.search(field):
        return kind == "bool"
    return _ERROR.search(field) is not None and kind in _FLAGS


def _kind(path: list[str], fields: Fields, structs: Mapping[str, Fields]) -> str:
    """The type of the field `path` names, into structs the test files declare."""
    kind = ""
    for part in path:
        kind = fields.get(part, "")
        fields = structs.get(kind, {})
    return kind
