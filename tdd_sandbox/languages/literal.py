"""A case's JSON inputs written as source code: one renderer, and each language's spelling as
data (`LiteralSyntax`), so the rules (what may be written, how lists are typed) live once."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tdd_sandbox.errors import UsageError

_INT32 = 2**31 - 1


@dataclass(frozen=True)
class LiteralSyntax:
    """How one language writes the values a kata's cases pass.

    Lists are typed from their elements (`kinds` names the type of a bool, int, float and
    string) unless `typed` is false; an empty list is of `int`s, and one of mixed kinds cannot
    be written. A list of lists is typed by `nested`, or cannot be written when it is None.
    """

    language: str
    null: str
    string: Callable[[str], str]
    sequence: Callable[[str, str], str]
    """The list expression from its element type and its comma-joined elements."""
    kinds: tuple[str, str, str, str] = ("bool", "int", "double", "string")
    nested: Callable[[str], str] | None = None
    long_suffix: str = ""
    """Appended to an integer beyond 32 bits, where a bare one would not compile."""
    empty: str | None = None
    """The expression for an empty list, where the language has one of its own."""
    typed: bool = True
    decimal: Callable[[float], str] = repr

    def render(self, value: Any) -> str:
        """`value` as an expression of this language.

        Raises:
            UsageError: a map, a list this language cannot type, or a float that is not finite.
        """
        if value is None:
            return self.null
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, int):
            return f"{value}{self.long_suffix}" if abs(value) > _INT32 else str(value)
        if isinstance(value, float):
            if not math.isfinite(value):
                raise UsageError(f"{value} cannot be a {self.language} input")
            return self.decimal(value)
        if isinstance(value, str):
            return self.string(value)
        if isinstance(value, list):
            if not value and self.empty is not None:
                return self.empty
            kind = self._element_kind(value) if self.typed else ""
            return self.sequence(kind, ", ".join(self.render(item) for item in value))
        raise UsageError(
            f"a {type(value).__name__} input cannot be written as a {self.language} literal"
        )

    def _element_kind(self, items: list[Any]) -> str:
        kinds = {self._kind(item) for item in items}
        if len(kinds) > 1:
            raise UsageError(f"a list of mixed kinds cannot be written in {self.language}")
        return kinds.pop() if kinds else self.kinds[1]

    def _kind(self, item: Any) -> str:
        for python, kind in zip((bool, int, float, str), self.kinds, strict=True):
            if isinstance(item, python):
                return kind
        if isinstance(item, list) and self.nested is not None:
            return self.nested(self._element_kind(item))
        raise UsageError(
            f"a list of {type(item).__name__} cannot be written as a {self.language} list"
        )
