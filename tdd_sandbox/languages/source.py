"""Reading source text the way each compiler does, without running anything.

The static policy and test discovery look for names in code, so what they take for a comment
or a literal must be exactly what the compiler takes for one: a reader that pairs quotes
differently from the compiler can be led to blank out real code (tests/helpers/hidden_code.py
holds every such trick found so far). Where a language translates its text before lexing it
(Java's Unicode escapes, C++'s line splices and digraphs), the reader does the same first;
where a faithful reading needs a parser (a JavaScript `/` after `)`), the reader says where
it was unsure, and the policy refuses that.
"""

from __future__ import annotations

import io
import re
import sys
import tokenize
from dataclasses import dataclass

JUDGE_PYTHON = f"{sys.version_info.major}.{sys.version_info.minor}"
"""The Python whose grammar the judge reads Python code with: the host's own, which may be
older than the sandbox's (a file it cannot parse is refused, never skipped)."""


_NOT_NEWLINE = re.compile(r"[^\n]")


def _spaced(lexeme: str) -> str:
    """`lexeme` as spaces, its newlines kept, so that line numbers still hold."""
    return _NOT_NEWLINE.sub(" ", lexeme)


def blank(text: str, lexemes: re.Pattern[str]) -> str:
    """`text` with every match of `lexemes` turned into spaces, newlines kept, so that what
    is left is code and line numbers still hold."""
    return lexemes.sub(lambda match: _spaced(match.group(0)), text)


def python_text(data: bytes) -> str:
    """The text CPython reads from `data`: decoded as its encoding declaration says (PEP 263),
    a byte-order mark dropped. Reading it as plain UTF-8 instead let a `coding: utf-7` file or
    a BOM hide code from the policy while the interpreter ran it (tests/helpers/hidden_code.py)."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding, "replace")
    except (SyntaxError, LookupError, UnicodeError):
        return data.decode("utf-8", "replace")  # the interpreter refuses it too


GO_LEXEMES = re.compile(
    r"//[^\n]*|/\*.*?\*/|`[^`]*`|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.DOTALL
)
"""Go's comments, raw strings, strings and runes (first match wins at each position, so a
`//` inside a string stays part of the string)."""

RUST_LEXEMES = re.compile(
    r"//[^\n]*|/\*.*?\*/|(?<![\w])b?r(#*)\".*?\"\1|b?\"(?:\\.|[^\"\\])*\""
    r"|b?'(?:\\(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F_]{1,6}\}|.)|[^\\'\n])'",
    re.DOTALL,
)
"""Rust's comments, raw strings (`r#"..."#`, closed only by as many `#`), strings and
character literals (one character or escape, so a lifetime `'a` is code)."""

JAVA_LEXEMES = re.compile(
    r"//[^\n]*|/\*.*?\*/|\"\"\"[ \t\f]*\r?\n(?:\\.|[^\\])*?\"\"\""
    r"|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'",
    re.DOTALL,
)
"""Java's comments, text blocks, strings and characters (read after `java_text`)."""

CPP_LEXEMES = re.compile(
    r"//[^\n]*|/\*.*?\*/|(?<![\w])(?:u8|[uUL])?R\"([^ ()\\\t\v\f\n]{0,16})\(.*?\)\1\""
    r"|(?<![\w.])\.?\d(?:[\w.]|'(?=\w)|[eEpP][+-])*"
    r"|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'",
    re.DOTALL,
)
"""C++'s comments, raw strings, numbers (whose `'` separates digits, not a character),
strings and characters (read after `cpp_text`)."""

_JAVA_ESCAPE = re.compile(r"(?<!\\)(\\+)u+([0-9a-fA-F]{4})")
_SPLICED = re.compile(r"(?:[^\n]*?\\[ \t]*\r?\n)+[^\n]*")
_SPLICE = re.compile(r"\\[ \t]*\r?\n")


def java_text(text: str) -> str:
    """`text` with its Unicode escapes undone, as javac does before anything else (JLS 3.3):
    `\\u000a` ends a line comment and `\\u0053ystem` is `System`."""

    def undo(match: re.Match[str]) -> str:
        slashes = match.group(1)
        if len(slashes) % 2 == 0:
            return match.group(0)  # an escaped backslash, then a plain `u`
        return slashes[:-1] + chr(int(match.group(2), 16))

    return _JAVA_ESCAPE.sub(undo, text)


def cpp_text(text: str) -> str:
    """`text` with its lines spliced and `%:` read as `#`, as the preprocessor does before it
    finds comments and directives; each spliced line keeps its newlines at its end, so line
    numbers hold for every line that was not spliced."""

    def join(match: re.Match[str]) -> str:
        lines = match.group(0)
        return _SPLICE.sub("", lines) + "\n" * len(_SPLICE.findall(lines))

    return _SPLICED.sub(join, text).replace("%:", "#")


def rust_code(text: str) -> tuple[str, list[int]]:
    """Rust code with comments and literals blanked and raw identifiers (`r#process`) read
    as names, and the offsets of block comments that open another inside them: Rust nests
    block comments, this reader does not, so those are for the policy to refuse."""
    nested: list[int] = []

    def spaces(match: re.Match[str]) -> str:
        lexeme = match.group(0)
        if lexeme.startswith("/*") and "/*" in lexeme[2:]:
            nested.append(match.start())
        return _spaced(lexeme)

    code = re.sub(r"(?<![\w#])r#(?=[A-Za-z_])", "  ", RUST_LEXEMES.sub(spaces, text))
    return code, nested


@dataclass(frozen=True)
class JsCode:
    """JavaScript code with comments and literals blanked (a template literal's `${...}`
    stays code), and where a `/` was read as division though a regular expression there
    would have hidden a quote or a comment."""

    code: str
    unsure: tuple[int, ...]


_JS_REGEX_AFTER = frozenset("(,=:[!&|?{};+-*%<>~^")
_JS_REGEX_WORDS = frozenset(
    {"return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case",
     "do", "else", "yield", "await"}
)  # fmt: skip
_JS_UNSURE_AFTER = frozenset({")", "}", "++", "--"})
_JS_HIDING = re.compile(r"['\"`\[\\]")


def _regex_end(text: str, start: int) -> int:
    """Where a regular expression literal opening at `start` ends (after its flags), or -1
    when none closes on that line."""
    i, in_class = start + 1, False
    while i < len(text) and text[i] != "\n":
        char = text[i]
        if char == "\\":
            i += 2
            continue
        if char == "/" and not in_class:
            i += 1
            while i < len(text) and (text[i].isalnum() or text[i] in "_$"):
                i += 1
            return i
        in_class = (in_class or char == "[") and char != "]"
        i += 1
    return -1


def read_javascript(text: str) -> JsCode:
    """Read `text` as a JavaScript lexer does: comments, strings, template literals (whose
    interpolations are code again, nested to any depth) and regular expressions."""
    out, unsure = list(text), []
    interpolations: list[int] = []  # the brace depth at each open `${`
    depth, prev, i, n = 0, "", 0, len(text)

    def hide(start: int, end: int) -> None:
        for k in range(start, end):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        char = text[i]
        if char.isspace():
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            hide(i, end)
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            hide(i, end)
            i = end
        elif char in "'\"":
            end = i + 1
            while end < n and text[end] not in (char, "\n"):
                end += 2 if text[end] == "\\" else 1
            hide(i, min(end + 1, n))
            i, prev = min(end + 1, n), "value"
        elif char == "`" or (char == "}" and interpolations and interpolations[-1] == depth):
            if char == "}":
                interpolations.pop()
            end, opened = i + 1, False
            while end < n and text[end] != "`":
                if text.startswith("${", end):
                    opened = True
                    break
                end += 2 if text[end] == "\\" else 1
            end = min(end + (2 if opened else 1), n)
            hide(i, end)
            if opened:
                interpolations.append(depth)
            i, prev = end, "(" if opened else "value"
        elif char == "/":
            end = _regex_end(text, i)
            if (prev == "" or prev in _JS_REGEX_AFTER or prev in _JS_REGEX_WORDS) and end > 0:
                hide(i, end)
                i, prev = end, "value"
                continue
            if prev in _JS_UNSURE_AFTER and end > 0 and _JS_HIDING.search(text, i + 1, end - 1):
                unsure.append(i)
            i, prev = i + 1, "/"
        elif char.isalnum() or char in "_$\\":
            end = i
            while end < n and (text[end].isalnum() or text[end] in "_$\\"):
                end += 1
            word = text[i:end]
            prev = word if word in _JS_REGEX_WORDS and prev != "." else "value"
            i = end
        else:
            token = text[i : i + 2] if text.startswith(("++", "--"), i) else char
            depth += {"{": 1, "}": -1}.get(token, 0)
            i, prev = i + len(token), token
    return JsCode("".join(out), tuple(unsure))
