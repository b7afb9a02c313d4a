"""A test runner's output as a person, or the next prompt, reads it: without the guard's
frames or the reports of its sentinel tests.

The failing sentinel is the guard's own. Shown to a model, it read as a second failing test
that the model never saw: the 0.5B coder's retries quoted its arithmetic back (issue #44).
Dropping it costs the judge nothing: the judge reads the guard's evidence, not this text.
A model that names a test of its own like a sentinel only hides that report from itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class SentinelReports:
    """Where one runner's output holds a sentinel's report."""

    opens: re.Pattern[str]
    """A line that starts a sentinel's report, or is one whole (a summary line naming it)."""
    closes: re.Pattern[str]
    """A line that ends the report it follows; kept, unless it opens another."""
    lone: re.Pattern[str] | None = None
    """A line that is a sentinel's whole report (an entry of a list): dropped alone, the
    lines after it kept."""

    def strip(self, text: str) -> str:
        """`text` without the reports."""
        kept: list[str] = []
        inside = False
        for line in text.split("\n"):
            if self.lone is not None and self.lone.search(line):
                continue
            if self.opens.search(line):
                inside = True
                continue
            if inside and self.closes.search(line):
                inside = False
            if not inside:
                kept.append(line)
        return "\n".join(kept)


def without_frames(text: str) -> str:
    """`text` without the guard's frames (`@@<nonce> ...` lines, for the judge)."""
    return "\n".join(line for line in text.split("\n") if not line.startswith("@@"))


NEXT_UNINDENTED = re.compile(r"^\S")
"""The end of a report whose detail is indented (node's, JUnit's console launcher's)."""
