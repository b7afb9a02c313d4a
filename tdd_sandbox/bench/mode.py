"""What a bench measures: apart from the planning, so the command line can offer the modes
without loading the bench."""

from __future__ import annotations

import enum


class Mode(enum.StrEnum):
    """What a bench measures (`bench --mode`)."""

    TDD = "tdd"
    """The whole loop: tester, implementer and refactorer; the hidden suite scores the end."""
    IMPLEMENT = "implement"
    """The implementer alone, given the tests, with one retry: aider's pass rates."""
    TEST = "test"
    """The tester alone: its tests against the reference and the reference's mutants."""

    @property
    def roles(self) -> tuple[str, ...]:
        """The roles whose models a bench of this mode calls."""
        return {Mode.IMPLEMENT: ("implementer",), Mode.TEST: ("tester",)}.get(
            self, ("tester", "implementer", "refactorer")
        )
