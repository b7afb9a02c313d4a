"""Rust literals read as data on the host, without compiling anything, as the Rust driver
reports the same values: strings (raw ones too, and made owned: `.to_string()`,
`String::from`) and characters as text, numbers (a suffix or `_` in them), `true`, `false`;
`vec![...]`, arrays, slices and tuples as lists, `Vec::new()` as an empty one; `Some(x)` as
`x`, `None` as null, `Ok(x)` as `x`, `Err(text)` as the driver's error map; and names whose
values are known. Anything else (a call of the code's, a struct) is no literal."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from tdd_sandbox.languages.literal_reader import LiteralReader, NotLiteral

_NUMBER = re.compile(
    r"-?(?:0x[0-9a-fA-F_]+|0b[01_]+|\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][-+]?\d+)?)"
    r"(?:_?(?:[iu](?:8|16|32|64|128|size)|f32|f64))?"
)
_NAME = re.compile(r"[A-Za-z_][\w]*(?:::<[^>]*>)?(?:::[A-Za-z_]\w*(?:::<[^>]*>)?)*")
_OWNED = re.compile(r"\s*\.\s*(?:to_string|to_owned|into|to_vec|clone|as_str|as_slice)\s*\(\s*\)")
_RAW = re.compile(r'r(#*)"(.*?)"\1', re.DOTALL)
_EMPTY = {"Vec::new", "String::new", "Vec::with_capacity"}
_WORDS: dict[str, Any] = {"true": True, "false": False, "None": None}


def read_literal(text: str, names: Mapping[str, Any] | None = None) -> Any:
    """The value `text` writes as one Rust literal, or `NO`; a name in it reads as its value
    in `names`."""
    return _Reader(text, names or {}).read()


class _Reader(LiteralReader):
    def value(self) -> Any:
        value = self.bare()
        while owned := _OWNED.match(self.text, self.at):
            self.at = owned.end()
        return value

    def bare(self) -> Any:
        self.space()
        text, at = self.text, self.at
        if text[at] == "&":
            self.at += 1
            self.skip("mut ")
            return self.value()
        if raw := _RAW.match(text, at):
            self.at = raw.end()
            return raw[2]
        if text[at] in "\"'":
            return self.string(text[at])
        if text[at] == "[":
            return self.items("[", "]")
        if text[at] == "(":
            items = self.items("(", ")")
            return items[0] if len(items) == 1 else items  # `(x)`, or a tuple
        if text.startswith("vec!", at):
            self.at += 4
            return self.items("[", "]")
        if (number := _NUMBER.match(text, at)) and number.group():
            self.at = number.end()
            return _number(number.group())
        if name := _NAME.match(text, at):
            return self.named(re.sub(r"::<[^>]*>", "", name.group()), name.end())
        raise NotLiteral

    def named(self, name: str, end: int) -> Any:
        self.at = end
        if name in _WORDS:
            return _WORDS[name]
        if self.skip("("):
            self.at -= 1
            items = self.items("(", ")")
            if name in _EMPTY:
                return [] if name.startswith("Vec") else ""
            if name in ("Some", "Ok", "String::from", "Box::new") and len(items) == 1:
                return items[0]
            if name == "Err" and len(items) == 1 and isinstance(items[0], str):
                return {"error": items[0]}
            raise NotLiteral
        return self.known(name)

    def item(self) -> Any:
        """An item, or of `vec![x; n]` the item repeated: `NotLiteral` carries the count."""
        value = self.value()
        if self.skip(";"):
            count = self.value()
            if not isinstance(count, int) or count > 10_000:
                raise NotLiteral
            raise _Repeated(value, count)
        return value

    def items(self, opening: str, closing: str) -> list[Any]:
        try:
            return super().items(opening, closing)
        except _Repeated as repeated:
            if not self.skip(closing):
                raise NotLiteral from None
            return [repeated.value] * repeated.count

    def escape(self, at: int) -> tuple[str, int]:
        """A line continued (its next line's indentation goes), else the common ones."""
        if self.text[at] == "\n":
            return "", len(self.text[: at + 1]) + len(self.text[at + 1 :]) - len(
                self.text[at + 1 :].lstrip()
            )
        return super().escape(at)


class _Repeated(NotLiteral):
    def __init__(self, value: Any, count: int) -> None:
        super().__init__()
        self.value, self.count = value, count


def _number(text: str) -> int | float:
    plain = re.sub(r"_?(?:[iu](?:8|16|32|64|128|size)|f32|f64)$", "", text).replace("_", "")
    if plain.lstrip("-").startswith(("0x", "0b")):
        return int(plain, 0)
    if re.search(r"[.eE]", plain) or text.endswith(("f32", "f64")):
        return float(plain)
    return int(plain)
