"""Reading C++ source as the preprocessor does: lines spliced, digraphs read, then comments, raw
strings, numbers and literals."""

from __future__ import annotations

import re

CPP_LEXEMES = re.compile(
    r"//[^\n]*|/\*.*?\*/|(?<![\w])(?:u8|[uUL])?R\"([^ ()\\\t\v\f\n]{0,16})\(.*?\)\1\""
    r"|(?<![\w.])\.?\d(?:[\w.]|'(?=\w)|[eEpP][+-])*"
    r"|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'",
    re.DOTALL,
)
"""C++'s comments, raw strings, numbers (whose `'` separates digits, not a character),
strings and characters (read after `cpp_text`)."""


_SPLICED = re.compile(r"(?:[^\n]*?\\[ \t]*\r?\n)+[^\n]*")


_SPLICE = re.compile(r"\\[ \t]*\r?\n")


def cpp_text(text: str) -> str:
    """`text` with its lines spliced and `%:` read as `#`, as the preprocessor does before it
    finds comments and directives; each spliced line keeps its newlines at its end, so line
    numbers hold for every line that was not spliced."""

    def join(match: re.Match[str]) -> str:
        lines = match.group(0)
        return _SPLICE.sub("", lines) + "\n" * len(_SPLICE.findall(lines))

    return _SPLICED.sub(join, text).replace("%:", "#")
