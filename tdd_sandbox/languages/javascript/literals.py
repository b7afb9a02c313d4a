"""JavaScript literals read as data on the host, without running anything: strings (a
template literal without `${`), numbers, `true`, `false`, `null`, `undefined`, arrays and
object literals whose keys are names, strings or numbers, and names whose values are known.
Anything else (another name, a call, a spread) is no literal."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from tdd_sandbox.languages.literal_reader import LiteralReader, NotLiteral

_NUMBER = re.compile(r"-?(?:0[xX][0-9a-fA-F_]+|(?:\d[\d_]*)?\.?\d[\d_]*(?:[eE][-+]?\d+)?)")
_NAME = re.compile(r"[A-Za-z_$][\w$]*")
_WORDS: dict[str, Any] = {"true": True, "false": False, "null": None, "undefined": None}


def read_literal(text: str, names: Mapping[str, Any] | None = None) -> Any:
    """The value `text` writes as one JavaScript literal, or `NO`; a name in it reads as
    its value in `names` (`{ users: expectedUsers }`)."""
    return _Reader(text, names or {}).read()


class _Reader(LiteralReader):
    def value(self) -> Any:
        self.space()
        char = self.text[self.at : self.at + 1]
        if char in ("'", '"', "`"):
            return self.string(char)
        if char == "[":
            return self.items("[", "]")
        if char == "{":
            return self.fields()
        if (match := _NUMBER.match(self.text, self.at)) and match.group():
            self.at = match.end()
            return _number(match.group())
        if name := _NAME.match(self.text, self.at):
            self.at = name.end()
            return _WORDS[name.group()] if name.group() in _WORDS else self.known(name.group())
        raise NotLiteral

    def string(self, quote: str, lines: bool = False) -> str:
        """A quoted string, or a template literal of no `${`, which may span lines."""
        if quote != "`":
            return super().string(quote)
        if re.search(r"(?<!\\)\$\{", self.text[self.at : self.text.find("`", self.at + 1) + 1]):
            raise NotLiteral
        return super().string(quote, lines=True)

    def escape(self, at: int) -> tuple[str, int]:
        """A line continued writes nothing; else the common escapes."""
        return ("", at + 1) if self.text[at] == "\n" else super().escape(at)

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
                raise NotLiteral  # shorthand, a method, a computed key
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
        raise NotLiteral

    def separator(self, closing: str) -> None:
        self.space()
        if self.text.startswith(",", self.at):
            self.at += 1
        elif not self.text.startswith(closing, self.at):
            raise NotLiteral


def _number(text: str) -> int | float:
    plain = text.replace("_", "")
    if plain.lstrip("-").lower().startswith("0x"):
        return int(plain, 16)
    value = float(plain)
    return int(value) if value.is_integer() and not re.search(r"[.eE]", plain) else value
