"""Functions the canonical data gives as inputs, in its own notation (list-ops' `(x) -> x
modulo 2 == 1`, `(acc, el) -> el + acc`), read on the host and written in a language's
lambda syntax. Only parameters, integers, arithmetic, comparisons and parentheses are read:
any other text is no function, so nothing of the data becomes code beyond that grammar."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

_NOTATION = re.compile(r"\(\s*(\w+(?:\s*,\s*\w+)*)?\s*\)\s*->\s*(.+)", re.DOTALL)
_TOKEN = re.compile(r"\s*(\d+|[A-Za-z_]\w*|==|!=|<=|>=|[-+*/<>()])")
_OPERATORS = frozenset({"+", "-", "*", "/", "%", "==", "!=", "<", ">", "<=", ">=", "(", ")"})
_WORDS = {"modulo": "%"}


@dataclass(frozen=True)
class Function:
    """A function of the data: its parameters, and its body as tokens (`%` for `modulo`)."""

    parameters: tuple[str, ...]
    body: tuple[str, ...]

    def python(self) -> str:
        """`lambda x: x % 2 == 1`."""
        return f"lambda {', '.join(self.parameters)}: {' '.join(self.body)}"


def read_function(value: object) -> Function | None:
    """The function `value` writes in the data's notation, or None where it is not one."""
    if not isinstance(value, str) or not (match := _NOTATION.fullmatch(value.strip())):
        return None
    parameters = tuple(p.strip() for p in (match[1] or "").split(",") if p.strip())
    text, body, at = match[2].strip(), [], 0
    while at < len(text):
        token = _TOKEN.match(text, at)
        if token is None:
            return None
        word = _WORDS.get(token[1], token[1])
        if not (word in _OPERATORS or word.isdigit() or word in parameters):
            return None
        body.append(word)
        at = token.end()
    return Function(parameters, tuple(body)) if body else None


def all_functions(values: Sequence[object]) -> bool:
    """Whether every one of `values` (an input's, case by case) is a function of the data."""
    return bool(values) and all(read_function(v) is not None for v in values)
