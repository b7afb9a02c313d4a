"""The tests a `node --test` file defines, read from its source: calls of `test` and `it`
whose name is a literal."""

from __future__ import annotations

import re
from collections.abc import Iterable

from tdd_sandbox.languages.javascript.reader import read_javascript

_CALL = re.compile(
    r"(?<![\w.$])(?P<kind>describe|suite|test|it)(?:\s*\.\s*(?:skip|todo|only))?\s*\("
)


def literal_test_names(text: str) -> Iterable[str]:
    """Test names with their suites (`suite > name`), for calls whose name is a literal."""
    code = read_javascript(text).code
    spans: list[tuple[int, int, str, str]] = []  # start, end, kind, name
    for match in _CALL.finditer(code):
        start = match.end()
        while start < len(text) and text[start].isspace():
            start += 1
        name = _literal(text, start)
        if name is None:
            continue
        spans.append((match.start(), _closing(code, code.index("(", match.start())),
                      match["kind"], name))  # fmt: skip
    for start, _end, kind, name in spans:
        if kind in ("test", "it"):
            suites = [n for s, e, k, n in spans if k in ("describe", "suite") and s < start < e]
            yield " > ".join([*suites, name])


def _literal(text: str, at: int) -> str | None:
    """The string literal starting at `at` if it has no escapes or interpolation."""
    quote = text[at : at + 1]
    if quote not in ("'", '"', "`"):
        return None
    end = text.find(quote, at + 1)
    body = text[at + 1 : end] if end > 0 else ""
    if end < 0 or "\\" in body or "\n" in body or (quote == "`" and "${" in body):
        return None
    return body


def _closing(code: str, opening: int) -> int:
    depth = 0
    for index in range(opening, len(code)):
        if code[index] == "(":
            depth += 1
        elif code[index] == ")":
            depth -= 1
            if depth == 0:
                return index
    return len(code)
