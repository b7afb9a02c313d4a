"""Counts as a person writes them: "1 job", "2 jobs", "1 try", "3 tries"."""

from __future__ import annotations

_IRREGULAR = {"try": "tries", "entry": "entries", "is": "are", "was": "were"}


def plural(count: int, noun: str) -> str:
    """`count` and `noun`, the noun in the plural unless the count is one."""
    if count == 1:
        return f"{count} {noun}"
    return f"{count} {_IRREGULAR.get(noun, noun + 's')}"
