"""What every language's source reader shares (each pack's `reader.py` reads its own
language the way its compiler does, without running anything).

The static policy and test discovery look for names in code, so what they take for a comment
or a literal must be exactly what the compiler takes for one: a reader that pairs quotes
differently from the compiler can be led to blank out real code (tests/helpers/hidden_code.py
holds every such trick found so far). Where a language translates its text before lexing it
(Java's Unicode escapes, C++'s line splices and digraphs), the reader does the same first;
where a faithful reading needs a parser (a JavaScript `/` after `)`), the reader says where
it was unsure, and the policy refuses that.
"""

from __future__ import annotations

import re

_NOT_NEWLINE = re.compile(r"[^\n]")


def spaced(lexeme: str) -> str:
    """`lexeme` as spaces, its newlines kept, so that line numbers still hold."""
    return _NOT_NEWLINE.sub(" ", lexeme)


def blank(text: str, lexemes: re.Pattern[str]) -> str:
    """`text` with every match of `lexemes` turned into spaces, newlines kept, so that what
    is left is code and line numbers still hold."""
    return lexemes.sub(lambda match: spaced(match.group(0)), text)


def block_end(code: str, start: int, opening: str = "{", closing: str = "}") -> int:
    """Just past the `closing` that ends the block whose `opening` is just before `start`,
    in `code` whose literals and comments are blank (its length, where none does)."""
    depth, at = 1, start
    while at < len(code) and depth:
        depth += (code[at] == opening) - (code[at] == closing)
        at += 1
    return at
