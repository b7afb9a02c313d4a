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


_CLOSERS = frozenset(")].,;?:=+-*/%&|<>!")
"""What may start a line that carries the expression before it on."""


def bracket_end(code: str, opening: int) -> int:
    """Where the bracket at `opening` closes, its kinds counted alike, in `code` whose
    literals and comments are blank; -1 where it never does."""
    depth = 0
    for index in range(opening, len(code)):
        if code[index] in "([{":
            depth += 1
        elif code[index] in ")]}":
            depth -= 1
            if depth == 0:
                return index
    return -1


def statement_spans(
    code: str, start: int, end: int, *, newlines: bool = False
) -> list[tuple[int, int]]:
    """The spans of the statements of `code[start:end]` (a C-like language's code, its
    literals and comments blank): each ends at a `;` outside brackets, or at a `}` that
    closes a block where a new line starts with no operator carrying the expression on;
    with `newlines` (JavaScript written without semicolons, as Prettier's `semi: false`
    prints it), also at the end of a line outside brackets that neither line carries on.

    Raises:
        ValueError: brackets that do not balance.
    """
    found, depth, begun = [], 0, None
    at = start
    while at < end:
        char = code[at]
        at_line_end = newlines and char == "\n" and depth == 0
        if at_line_end and begun is not None and not _carried_on(code, begun, at, end):
            found.append((begun, at))
            begun = None
        if begun is None and not char.isspace():
            begun = at
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth < 0:
                raise ValueError("brackets that do not balance")
            if char == "}" and depth == 0 and begun is not None and _ends_here(code, at + 1, end):
                found.append((begun, at + 1))
                begun = None
        elif char == ";" and depth == 0 and begun is not None:
            found.append((begun, at + 1))
            begun = None
        at += 1
    if begun is not None and code[begun:end].strip():
        found.append((begun, end))
    return found


_GOES_ON = tuple("=+-*/%&|^<>!?:,.([{~")
"""What a line ends with, or (as `.`, `?`, `(`...) the next begins with, where an expression
goes on past the line's end (a line that begins with `(`, `[` or a backquote goes on the one
before, in JavaScript, which is why Prettier leads such a line with `;`)."""


_NEXT = re.compile(r"\S")


def _carried_on(code: str, begun: int, at: int, end: int) -> bool:
    """Whether the statement begun at `begun` goes on past the line's end at `at`: its text
    so far ends in an operator, or the next line begins with one (or is blank to `end`).
    Read in place: a spec's every line end is asked, and the rest of it is not copied."""
    head = code[begun:at].rstrip()
    found = _NEXT.search(code, at, end)
    if not head or found is None:
        return True
    rest = code[found.start() : found.start() + 2]
    goes_on = rest.startswith((*_GOES_ON, "`")) and rest not in ("++", "--")
    return head.endswith(_GOES_ON) or goes_on


def _ends_here(code: str, at: int, end: int) -> bool:
    """Whether a statement ends after a `}` at `at`: the rest of its line is blank and the
    next line does not carry the expression on."""
    line_end = code.find("\n", at, end)
    if line_end < 0 or code[at:line_end].strip():
        return False
    rest = code[line_end:end].lstrip()
    return not rest or rest[0] not in _CLOSERS
