"""A rich console that shows text as written: what `terminal.console()` builds."""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console, ConsoleOptions, RenderableType
from rich.segment import Segment

from tdd_sandbox.vocabulary.printable import escape_controls


class EscapingConsole(Console):
    """A rich console whose text is escaped after layout and before styling: the styles are
    the console's own escape sequences, the text in between is shown as written. This covers
    tables, rules, markup-free prints and `Text` objects alike, which all render to segments."""

    def render(
        self, renderable: RenderableType, options: ConsoleOptions | None = None
    ) -> Iterable[Segment]:
        """The renderable's segments, the text of each escaped; control segments (cursor
        moves of a live display) are the console's own and pass."""
        for segment in super().render(renderable, options):
            if segment.control or not segment.text:
                yield segment
            else:
                yield Segment(escape_controls(segment.text), segment.style)
