"""Reading Java source as javac does: Unicode escapes first (JLS 3.3), then comments, text
blocks, strings and characters."""

from __future__ import annotations

import re

JAVA_LEXEMES = re.compile(
    r"//[^\n]*|/\*.*?\*/|\"\"\"[ \t\f]*\r?\n(?:\\.|[^\\])*?\"\"\""
    r"|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'",
    re.DOTALL,
)
"""Java's comments, text blocks, strings and characters (read after `java_text`)."""


_JAVA_ESCAPE = re.compile(r"(?<!\\)(\\+)u+([0-9a-fA-F]{4})")


def java_text(text: str) -> str:
    """`text` with its Unicode escapes undone, as javac does before anything else (JLS 3.3):
    `\\u000a` ends a line comment and `\\u0053ystem` is `System`."""

    def undo(match: re.Match[str]) -> str:
        slashes = match.group(1)
        if len(slashes) % 2 == 0:
            return match.group(0)  # an escaped backslash, then a plain `u`
        return slashes[:-1] + chr(int(match.group(2), 16))

    return _JAVA_ESCAPE.sub(undo, text)
