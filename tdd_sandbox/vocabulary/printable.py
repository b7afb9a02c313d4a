"""Text that may carry what a model wrote, made safe to show: on a terminal, in a Markdown or
HTML report, in JUnit XML.

Model code decides what a failing test prints, what an import error says and what a test is
called. Written raw to a terminal, an escape sequence in it retitles the window, erases the
line the judge printed and prints its own verdict there; in a report, a control character makes
XML unreadable and a bidirectional override makes a cell read otherwise than it is. So every
control character but newline and tab, and every bidirectional control, is written as its
escape (`\\x1b`, `\\u202e`): the reader sees that it was there and nothing acts on it.
"""

from __future__ import annotations

import re

LINE_LIMIT = 2000
"""Characters of one line shown before the rest is cut: a test that prints a megabyte on one
line must not bury the verdict around it."""

# C0 controls but \t and \n, DEL and C1 (an 8-bit terminal reads \x9b as CSI), and Unicode's
# bidirectional controls and line/paragraph separators.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")
# What turns a cell into something else: its end (`|`), a link or image (`[`), code. HTML's `<`
# is written as an entity, which every renderer reads (not all honour `\<`). Emphasis (`*`,
# `_`) only restyles the text and is left alone: kind names carry underscores.
_MARKDOWN = re.compile(r"([\\`\[\]|])")


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape_controls(text: str, *, line_limit: int = LINE_LIMIT) -> str:
    """`text` with its control characters written as escapes and each line cut at
    `line_limit` characters (the cut said)."""
    text = _CONTROL.sub(_escaped, text)
    if len(text) <= line_limit:
        return text
    return "\n".join(
        line if len(line) <= line_limit else f"{line[:line_limit]}… [{len(line)} characters]"
        for line in text.split("\n")
    )


def escape_markdown(text: str) -> str:
    """`text` as inline Markdown (a table's cell, a list's item): controls escaped, on one
    line, and each character that would end the cell or make a link, an image, HTML or code
    shown as itself."""
    flat = " ".join(escape_controls(text).splitlines())
    return _MARKDOWN.sub(r"\\\1", flat).replace("<", "&lt;").replace(">", "&gt;")
