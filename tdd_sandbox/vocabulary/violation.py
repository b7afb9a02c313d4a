"""One construct the static policy refuses."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True)
class Violation:
    """One refused construct."""

    path: str
    line: int
    rule: str
    """The rule's name, which a kata's `allow:` list may name to permit it."""
    why: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.why} (rule {self.rule})"

    @property
    def unreadable(self) -> bool:
        """Text the judge cannot read the way the compiler does (a nested comment, a macro,
        syntax its parser does not know): refused, since it could hide code, but not counted
        as tamper, since an honest model may write it."""
        return self.rule in UNREADABLE_RULES


UNREADABLE_RULES = frozenset({"lexing", "macro", "syntax"})
"""The rules that say the judge could not read a file, rather than that it found a means of
forging a verdict in it."""


NO_TREE: Mapping[str, bytes] = MappingProxyType({})
"""A policy's tree when a file is checked on its own: no module of the kata's but itself."""
