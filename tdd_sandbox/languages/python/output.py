"""Where pytest's output, under the guard, reports the guard's sentinels."""

from __future__ import annotations

import re

from tdd_sandbox.languages.readout import SentinelReports

SENTINEL = r"test_check_[0-9a-f]{6}"
"""The names `guard.py` gives its sentinel tests (`test_check_` and six of the nonce)."""

PYTEST_SENTINELS = SentinelReports(
    opens=re.compile(rf"^_{{3,}} {SENTINEL} _{{3,}}$|^(?:FAILED|PASSED|ERROR) \S*::{SENTINEL}\b"),
    closes=re.compile(
        r"^(?:_{3,} \S+ _{3,}$|={3,}|-{3,}|(?:FAILED|PASSED|ERROR) |\d+ (?:failed|passed|error))"
    ),
)


_PROGRESS = re.compile(r"^[.FEsxX]+[ \t]*(?:\[ *\d+%\])?$")
"""A line of progress marks: the guard's stream splits pytest's into one mark a line."""
_COUNTS = re.compile(r"^(?:=+ )?\d+ (?:failed|passed|errors?)\b.* in [\d.]+s(?: \(.*\))?(?: =+)?$")
"""pytest's closing count, which counts the guard's sentinels too (the gate says the
suite's own)."""


def without_runner_noise(text: str) -> str:
    """`text` less pytest's line naming the results file the judge asked it for, its
    progress marks and its closing count."""
    return "\n".join(
        line
        for line in text.split("\n")
        if not (line.startswith("---") and "generated xml file" in line)
        and not _PROGRESS.match(line)
        and not _COUNTS.match(line)
    )
