"""Mutants of a reference solution, to measure tests by the bugs they catch (`bench --mode
test`). Each mutant changes one token of one code file, by a few operators that read the same
in every language the packs tokenize: a relational operator for its neighbour (`<` for `<=`,
`==` for `!=`), an arithmetic or logical one for its opposite (`+` for `-`, `&&` for `||`,
`and` for `or`), an integer literal for the next, a boolean for the other. The change keeps
the token's kind, so a mutant builds wherever the reference did, nearly always (a `<` that
opened a generic does not): the caller drops a mutant the hidden suite cannot run, as it drops
one the suite passes (equivalent), so neither counts for or against a test.

`equivalent_mutants` are the other way round: changes of text that keep behaviour, which no
test of behaviour can tell from the reference.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from tdd_sandbox.languages.parts import Policy
from tdd_sandbox.languages.tokens import Kind, Token

_SWAPS = {
    "<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "==",
    "+": "-", "-": "+", "&&": "||", "||": "&&",
}  # fmt: skip
_WORD_SWAPS = {"and": "or", "or": "and"}
_INTEGER = re.compile(r"\d+")
TIMEOUT_S = 20.0
"""A run of a mutant's past this is hung (a loop whose step a mutation turned around): it
is stopped there, not at the sandbox's limit for honest code."""
LIMIT = 24
"""Mutants per kata and language at most, spread evenly over the candidates: each costs a run
of the hidden suite and one of the tests measured."""


@dataclass(frozen=True)
class Mutant:
    """The reference with one token changed."""

    path: str
    line: int
    was: str
    now: str
    files: Mapping[str, bytes]

    def describe(self) -> str:
        """Where and what, for people."""
        return f"{self.path}:{self.line}: {self.was} -> {self.now}"


def make_mutants(
    language: Policy, files: Mapping[str, bytes], code: list[str], *, limit: int = LIMIT
) -> list[Mutant]:
    """Up to `limit` mutants of the `code` paths of `files`, in source order, spread evenly
    over every candidate token (the same ones each time for the same files)."""
    candidates: list[tuple[str, Token, str]] = []
    for path in code:
        text = files[path].decode("utf-8", "replace")
        for token in language.expectations.tokenize(text):
            if (changed := _mutation(language, token)) is not None:
                candidates.append((path, token, changed))
    if len(candidates) > limit:
        step = len(candidates) / limit
        candidates = [candidates[int(i * step)] for i in range(limit)]
    mutants = []
    for path, token, changed in candidates:
        text = files[path].decode("utf-8", "replace")
        mutated = text[: token.start] + changed + text[token.start + len(token.text) :]
        line = text.count("\n", 0, token.start) + 1
        mutants.append(Mutant(path, line, token.text, changed, {**files, path: mutated.encode()}))
    return mutants


def equivalent_mutants(
    language: Policy, files: Mapping[str, bytes], code: list[str]
) -> list[Mutant]:
    """Mutants that change a code file's text and not what it does: a blank line between two
    of its lines (outside any literal, after no line continuation) and one more newline at
    its end, in every language the packs read. A test that fails on one reads the code's
    text, not its behaviour (a digest of the source kills every mutant). The caller keeps
    only those the kata's own suite still passes whole."""
    made = []
    for path in code:
        text = files[path].decode("utf-8", "replace")
        spans = [
            (token.start, token.start + len(token.text))
            for token in language.expectations.tokenize(text)
            if token.kind in (Kind.LITERAL, Kind.OPAQUE)
        ]
        starts = [
            at for at in _line_starts(text)
            if not text[:at].rstrip("\n").endswith("\\")
            and not any(low < at < high for low, high in spans)
        ]  # fmt: skip
        if starts:
            at = starts[len(starts) // 2]
            line = text.count("\n", 0, at) + 1
            blank = text[:at] + "\n" + text[at:]
            made.append(Mutant(path, line, "", "a blank line", {**files, path: blank.encode()}))
        end = text.count("\n") + 1
        made.append(Mutant(path, end, "", "one more newline at the end",
                           {**files, path: (text + "\n").encode()}))  # fmt: skip
    return made


def _line_starts(text: str) -> list[int]:
    """Where each line after the first begins, past the file's first and before its last."""
    return [i + 1 for i, char in enumerate(text[:-1]) if char == "\n" and i > 0]


def _mutation(language: Policy, token: Token) -> str | None:
    if token.kind is Kind.OP:
        return _SWAPS.get(token.text)
    if token.kind is Kind.WORD:
        return _WORD_SWAPS.get(token.text)
    if token.kind is Kind.BOOL:
        true, false = language.expectations.bools
        return {true: false, false: true}.get(token.text)
    if token.kind is Kind.LITERAL and _INTEGER.fullmatch(token.text):
        return str(int(token.text) + 1)
    return None
