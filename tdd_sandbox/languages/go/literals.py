"""Go's composite literals read as plain data, without running anything: what a track's
generated test table (`cases_test.go`) holds is canonical data in Go's spelling, and reading
it back needs only the literal syntax (strings, runes, numbers, booleans, `nil`, and
`T{...}` of slices, arrays, maps and structs, a type elided inside its parent's).
Anything else (a constant, a call, an address) is no plain data: `Unreadable`."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

_TOKEN = re.compile(
    r"\s+|//[^\n]*|/\*.*?\*/"
    r"|(?P<raw>`[^`]*`)|(?P<text>\"(?:\\.|[^\"\\\n])*\")|(?P<rune>'(?:\\.|[^'\\\n])+')"
    r"|(?P<number>0[xX][0-9a-fA-F_]+|\d[\d_]*(?:\.\d*)?(?:[eE][+-]?\d+)?)"
    r"|(?P<name>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)|(?P<mark>\.\.\.|[{}\[\](),:;*&=-])|(?P<other>.)",
    re.DOTALL,
)
_ESCAPE = re.compile(r"\\(?:([abfnrtv\\'\"])|x([0-9a-fA-F]{2})|([0-7]{3})|u([0-9a-fA-F]{4})"
                     r"|U([0-9a-fA-F]{8}))")  # fmt: skip
_SIMPLE = {"a": 7, "b": 8, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11, "\\": 92, "'": 39, '"': 34}

_FIELDS = re.compile(r"(\w+(?:\s*,\s*\w+)*)\s+(.+?)")
"""A line of a struct's fields: their names, then their type."""

Fields = Mapping[str, str]
"""A struct's fields: name -> Go type, in order."""


class Unreadable(ValueError):
    """Source that is not a literal of plain data."""


def tokens(code: str) -> list[tuple[str, str, int]]:
    """`code` as (kind, text, offset) tokens, comments and spaces left out."""
    found, position = [], 0
    while position < len(code):
        match = _TOKEN.match(code, position)
        assert match is not None  # any one character is a token
        if match.lastgroup:
            found.append((match.lastgroup, match[0], position))
        position = match.end()
    return found


def unquote(literal: str) -> str:
    """A Go string literal's text (raw or interpreted, its escapes as Go reads them)."""
    if literal.startswith("`"):
        return literal[1:-1].replace("\r", "")
    out = bytearray()
    body, position = literal[1:-1], 0
    for match in _ESCAPE.finditer(body):
        out += body[position : match.start()].encode()
        simple, hexed, octal, short, long = match.groups()
        if simple:
            out.append(_SIMPLE[simple])
        elif hexed or octal:
            out.append(int(hexed, 16) if hexed else int(octal, 8))
        else:
            out += chr(int(short or long, 16)).encode()
        position = match.end()
    out += body[position:].encode()
    try:
        return out.decode()
    except UnicodeDecodeError:
        raise Unreadable("a string that is not UTF-8") from None


def struct_fields(body: str) -> dict[str, str]:
    """The fields of a struct type's body (`a, b int; c []string`): name -> type."""
    fields: dict[str, str] = {}
    for line in re.split(r"[;\n]", re.sub(r"//[^\n]*", "", body)):
        if declared := _FIELDS.fullmatch(line.strip()):
            for name in declared[1].split(","):
                fields[name.strip()] = declared[2]
    return fields


def zero_value(kind: str) -> Any:
    """The value Go gives a variable of type `kind` that nothing set (`nil`'s too, read as
    the driver reports it: a nil slice as an empty list, a nil map as an empty record)."""
    if kind == "bool":
        return False
    if kind == "string":
        return ""
    if re.fullmatch(r"u?int\d*|float\d+|byte|rune", kind):
        return 0
    return [] if kind.startswith("[") else {} if kind.startswith("map[") else None


class LiteralReader:
    """Reads types and values from a token list, from `position` on; `structs` names the
    struct types a literal may be of (name -> its fields)."""

    def __init__(self, code: str, position: int, structs: Mapping[str, Fields]) -> None:
        self.code = code[position:]
        self.items = tokens(self.code)
        self.at = 0
        self.structs = structs
        self.inline: dict[str, Fields] = {}
        """The fields of each `struct {...}` type read, by the type's text."""

    def peek(self) -> str:
        return self.items[self.at][1] if self.at < len(self.items) else ""

    def take(self, expected: str | None = None) -> str:
        text = self.peek()
        if not text or (expected is not None and text != expected):
            raise Unreadable(f"expected {expected or 'more'}, found {text or 'the end'!r}")
        self.at += 1
        return text

    def after(self) -> str:
        """The token after the next."""
        return self.items[self.at + 1][1] if self.at + 1 < len(self.items) else ""

    def offset(self) -> int:
        """Where the next token starts, from the reader's start."""
        return self.items[self.at][2] if self.at < len(self.items) else -1

    def kind(self) -> str:
        """A type's text (`[]string`, `map[string][2][2]int`); an inline struct's fields
        are kept in `inline`."""
        head = self.take()
        if head == "[":
            size = "" if self.peek() == "]" else self.take()
            self.take("]")
            return f"[{size}]{self.kind()}"
        if head == "map":
            self.take("[")
            key = self.kind()
            self.take("]")
            return f"map[{key}]{self.kind()}"
        if head == "*":
            return "*" + self.kind()
        if head == "struct":
            start = self.offset()
            self.take("{")
            depth = 1
            while depth:
                depth += {"{": 1, "}": -1}.get(self.take(), 0)
            text = f"struct#{len(self.inline)}"
            end = self.items[self.at - 1][2]
            self.inline[text] = struct_fields(self.code[start + 1 : end])
            return text
        if not re.fullmatch(r"[A-Za-z_][\w.]*", head):
            raise Unreadable(f"no type at {head!r}")
        return head

    def fields_of(self, kind: str) -> Fields | None:
        return self.inline.get(kind) or self.structs.get(kind)

    def value(self, kind: str) -> Any:
        """The value of a literal of type `kind` (elided, or written before its `{`)."""
        kind_of, text = self.items[self.at][:2] if self.at < len(self.items) else ("", "")
        if text == "-":
            self.take()
            number = self.value(kind)
            if isinstance(number, bool) or not isinstance(number, int | float):
                raise Unreadable("a minus before no number")
            return -number
        if kind_of in ("raw", "text"):
            self.take()
            return unquote(text)
        if kind_of == "rune":
            self.take()
            char = unquote('"' + text[1:-1].replace('"', '\\"') + '"')
            if len(char) != 1:
                raise Unreadable(f"a rune of {len(char)} characters")
            return ord(char)
        if kind_of == "number":
            self.take()
            plain = text.replace("_", "")
            return int(plain, 0) if re.fullmatch(r"0[xX]\w+|\d+", plain) else float(plain)
        if text in ("true", "false"):
            self.take()
            return text == "true"
        if text == "nil":
            self.take()
            return zero_value(kind)
        if text != "{":
            kind = self.kind()
        return self.composite(kind)

    def composite(self, kind: str) -> Any:
        """`{...}` of type `kind`: a list, or a record of a map's keys or a struct's fields."""
        self.take("{")
        fields = self.fields_of(kind)
        element = re.sub(r"^\[\d*\]|^map\[[^\]]*\]", "", kind) if not fields else ""
        keyed: dict[Any, Any] = {}
        items: list[Any] = []
        while self.peek() != "}":
            if fields is not None and self.after() == ":":
                name = self.take()
                self.take(":")
                keyed[name] = self.value(fields.get(name, ""))
            elif kind.startswith("map["):
                key = self.value(kind[4 : kind.index("]")])
                self.take(":")
                if not isinstance(key, str):
                    raise Unreadable("a map whose keys are not strings")
                keyed[key] = self.value(element)
            elif fields is not None:
                name = list(fields)[len(items)] if len(items) < len(fields) else ""
                items.append(self.value(fields.get(name, "")))
            else:
                items.append(self.value(element))
            if self.peek() != "}":
                self.take(",")
        self.take("}")
        if fields is not None and items:
            return dict(zip(fields, items, strict=False))
        return keyed if (keyed or fields is not None or kind.startswith("map[")) else items
