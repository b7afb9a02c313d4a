"""Java literals read as data on the host, without compiling anything, as the Java driver
reports the same values: strings (joined with `+`, text blocks too) and characters as
text, numbers, `true`, `false`, `null`; arrays (`new int[] {1, 2}`, `{1, 2}`), the JDK's
lists, sets and maps made of literals (`List.of`, `Arrays.asList`, `Set.of`, `Map.of`,
`Collections.emptyList()`), an enumeration's constant as the driver spells it
(`Winner.PLAYER_O`: "player o"), and names whose values are known. Anything else (a call,
an object made with `new`) is no literal."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from tdd_sandbox.languages.literal_reader import LiteralReader, NotLiteral, SetLiteral

_NUMBER = re.compile(r"-?(?:0[xX][0-9a-fA-F_]+|\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][-+]?\d+)?)[lLdDfF]?")
_NAME = re.compile(r"[A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*")
_CONSTANT = re.compile(r"[A-Z][\w$]*\s*\.\s*([A-Z][A-Z0-9_]*)")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "s": " "}
_LISTS = ("List.of", "Arrays.asList", "Collections.singletonList", "Collections.emptyList",
          "Stream.of", "Collections.unmodifiableList")  # fmt: skip
_SETS = ("Set.of", "Collections.singleton", "Collections.emptySet")
_MAPS = ("Map.of", "Collections.emptyMap")
_WORDS: dict[str, Any] = {"true": True, "false": False, "null": None}


def read_literal(text: str, names: Mapping[str, Any] | None = None) -> Any:
    """The value `text` writes as one Java literal, or `NO`; a name in it reads as its
    value in `names`."""
    return _Reader(text, names or {}).read()


class _Reader(LiteralReader):
    quoted_escapes = _ESCAPES

    def value(self) -> Any:
        """Values joined by `+`: text, where any is."""
        value = self.term()
        while self.skip("+"):
            more = self.term()
            if not isinstance(value, str) and not isinstance(more, str):
                raise NotLiteral  # arithmetic is no literal
            value = f"{_shown(value)}{_shown(more)}"
        return value

    def term(self) -> Any:
        self.space()
        text, at = self.text, self.at
        if text.startswith('"""', at):
            return self.block()
        if text[at] in "\"'":
            return self.string(text[at])
        if text[at] == "{":
            return self.items("{", "}")
        if made := re.compile(r"new\s+[\w.]+(?:\s*<[^>]*>)?\s*(?:\[\s*\]\s*)+").match(text, at):
            self.at = made.end()
            self.space()
            return self.items("{", "}")
        if (number := _NUMBER.match(text, at)) and number.group():
            self.at = number.end()
            return _number(number.group())
        if name := _NAME.match(text, at):
            return self.named(name)
        raise NotLiteral

    def named(self, name: re.Match[str]) -> Any:
        spelled = re.sub(r"\s", "", name.group())
        self.at = name.end()
        if self.skip("("):
            self.at -= 1
            kind = next((k for k, made in (("list", _LISTS), ("set", _SETS), ("map", _MAPS))
                         if spelled in made), None)  # fmt: skip
            if kind is None:
                raise NotLiteral
            items = self.items("(", ")")
            if kind == "map":
                return {_shown(k): v for k, v in zip(items[::2], items[1::2], strict=True)}
            return SetLiteral(items) if kind == "set" else items
        if spelled in _WORDS:
            return _WORDS[spelled]
        if constant := _CONSTANT.fullmatch(spelled):
            return constant[1].lower().replace("_", " ")
        return self.known(spelled)

    def escape(self, at: int) -> tuple[str, int]:
        """An octal escape (`\\0`, `\\177`), else the common ones."""
        if octal := re.compile(r"[0-3]?[0-7]{1,2}").match(self.text, at):
            return chr(int(octal.group(), 8)), octal.end()
        return super().escape(at)

    def block(self) -> str:
        """A text block: its lines less their common indentation, trailing spaces off."""
        end = self.text.index('"""', self.at + 3)
        lines = self.text[self.at + 3 : end].split("\n")[1:]
        self.at = end + 3
        widths = [len(line) - len(line.lstrip()) for line in lines[:-1] if line.strip()]
        widths.append(len(lines[-1]) - len(lines[-1].lstrip()))
        cut = min(widths)
        body = "\n".join(line[cut:].rstrip() for line in lines)
        return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m[1], m[1]), body.replace("\\\n", ""))


def _shown(value: Any) -> str:
    """A value as Java's `+` joins it to text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else str(value)


def _number(text: str) -> int | float:
    plain = text.replace("_", "").rstrip("lL")
    if plain.lstrip("-").lower().startswith("0x"):
        return int(plain, 16)
    if plain[-1:] in "dDfF" or re.search(r"[.eE]", plain):
        return float(plain.rstrip("dDfF"))
    return int(plain)
