"""Calls read off Exercism's C++ track, for a data suite. Its stubs declare a namespace and
nothing in it, so the calls come from the track's tests: a function of the namespace they
call (`all_your_base::convert(2, digits, 10)`), or an object of it they make and use
(`crypto_square::cipher("A").normalized_cipher_text()`), given the inputs in the canonical
order. A list input converts to whatever sequence the function takes, a string to its text
or its one character (`driver.cpp`'s `tdd_acceptance::list` and `text`). The reference's
proof confirms the call, or the track's tests judge.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath

from tdd_sandbox.languages.cpp.reader import CPP_LEXEMES, cpp_text
from tdd_sandbox.languages.cpp.scripts import derive_cpp_scripts
from tdd_sandbox.languages.deriving import (
    Source,
    Use,
    arguments_at,
    choose_functions,
    choose_uses,
)
from tdd_sandbox.languages.kinds import argument_texts, arranged, literal_kind
from tdd_sandbox.languages.lexing import blank
from tdd_sandbox.languages.members import valued_uses
from tdd_sandbox.languages.naming import snake_case
from tdd_sandbox.vocabulary.cases import CallMap, Case

_NAMESPACE = re.compile(r"\bnamespace\s+(\w+)")
_CALLED = re.compile(r"(?<![\w:])(\w+)::(\w+)\s*([({])")
_BOUND = re.compile(r"(?<![\w:])(?P<space>\w+)::(?P<made>\w+)\s+(?P<name>\w+)\s*[({]")
_ASSIGNED = re.compile(
    r"(?<![\w:])(?:\w+::\w+|auto)\s+(?P<name>\w+)\s*=\s*(?P<space>\w+)::(?P<made>\w+)\s*\("
)
_MEMBER = re.compile(r"\s*\.\s*(\w+)(\s*\()?")
_SUFFIXES = (".h", ".hpp")
_SET = re.compile(r"\bstd::(?:unordered_)?set\s*<")
_REGISTERED = re.compile(r"\bCATCH_REGISTER_ENUM\s*\(([\w:,\s]*)\)")


def derive_cpp_calls(
    cases: Sequence[Case], stub: Mapping[str, bytes], tests: Mapping[str, bytes]
) -> CallMap | str:
    """The call mapping, or why there is none."""
    headers = sorted(p for p in stub if len(PurePosixPath(p).parts) == 1 and p.endswith(_SUFFIXES))
    spaces = {name for p in headers for name in _NAMESPACE.findall(_code(stub[p]).code)} - {"std"}
    if not spaces:
        return "the stub declares no namespace whose calls the track's tests show"
    source = _code(b"\n".join(tests.values()))
    functions, uses = _calls(source, spaces)
    setup = "\n".join([*(f'#include "{path}"' for path in headers), *_named(source)])
    if scripted := derive_cpp_scripts(cases, source, spaces, setup, _names):
        return scripted
    single = {name: arity for name, arity in functions.items() if arity is not None}
    chosen = choose_functions(
        cases, {name: [f"_{k}" for k in range(arity)] for name, arity in single.items()},
        lambda prop: [f"{space}::{n}" for space in sorted(spaces) for n in _names(prop)],
    )  # fmt: skip
    if not isinstance(chosen, str):
        calls = {
            prop: f"{call.function}({', '.join(_inputs(cases, prop))})"
            for prop, call in chosen.items()
        }
        return CallMap(setup=setup, calls=calls)
    picked = choose_uses(cases, uses, _names)
    if isinstance(picked, str):
        # A member named by an input's value (space-age's `age.on_earth()`).
        picked = valued_uses(cases, uses) or picked
    if isinstance(picked, str):
        return chosen
    calls = {}
    for prop, use in picked.items():
        example = next(case.input for case in cases if case.property == prop)
        placed = dict(zip(example, _inputs(cases, prop), strict=True))
        # An input that names the member (`${planet|name}`) is no argument.
        given = {name: text for name, text in placed.items() if f"${{{name}|" not in use.member}
        order = arranged({name: example[name] for name in given}, use.kinds)
        calls[prop] = use.spelled([given[name] for name in order])
    unordered = {prop for prop, use in picked.items() if _as_set(source.text, f".{use.member}(")}
    return CallMap(setup=setup, calls=calls, unordered=frozenset(unordered))


def _calls(source: Source, spaces: set[str]) -> tuple[dict[str, int | None], set[Use]]:
    """The namespaces' functions the tests call, with the one arity they call each with
    (None: several), and the objects of the namespaces the tests make and use: in the
    expression (`ns::cipher(text).size()`) or bound to a name, made (`ns::clock c(8, 0);`)
    or returned (`ns::Solution s = ns::solve();`: the result's members)."""
    functions: dict[str, int | None] = {}
    makers: set[str] = set()  # what the tests call a member of is no function of data
    uses: set[Use] = set()
    code = source.code
    for match in _CALLED.finditer(code):
        if match[1] not in spaces:
            continue
        count, end = arguments_at(source, match.end())
        if count is None:
            continue
        name = f"{match[1]}::{match[2]}"
        if member := _MEMBER.match(code, end):
            uses.add(_use(source, name, count, member, _kinds(source, match.end(), end)))
            makers.add(name)
        elif match[3] == "(":
            functions[name] = count if functions.get(name, count) == count else None
    # A name bound to what the tests make (`ns::clock c(8, 0);`) or to what a function
    # returns (`ns::Solution s = ns::solve();`), then its members used.
    for match in (*_BOUND.finditer(code), *_ASSIGNED.finditer(code)):
        if match["space"] not in spaces:
            continue
        count, end = arguments_at(source, match.end())
        if count is None:
            continue
        owner = f"{match['space']}::{match['made']}"
        made = _kinds(source, match.end(), end)
        for member in re.finditer(rf"(?<![\w.]){match['name']}{_MEMBER.pattern}", code):
            uses.add(_use(source, owner, count, member, made))
    return {n: a for n, a in functions.items() if n not in makers}, uses


def _as_set(tests: str, called: str) -> bool:
    """Whether a test that calls `called` compares its answer with a set it declares
    (allergies' `std::unordered_set<std::string> expected`): the order is not the answer."""
    return any(called in test and _SET.search(test) for test in tests.split("TEST_CASE(")[1:])


def _named(source: Source) -> list[str]:
    """The names of the enumerations the tests register with Catch2 to print them
    (`CATCH_REGISTER_ENUM(ns::Plants, ns::Plants::clover, ...)`), for the driver to read
    their constants as the data spells them: the name in lower case, words apart."""
    named = []
    for match in _REGISTERED.finditer(source.code):
        kind, *constants = [item.strip() for item in match[1].split(",")]
        if not constants or not all(re.fullmatch(r"\w+(::\w+)*", i) for i in (kind, *constants)):
            continue
        arms = "".join(
            f'    if (value == ::{c}) return "{c.rsplit("::", 1)[-1].lower().replace("_", " ")}";\n'
            for c in constants
        )
        named.append(
            f"namespace tdd_acceptance {{\ntemplate <>\nstruct Names<::{kind}> {{\n"
            f"  static constexpr bool known = true;\n  static const char* of(::{kind} value) {{\n"
            f"{arms}    return nullptr;\n  }}\n}};\n}}  // namespace tdd_acceptance"
        )
    return named


def _use(
    source: Source, owner: str, count: int, member: re.Match[str], made: tuple[str | None, ...]
) -> Use:
    given, end = arguments_at(source, member.end()) if member[2] else (None, member.end())
    kinds = made + (_kinds(source, member.end(), end) if given else ())
    return Use(owner, count, member[1], given, kinds=kinds)


def _kinds(source: Source, start: int, end: int) -> tuple[str | None, ...]:
    """The kinds of the arguments between `start` and the `)` before `end` (`kinds`)."""
    return tuple(literal_kind(text) for text in argument_texts(source, start, end) if text)


def _inputs(cases: Sequence[Case], prop: str) -> list[str]:
    """The property's inputs as placeholders, a list converted to the sequence the call
    takes and a string to the text or character it takes."""
    example = next(case.input for case in cases if case.property == prop)
    placed = []
    for name, value in example.items():
        helper = "list" if isinstance(value, list) else "text" if isinstance(value, str) else ""
        placed.append(f"tdd_acceptance::{helper}(${{{name}}})" if helper else f"${{{name}}}")
    return placed


def _names(prop: str) -> list[str]:
    """How the C++ track spells a property: snake_case (`isValid` -> `is_valid`)."""
    return list(dict.fromkeys((snake_case(prop), prop)))


def _code(data: bytes) -> Source:
    text = cpp_text(data.decode("utf-8", "replace"))
    return Source(blank(text, CPP_LEXEMES), text)
