"""Source text as tokens, as far as the judge's probes care: each literal, word and operator
with where it starts.

C-like languages share one lexer built from their reader's pattern for comments and literals
(so it never takes a comment for code, see `lexing.py`); Python is read by its own tokenizer.
"""

from __future__ import annotations

import enum
import io
import re
import tokenize
from collections.abc import Callable, Mapping
from dataclasses import dataclass


class Kind(enum.Enum):
    """What a token is, as far as the probe cares."""

    LITERAL = "literal"  # a string, character or number
    BOOL = "bool"
    WORD = "word"
    OP = "op"
    OPEN = "open"
    CLOSE = "close"
    END = "end"  # the end of a logical line, where a language ends statements there
    OPAQUE = "opaque"  # what may hold code (an f-string, a template literal)


@dataclass(frozen=True)
class Token:
    """One token: its kind, text, and where it starts in the source."""

    kind: Kind
    text: str
    start: int


Tokenize = Callable[[str], list[Token]]


def replaced(text: str, edits: Mapping[int, tuple[Token, str]]) -> str:
    """`text` with each token of `edits` (by its start) replaced by its new text."""
    out, at = [], 0
    for start in sorted(edits):
        token, new = edits[start]
        out += [text[at:start], new]
        at = start + len(token.text)
    out.append(text[at:])
    return "".join(out)


_NUMBER = re.compile(r"(?:\d|\.\d)(?:[\w.']|[eE][+-])*")
_WORD = re.compile(r"(?:[^\W\d]|\$)[\w$]*")  # any letter: JavaScript and Java names may be `本`
_OPS = re.compile(r"==|!=|:=|::|->|=>|<=|>=|&&|\|\||[^\s\w]")


def lexer(literals: re.Pattern[str], *, ends_lines: bool = False) -> Tokenize:
    """A tokenizer for a C-like language whose comments, strings and characters `literals`
    matches (its reader's pattern; a backquoted one may hold code, so is never changed), and
    where a newline ends a statement if `ends_lines` (Go)."""

    def tokenize(text: str) -> list[Token]:
        tokens, i, n = [], 0, len(text)
        while i < n:
            char = text[i]
            if char.isspace():
                if char == "\n" and ends_lines:
                    tokens.append(Token(Kind.END, char, i))
                i += 1
                continue
            match = literals.match(text, i)
            if match and match.end() > i:
                lexeme = match.group(0)
                if not lexeme.startswith(("//", "/*")):  # a comment is no token
                    kind = Kind.OPAQUE if lexeme.startswith("`") else Kind.LITERAL
                    tokens.append(Token(kind, lexeme, i))
                i = match.end()
                continue
            word = _NUMBER.match(text, i)
            kind = Kind.LITERAL
            if word is None:
                word, kind = _WORD.match(text, i), Kind.WORD
            if word is None:
                word, kind = _OPS.match(text, i), Kind.OP
            assert word is not None  # `_OPS` matches any non-space character
            lexeme = word.group(0)
            if kind is Kind.OP and lexeme in "([{":
                kind = Kind.OPEN
            elif kind is Kind.OP and lexeme in ")]}":
                kind = Kind.CLOSE
            elif kind is Kind.WORD and lexeme in ("true", "false"):
                kind = Kind.BOOL
            tokens.append(Token(kind, lexeme, i))
            i = word.end()
        return tokens

    return tokenize


_PYTHON_KINDS = {
    tokenize.NUMBER: Kind.LITERAL, tokenize.STRING: Kind.LITERAL, tokenize.NAME: Kind.WORD,
    tokenize.NEWLINE: Kind.END,
}  # fmt: skip


def python_tokens(text: str) -> list[Token]:
    """Python's tokens as its own tokenizer reads them (an f-string may hold code).

    Raises:
        SyntaxError, ValueError: text Python cannot tokenize.
    """
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    tokens = []
    try:
        read = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except tokenize.TokenError as exc:
        raise ValueError(str(exc)) from exc
    for token in read:
        row, column = token.start
        kind = _PYTHON_KINDS.get(token.type, Kind.OP)
        if kind is Kind.OP and token.type != tokenize.OP:
            continue  # comments, indents, blank lines
        text_ = token.string
        if kind is Kind.OP:
            kind = Kind.OPEN if text_ in "([{" else Kind.CLOSE if text_ in ")]}" else Kind.OP
        elif kind is Kind.WORD and text_ in ("True", "False"):
            kind = Kind.BOOL
        elif token.type == tokenize.STRING and "f" in text_[: text_.find(text_[-1])].lower():
            kind = Kind.OPAQUE
        if row - 1 < len(starts):
            tokens.append(Token(kind, text_, starts[row - 1] + column))
    return tokens
