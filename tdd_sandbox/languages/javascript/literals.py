"""JavaScript literals read as data on the host, without running anything: strings (a
template literal without `${`), numbers, `true`, `false`, `null`, `undefined`, arrays and
object literals whose keys are names, strings or numbers, and names whose values are known.
Anything else (another name, a call, a spread) is no literal."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

NO = object()
"""No literal: what `read_literal` reads of anything else."""

_NUMBER = re.compile(r"-?(?:0[xX][0-9a-fA-F_]+|(?:\d[\d_]*)?\.?\d[\d_]*(?:[eE][-+]?\d+)?)")
_NAME = re.compile(r"[A-Za-z_$][\w$]*")
_SPACE = re.compile(r"(?:\s+|//[^\n]*|/\*.*?\*/)*", re.DOTALL)
_UNICODE = re.compile(r"u\{([0-9a-fA-F]+)\}|u([0-9a-fA-F]{4})")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
_WORDS: dict[str, Any] = {"true": True, "false": False, "null": None, "undefined": None}


class _NotLiteral(Exception):
    pass


def read_literal(text: str, names: Mapping[str, Any] | None = None) -> Any:
    """The value `text` writes as one JavaScript literal, or `NO`; a name in it reads as
    its value in `names` (`{ users: expectedUsers }`)."""
    reader = _Reader(text, names or {})
    try:
        value = reader.value()
        reader.space()
    except _NotLiteral:
        return NO
    return value if reader.at == len(text) else NO


class _Reader:
    def __init__(self, text: str, names: Mapping[str, Any]) -> None:
        self.text, self.at, self.names = text, 0, names

    def space(self) -> None:
        match = _SPACE.match(self.text, self.at)
        self.at = match.end() if match else self.at

    def value(self) -> Any:
        self.space()
        char = self.text[self.at : self.at + 1]
        if char in ("'", '"', "`"):
            return self.string(char)
        if char == "[":
            return self.items()
        if char == "{":
            return self.fields()
        if (match := _NUMBER.match(self.text, self.at)) and match.group():
            self.at = match.end()
            return _number(match.group())
        if name := _NAME.match(self.text, self.at):
            known = {**self.names, **_WORDS}
            if name.group() in known:
                self.at = name.end()
                return known[name.group()]
        raise _NotLiteral

    def string(self, quote: str) -> str:
        out: list[str] = []
        at = self.at + 1
        while at < len(self.text):
            char = self.text[at]
            if char == quote:
                self.at = at + 1
                return "".join(out)
            if quote == "`" and self.text.startswith("${", at):
                raise _NotLiteral
            if char == "\n" and quote != "`":
                raise _NotLiteral
            if char == "\\":
                at += 1
                out.append(self.escape(at))
                at = self.at
                continue
            out.append(char)
            at += 1
        raise _NotLiteral

    def escape(self, at: int) -> str:
        """The character an escape after its backslash at `at` writes; `at` moved past it."""
        char = self.text[at : at + 1]
        if char == "u" and (match := _UNICODE.match(self.text, at)):
            self.at = match.end()
            return chr(int(match[1] or match[2], 16))
        if char == "x" and re.fullmatch(r"[0-9a-fA-F]{2}", self.text[at + 1 : at + 3]):
            self.at = at + 3
            return chr(int(self.text[at + 1 : at + 3], 16))
        if char == "\n":
            self.at = at + 1
            return ""
        self.at = at + 1
        return _ESCAPES.get(char, char)

    def items(self) -> list[Any]:
        self.at += 1
        out: list[Any] = []
        while True:
            self.space()
            if self.text.startswith("]", self.at):
                self.at += 1
                return out
            if self.text.startswith(("...", ","), self.at):
                raise _NotLiteral  # a spread, or a hole
            out.append(self.value())
            self.separator("]")

    def fields(self) -> dict[str, Any]:
        self.at += 1
        out: dict[str, Any] = {}
        while True:
            self.space()
            if self.text.startswith("}", self.at):
                self.at += 1
                return out
            key = self.key()
            self.space()
            if not self.text.startswith(":", self.at):
                raise _NotLiteral  # shorthand, a method, a computed key
            self.at += 1
            out[key] = self.value()
            self.separator("}")

    def key(self) -> str:
        char = self.text[self.at : self.at + 1]
        if char in ("'", '"'):
            return self.string(char)
        if match := _NAME.match(self.text, self.at):
            self.at = match.end()
            return match.group()
        if (match := _NUMBER.match(self.text, self.at)) and match.group():
            self.at = match.end()
            return str(_number(match.group()))
        raise _NotLiteral

    def separator(self, closing: str) -> None:
        self.space()
        if self.text.startswith(",", self.at):
            self.at += 1
        elif not self.text.startswith(closing, self.at):
            raise _NotLiteral


def _number(text: str) -> int | float:
    plain = text.replace("_", "")
    if plain.lstrip("-").lower().startswith("0x"):
        return int(plain, 16)
    value = float(plain)
    return int(value) if value.is_integer() and not re.search(r"[.eE]", plain) else value
