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

from tdd_sandbox.languages.literal_reader import NO, LiteralReader, NotLiteral, SetLiteral

_NUMBER = re.compile(r"-?(?:0[xX][0-9a-fA-F']+|\d[\d']*(?:\.\d[\d']*)?(?:[eE][-+]?\d+)?)[uUlLfF]*")
_TYPE = re.compile(
    r"(?:std::)?(vector|array|set|unordered_set|string|map|unordered_map)\s*(?:<[^{}()]*>)?\s*"
)
_WORDS: dict[str, Any] = {"true": True, "false": False, "nullptr": None}


def read_literal(text: str, names: Mapping[str, Any] | None = None, declared: str = "") -> Any:
    """The value `text` writes as one C++ literal, or `NO`; a name in it reads as its value
    in `names`; `declared` is the type a declaration gives it (a map's pairs read so)."""
    value = _Reader(text, names or {}).read()
    if value is NO:
        return NO
    if re.search(r"\bmap\s*<", declared) and isinstance(value, list):
        pairs = [item for item in value if isinstance(item, list) and len(item) == 2]
        return {str(k): v for k, v in pairs} if len(pairs) == len(value) else NO
    if re.search(r"\bset\s*<", declared) and isinstance(value, list):
        return SetLiteral(value)
    return value


class _Reader(LiteralReader):
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
            return _WORDS[name.group()] if name.group() in _WORDS else self.known(name.group())
        raise NotLiteral


def _fail() -> Any:
    raise NotLiteral


def _number(text: str) -> int | float:
    digits = text.replace("'", "")
    if digits.lstrip("-").lower().startswith("0x"):
        return int(digits.rstrip("uUlL"), 16)
    plain = digits.rstrip("uUlLfF")
    if re.search(r"[.eE]", plain) or text[-1:] in "fF":
        return float(plain)
    return int(plain)
