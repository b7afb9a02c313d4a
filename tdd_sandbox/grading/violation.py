"""One construct the static policy refuses."""

from __future__ import annotations

from dataclasses import dataclass


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
