"""The three agents of the red-green-refactor cycle."""

from __future__ import annotations

import enum


class Role(enum.StrEnum):
    """The three agents."""

    TESTER = "tester"
    IMPLEMENTER = "implementer"
    REFACTORER = "refactorer"
