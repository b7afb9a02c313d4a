"""C++ literals read as data on the host, without compiling anything, as the C++ driver
reports the same values: strings (`"a"`, `std::string("a")`, adjacent ones joined) and
characters as text, numbers (a suffix or `'` in them), `true`, `false`; brace lists and
`std::vector<T>{...}` (or `std::array`, `std::set`: in any order) as lists, a map's list of
pairs as a map where its declared type says so; and names whose values are known. Anything
else (a call of the code's, an object of its types) is no literal."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

NO = object()
"""No literal: what `read_literal` reads of anything else."""


class SetLiteral(list[Any]):
    """A set the test writes, kept as the list the answer reads as: any order."""


_SPACE = re.compile(r"(?:\s+|//[^\n]*|/\*.*?\*/)*", re.DOTALL)
_NUMBER = re.compile(r"-?(?:0[xX][0-9a-fA-F']+|\d[\d']*(?:\.\d[\d']*)?(?:[eE][-+]?\d+)?)[uUlLfF]*")
_TYPE = re.compile(
    r"(?:std::)?(vector|array|set|unordered_set|string|map|unordered_map)\s*(?:<[^{}()]*>)?\s*"
)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", "'": "'", '"': '"', "?": "?"}
_WORDS: dict[str, Any] = {"true": True, "false": False, "nullptr": None}


class _NotLiteral(Exception):
    pass


def read_literal(text: str, names: Mapping[str, Any] | None = None, declared: str = "") -> Any:
    """The value `text` writes as one C++ literal, or `NO`; a name in it reads as its value
    in `names`; `declared` is the type a declaration gives it (a map's pairs read so)."""
    reader = _Reader(text, names or {})
    try:
        value = reader.value()
        reader.space()
    except (_NotLiteral, IndexError, ValueError):
        return NO
    if reader.at != len(text):
        return NO
    if re.search(r"\bmap\s*<", declared) and isinstance(value, list):
        pairs = [item for item in value if isinstance(item, list) and len(item) == 2]
        return {str(k): v for k, v in pairs} if len(pairs) == len(value) else NO
    if re.search(r"\bset\s*<", declared) and isinstance(value, list):
        return SetLiteral(value)
    return value


class _Reader:
    def __init__(self, text: str, names: Mapping[str, Any]) -> None:
        self.text, self.at, self.names = text, 0, names

    def space(self) -> None:
        match = _SPACE.match(self.text, self.at)
        self.at = match.end() if match else self.at

    def skip(self, token: str) -> bool:
        self.space()
        if self.text.startswith(token, self.at):
            self.at += len(token)
            return True
        return False

    def value(self) -> Any:
        self.space()
        text, at = self.text, self.at
        if text[at] == '"':
            out = ""
            while self.skip('"'):
                self.at -= 1
                out += self.string('"')
            return out
        if text[at] == "'":
            return self.string("'")
        if text[at] == "{":
            return self.items("{", "}")
        if kind := _TYPE.match(text, at):
            self.at = kind.end()
            opening = "(" if kind[1] == "string" else "{"
            items = self.items(opening, ")" if opening == "(" else "}")
            if kind[1] == "string":
                return items[0] if len(items) == 1 and isinstance(items[0], str) else _fail()
            return SetLiteral(items) if "set" in kind[1] else items
        if (number := _NUMBER.match(text, at)) and number.group():
            self.at = number.end()
            return _number(number.group())
        if name := re.compile(r"[A-Za-z_]\w*").match(text, at):
            self.at = name.end()
            known = {**self.names, **_WORDS}
            if name.group() in known:
                return known[name.group()]
        raise _NotLiteral

    def items(self, opening: str, closing: str) -> list[Any]:
        if not self.skip(opening):
            raise _NotLiteral
        out: list[Any] = []
        while not self.skip(closing):
            out.append(self.value())
            if not self.skip(","):
                self.space()
                if not self.text.startswith(closing, self.at):
                    raise _NotLiteral
        return out

    def string(self, quote: str) -> str:
        out: list[str] = []
        at = self.at + 1
        while self.text[at] != quote:
            if self.text[at] == "\\":
                out.append(_ESCAPES[self.text[at + 1]])
                at += 2
                continue
            out.append(self.text[at])
            at += 1
        self.at = at + 1
        return "".join(out)


def _fail() -> Any:
    raise _NotLiteral


def _number(text: str) -> int | float:
    digits = text.replace("'", "")
    if digits.lstrip("-").lower().startswith("0x"):
        return int(digits.rstrip("uUlL"), 16)
    plain = digits.rstrip("uUlLfF")
    if re.search(r"[.eE]", plain) or text[-1:] in "fF":
        return float(plain)
    return int(plain)
