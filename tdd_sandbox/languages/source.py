"""Reading C-family source text without running it: comments and literals blanked out."""

from __future__ import annotations

import re

GO_LEXEMES = re.compile(
    r"//[^\n]*|/\*.*?\*/|`[^`]*`|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.DOTALL
)
"""Go's comments, raw strings, strings and runes (first match wins at each position, so a
`//` inside a string stays part of the string)."""


def blank(text: str, lexemes: re.Pattern[str]) -> str:
    """`text` with every match of `lexemes` turned into spaces, newlines kept, so that what
    is left is code and line numbers still hold."""

    def spaces(match: re.Match[str]) -> str:
        return re.sub(r"[^\n]", " ", match.group(0))

    return lexemes.sub(spaces, text)


JS_LEXEMES = re.compile(
    r"//[^\n]*|/\*.*?\*/|`(?:\\.|[^`\\])*`|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.DOTALL
)
"""JavaScript's comments, template literals and strings (regular expression literals are
taken as code: telling them from a division needs a parser)."""

C_LEXEMES = re.compile(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.DOTALL)
"""C and C++'s comments, strings and characters (raw strings are taken as code)."""
