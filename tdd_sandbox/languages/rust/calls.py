"""Calls read off Exercism's Rust track, for a data suite: each canonical property is the
crate's public function of its snake_case name (`src/lib.rs`), or, for a kata of one property,
its one public function; the crate is named as its manifest names it. An argument is passed as
the parameter's type wants it: a slice borrowed (`&${rolls}`), a `String` owned, lines the
data lists joined where the function takes one text. An `Err` of the crate's own type that
has no `Display` is read by its `Debug` form (the driver reads errors by their `Display`)."""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from collections.abc import Mapping, Sequence

from tdd_sandbox.languages.deriving import (
    Source,
    arguments_at,
    choose_functions,
    is_rows,
    most_said,
    split_parameters,
)
from tdd_sandbox.languages.kinds import argument_texts
from tdd_sandbox.languages.naming import snake_case
from tdd_sandbox.languages.rust.fitting import choose_by_types, shown_from
from tdd_sandbox.languages.rust.folds import derive_rust_folds
from tdd_sandbox.languages.rust.reader import rust_code
from tdd_sandbox.languages.rust.scripts import derive_rust_scripts
from tdd_sandbox.languages.rust.types import (
    DATETIME_SETUP,
    datetime_names,
    read_types,
    return_types,
)
from tdd_sandbox.languages.rust.uses import derive_rust_uses
from tdd_sandbox.vocabulary.cases import CallMap, Case

_PUB_FN = re.compile(
    r"^pub\s+fn\s+(\w+)\s*(?:<[^>]*>)?\s*\(([^)]*)\)\s*(?:->\s*([^{;]+))?", re.MULTILINE
)
_OWN_TYPE = re.compile(r"^pub\s+(?:enum|struct)\s+(\w+)", re.MULTILINE)
_DISPLAYED = re.compile(r"\bimpl\b[^{]*\bDisplay\s+for\s+(\w+)")
_SET = re.compile(
    r"collect::<\s*(?:std::collections::)?(?:HashSet|BTreeSet)\b|\.sort(?:_unstable)?\("
)
_ERR_TYPE = re.compile(r"^Result\s*<.*,\s*(\w+)\s*>$", re.DOTALL)
_LITERAL = re.compile(
    r"-?\d[\d_]*(?:\.\d+)?(?:[iuf](?:8|16|32|64|128|size))?|true|false|'(?:[^'\\]|\\.)'"
    r'|"(?:[^"\\]|\\.)*"'
)


def derive_rust_calls(
    cases: Sequence[Case], stub: Mapping[str, bytes], tests: Mapping[str, bytes]
) -> CallMap | str:
    """The call mapping, or why there is none (the reference's proof confirms it)."""
    crate = _crate(stub.get("Cargo.toml", b""))
    code, _ = rust_code(stub.get("src/lib.rs", b"").decode("utf-8", "replace"))
    functions: dict[str, list[tuple[str, str]]] = {}
    returns: dict[str, str] = {}
    read_returned = return_types(code)
    for match in _PUB_FN.finditer(code):
        functions[match[1]] = [_param(p) for p in split_parameters(match[2])]
        returns[match[1]] = read_returned(match[3] or "")
    undisplayed = set(_OWN_TYPE.findall(code)) - set(_DISPLAYED.findall(code))
    types = read_types(code, [v for c in cases for v in (c.input, c.expected)])
    times = datetime_names(code)
    declared = {name: [n for n, _ in params] for name, params in functions.items()}
    tests_read = [(t.decode("utf-8", "replace"), rust_code(t.decode("utf-8", "replace"))[0])
                  for t in tests.values()]  # fmt: skip
    fixed = {name: _fixed(name, tests_read) for name in functions}
    chosen = choose_functions(cases, declared, _names, fixed=fixed)
    if isinstance(chosen, str) and (typed := choose_by_types(cases, functions, returns)):
        chosen = typed  # no name says it, the types do (variable-length-quantity)
    if isinstance(chosen, str) and (shown := shown_from(cases, code, crate)):
        return CallMap(calls=shown)
    if isinstance(chosen, str):
        values = {key: [c.input.get(key) for c in cases] for c in cases for key in c.input}

        def argument(name: str, kind: str) -> str:
            own = types.argument("${" + name + "}", kind, crate)
            return own or _argument(name, kind, values[name])

        def readable(call: str, returns: str) -> str:
            return _readable(call, returns, undisplayed)

        return (
            derive_rust_scripts(cases, code, crate, _names, argument, readable)
            or derive_rust_folds(cases, code, crate, _names, argument, readable)
            or derive_rust_uses(
                cases, code, tests_read, crate, _names, argument, readable, types.readers
            )
            or chosen
        )
    calls = {}
    for prop, call in chosen.items():
        kinds = [kind for _, kind in functions[call.function]][: len(call.arguments)]
        given = [case.input for case in cases if case.property == prop]
        arguments = [
            types.argument("${" + name + "}", kind, crate)
            or _datetime(name, kind, times)
            or _argument(name, kind, [inputs.get(name) for inputs in given])
            for name, kind in zip(call.arguments, kinds, strict=True)
        ] + list(call.constants)
        called = f"{crate}::{call.function}({', '.join(arguments)})"
        calls[prop] = _readable(called, returns[call.function], undisplayed)
    returned = [returns[call.function] for call in chosen.values()]
    signatures = [*returned, *(k for c in chosen.values() for _, k in functions[c.function])]
    uses_time = any(_named(name, kind) for kind in signatures for name in times)
    test_code = "\n".join(code for _, code in tests_read)
    unordered = {prop for prop, call in chosen.items() if _unordered(call.function, test_code)}
    setup = types.readers(crate, returned) + (DATETIME_SETUP if uses_time else "")
    return CallMap(setup=setup, calls=calls, unordered=frozenset(unordered))


def _fixed(function: str, tests: Sequence[tuple[str, str]]) -> tuple[str, ...]:
    """What the calls of `function` in the tests (text, code) pass last, where each of those
    last arguments is a literal in every call and one literal in most: the value an answer
    must not depend on, that the track's own cases pass (parallel-letter-frequency asks for
    4 workers, and for 1 and 3 in two tests of its own). None where the calls pass
    different numbers of arguments."""
    calls: list[list[str]] = []
    for text, code in tests:
        for match in re.finditer(rf"(?<![\w.]){function}\s*\(", code):
            count, end = arguments_at(Source(code, text), match.end())
            if count is None:
                return ()
            calls.append(argument_texts(Source(code, text), match.end(), end))
    if not calls or len({len(call) for call in calls}) > 1:
        return ()
    tail: list[str] = []
    for position in range(len(calls[0]) - 1, -1, -1):
        said = Counter(call[position] for call in calls)
        most = most_said(said)
        if most is None or not all(_LITERAL.fullmatch(text) for text in said):
            break
        tail.insert(0, most)
    return tuple(tail)


def _readable(call: str, returns: str, undisplayed: set[str]) -> str:
    """`call`, its `Err` of one of the crate's `undisplayed` types read by its `Debug` form
    (the driver reads errors by their `Display`)."""
    error = _ERR_TYPE.match(returns)
    if error and error[1] in undisplayed:
        return call + '.map_err(|e| format!("{e:?}"))'
    return call


def _named(name: str, kind: str) -> bool:
    return re.search(rf"(?<![\w:]){re.escape(name)}\b", kind) is not None


def _datetime(name: str, kind: str, times: set[str]) -> str | None:
    """A date-time parameter given the data's ISO text, made by the driver's helper."""
    if kind.replace(" ", "").removeprefix("&") in times:
        made = "tdd_datetime(${" + name + "})"
        return "&" + made if kind.strip().startswith("&") else made
    return None


def _unordered(function: str, tests: str) -> bool:
    """Whether the tests take `function`'s answer in any order: collected into a set on the
    line that calls it, or sorted once bound to a name there (`let mut got = f(x);` then
    `got.sort();`)."""
    for line in tests.splitlines():
        if not re.search(rf"(?<![\w.]){function}\s*\(", line):
            continue
        if _SET.search(line):
            return True
        bound = re.match(r"\s*let\s+(?:mut\s+)?(\w+)", line)
        if bound and re.search(rf"\b{bound[1]}\s*\.\s*sort(?:_unstable)?\s*\(", tests):
            return True
    return False


def _argument(name: str, kind: str, values: Sequence[object]) -> str:
    """The placeholder of input `name` as a parameter of type `kind` takes it, given the
    values the cases pass (a field's, `key.a`, is not among them: None)."""
    placeholder = "${" + name + "}"
    compact = kind.replace(" ", "")
    if values and all(is_rows(v) for v in values) and compact in ("&str", "String", "&String"):
        lines = "${" + name + "|lines}"
        return lines + ".to_string()" if compact == "String" else lines
    if compact.startswith(("&[", "&Vec")):
        return "&" + placeholder
    if compact == "String":
        return placeholder + ".to_string()"
    return placeholder


def _param(text: str) -> tuple[str, str]:
    """`mut year: u64` -> (year, u64)."""
    name, _, kind = text.partition(":")
    return name.replace("mut ", "").strip(), kind.strip()


def _crate(manifest: bytes) -> str:
    """The crate's name as code writes it (`all-your-base` -> `all_your_base`)."""
    try:
        name = str(tomllib.loads(manifest.decode("utf-8", "replace"))["package"]["name"])
    except (tomllib.TOMLDecodeError, KeyError, TypeError):
        name = "kata"
    return name.replace("-", "_")


def _names(prop: str) -> list[str]:
    """How the Rust track spells a property: snake_case."""
    return [snake_case(prop)]
