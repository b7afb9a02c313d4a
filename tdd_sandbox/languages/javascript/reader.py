"""Reading JavaScript source as its lexer does: comments, strings, template literals (their
interpolations are code) and regular expressions."""

from __future__ import annotations

import re
from dataclasses import dataclass


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


JS_LITERALS = re.compile(
    r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`", re.DOTALL
)
"""JavaScript's comments, strings and template literals, each whole (a template's `${...}` is
inside it): enough to find tokens in a test, not to police code, which `read_javascript` does."""
