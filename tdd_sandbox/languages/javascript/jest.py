"""A Jest spec's structure, read on the host without running it: its tests with the
statements each runs (those of the `describe` blocks around it, their `beforeEach` bodies,
then its own), and the declarations and imports of the file around them
(`transcripts`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tdd_sandbox.languages.javascript.reader import read_javascript
from tdd_sandbox.languages.lexing import bracket_end, statement_spans

_CALL = re.compile(
    r"(?P<kind>describe|xdescribe|test|xtest|it|xit|beforeEach)"
    r"(?P<modifier>\s*\.\s*(?:skip|only|each|todo))?\s*\("
)
_FUNCTION = r"\s*(?:async\s*)?(?:function\s*\w*\s*)?\(\s*\)\s*(?:=>\s*)?\{"
"""A function of no parameters, up to its body's opening brace."""
_NAMED_BODY = re.compile(r"\s*,\s*" + _FUNCTION.removeprefix(r"\s*"))
_BODY = re.compile(_FUNCTION)
_DECLARED = re.compile(
    r"(?:async\s+)?(?:function\s*\*?\s*|const\s+|let\s+|var\s+|class\s+)([A-Za-z_$][\w$]*)"
)


class SpecUnreadable(Exception):
    """Why a spec's structure cannot be read."""


@dataclass(frozen=True)
class SpecTest:
    """One test of a spec: its name, its describes' names, and what it runs in order."""

    name: str
    groups: tuple[str, ...]
    before: tuple[str, ...]
    """The statements of its describe blocks and their `beforeEach` bodies."""
    body: tuple[str, ...]


@dataclass
class Spec:
    """A spec file: its imports, its file-level declarations by name, and its tests."""

    imports: list[str] = field(default_factory=list)
    declared: dict[str, str] = field(default_factory=dict)
    tests: list[SpecTest] = field(default_factory=list)


def read_spec(text: str) -> Spec:
    """The spec's structure.

    Raises:
        SpecUnreadable: a test made in a way the reading does not follow (`test.each`, a
            name that is no literal, a body that is no function).
    """
    code = read_javascript(text).code
    spec = Spec()
    for start, end in statements(code, 0, len(code)):
        said = text[start:end].strip()
        if said.startswith("import "):
            spec.imports.append(said)
        elif (match := _CALL.match(code, start)) and match.start() == start:
            _read_call(text, code, match, (), (), spec)
        elif declared := _DECLARED.match(said):
            spec.declared[declared[1]] = said
    return spec


def _read_call(
    text: str, code: str, match: re.Match[str], groups: tuple[str, ...],
    before: tuple[str, ...], spec: Spec,
) -> tuple[str, ...]:  # fmt: skip
    """Read one `describe`, test or `beforeEach` call; the statements it adds before the
    tests after it (a `beforeEach`'s body)."""
    if match["modifier"] and "each" in match["modifier"]:
        raise SpecUnreadable(f"a parametrised {match['kind']}.each")
    at = match.end()
    name = ""
    if match["kind"] != "beforeEach":
        quoted = re.match(r"\s*(['\"`])((?:\\.|(?!\1).)*)\1", text[at:], re.DOTALL)
        if quoted is None or "${" in quoted[2]:
            raise SpecUnreadable(f"a {match['kind']} whose name is no literal")
        name, at = quoted[2], at + quoted.end()
    head = (_BODY if match["kind"] == "beforeEach" else _NAMED_BODY).match(code, at)
    if head is None:
        raise SpecUnreadable(f"the {match['kind']} {name!r} runs no function of no parameters")
    opening = head.end() - 1
    closing = _closing(code, opening)
    inner = statements(code, opening + 1, closing)
    if match["kind"] == "beforeEach":
        return tuple(text[s:e].strip() for s, e in inner)
    if match["kind"] in ("describe", "xdescribe"):
        here = before
        for start, end in inner:
            call = _CALL.match(code, start)
            if call:
                here += _read_call(text, code, call, (*groups, name), here, spec)
            else:
                here += (text[start:end].strip(),)
        return ()
    body = tuple(text[s:e].strip() for s, e in inner)
    spec.tests.append(SpecTest(name, groups, before, body))
    return ()


def _closing(code: str, opening: int) -> int:
    closing = bracket_end(code, opening)
    if closing < 0:
        raise SpecUnreadable("a block that does not close")
    return closing


def statements(code: str, start: int, end: int) -> list[tuple[int, int]]:
    """`statement_spans`, or `SpecUnreadable` where the brackets do not balance."""
    try:
        return statement_spans(code, start, end, newlines=True)
    except ValueError as exc:
        raise SpecUnreadable(str(exc)) from None
