"""What every pack's literal reader shares (`<language>/literals.py`): a literal of a test
read as data on the host, without compiling or running anything, for a transcribed test to
be held against (`transcribing`). Each language's reader says what a value is; this one
skips space and comments, reads a bracketed list of values and a quoted string, and knows
the names whose values the test bound to literals."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

NO = object()
"""No literal: what a reader reads of anything else."""

_SPACE = re.compile(r"(?:\s+|//[^\n]*|/\*.*?\*/)*", re.DOTALL)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


class SetLiteral(list[Any]):
    """A set the test writes, kept as the list the answer reads as: in any order."""


class NotLiteral(Exception):
    """What a reader raises where the text is no literal."""


class LiteralReader:
    """Reads one literal of `text`, its names' values from `names`."""

    quoted_escapes: Mapping[str, str] = _ESCAPES
    """What an escape's character after the backslash writes (any other: itself)."""

    def __init__(self, text: str, names: Mapping[str, Any]) -> None:
        self.text, self.at, self.names = text, 0, names

    def read(self) -> Any:
        """The value the whole text writes, or `NO`."""
        try:
            value = self.value()
            self.space()
        except (NotLiteral, IndexError, ValueError, KeyError):
            return NO
        return value if self.at == len(self.text) else NO

    def value(self) -> Any:
        """One value, from `at` on; raises `NotLiteral`."""
        raise NotImplementedError

    def space(self) -> None:
        match = _SPACE.match(self.text, self.at)
        self.at = match.end() if match else self.at

    def skip(self, token: str) -> bool:
        """Past `token` (after any space) where it comes next."""
        self.space()
        if self.text.startswith(token, self.at):
            self.at += len(token)
            return True
        return False

    def items(self, opening: str, closing: str) -> list[Any]:
        """Values between `opening` and `closing`, apart by commas, one may trail."""
        if not self.skip(opening):
            raise NotLiteral
        out: list[Any] = []
        while not self.skip(closing):
            if self.text.startswith(("...", ","), self.at):
                raise NotLiteral  # a spread, or a hole
            out.append(self.item())
            if not self.skip(","):
                self.space()
                if not self.text.startswith(closing, self.at):
                    raise NotLiteral
        return out

    def item(self) -> Any:
        """One item of a list: a value, unless the language reads more (Java's `+`)."""
        return self.value()

    def string(self, quote: str, lines: bool = False) -> str:
        """The string opening at `at` with `quote`, on one line unless it may span `lines`,
        its escapes read."""
        out: list[str] = []
        at = self.at + 1
        while self.text[at] != quote:
            if self.text[at] == "\n" and not lines:
                raise NotLiteral
            if self.text[at] == "\\":
                char, at = self.escape(at + 1)
                out.append(char)
                continue
            out.append(self.text[at])
            at += 1
        self.at = at + 1
        return "".join(out)

    def escape(self, at: int) -> tuple[str, int]:
        """What the escape whose character is at `at` writes, and where the text goes on:
        `\\u` with four digits or braces, `\\x` with two, else `quoted_escapes`."""
        unicode = re.compile(r"u\{([0-9a-fA-F_]+)\}|u([0-9a-fA-F]{4})").match(self.text, at)
        if unicode:
            return chr(int((unicode[1] or unicode[2]).replace("_", ""), 16)), unicode.end()
        if self.text[at] == "x" and re.fullmatch(r"[0-9a-fA-F]{2}", self.text[at + 1 : at + 3]):
            return chr(int(self.text[at + 1 : at + 3], 16)), at + 3
        char = self.text[at]
        return self.quoted_escapes.get(char, char), at + 1

    def known(self, name: str) -> Any:
        """A name's value: the test's, or one of `words`; raises `NotLiteral`."""
        if name in self.names:
            return self.names[name]
        raise NotLiteral
