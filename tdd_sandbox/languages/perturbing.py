"""Tests with their expected values changed: the metamorphic probe's half that reads code.

Code that answers a test from the test's own text (the literal on the caller's line, read by
any route) passes that test whatever its expected value says; code that computes the answer
fails it once the value changes. So the judge changes the expected values of a test and
runs it again: still passing means answered from the text. Only the expected side changes,
and only where an assertion's shape says which side that is (an equality assertion's constant
operand, an `expected`/`want` variable); a test in no shape a pack knows is not probed, never
guessed at, because a wrong guess would call honest code a cheat.

A change swaps one literal token for another of the same type (a letter for a letter, a
number for a nearby number that fits the same type, `true` for `false`), so the changed test
compiles wherever the original did and no judge-made shape tells the two apart.
"""

from __future__ import annotations

import bisect
import difflib
import random
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from tdd_sandbox.languages.literal_change import changed_literal
from tdd_sandbox.languages.tokens import Kind, Token, Tokenize, replaced


@dataclass(frozen=True)
class Expectations:
    """How one language writes the expected side of an assertion."""

    tokenize: Tokenize
    equal_calls: frozenset[str]
    """Calls comparing their first two arguments (or, with one, the value it is called on)."""
    truth_calls: frozenset[str] = frozenset()
    """Calls or statements asserting their argument, whose `==` names the expected side."""
    equal_ops: frozenset[str] = frozenset({"=="})
    failing_if: bool = False
    """`if a != b {` reports a failure (Go's tests have no assertion calls)."""
    message_calls: frozenset[str] = frozenset()
    """Calls that report a failure, whose words may repeat the expected value."""
    constant_words: frozenset[str] = frozenset()
    """Words an expected value may be built with (`vec`, `String::from`, `List.of`)."""
    bools: tuple[str, str] = ("true", "false")
    chars: bool = True
    """`'a'` is one character (else a string like any other)."""


@dataclass(frozen=True)
class Perturbed:
    """A test file's text with expected values changed, and the 1-based lines changed."""

    text: str
    lines: tuple[int, ...] = field(default=())


_EXPECTED_NAME = re.compile(r"(?i)^(want(ed)?|expected?|exp|expectation)$")


def perturb_expected(
    text: str, spelling: Expectations, lines: Collection[int] | None, rng: random.Random
) -> Perturbed:
    """`text` with the expected value of every assertion on `lines` (None: anywhere) changed.

    Never raises: text a tokenizer cannot read is left as it is (and so not probed).
    """
    try:
        tokens = spelling.tokenize(text)
    except (SyntaxError, ValueError):
        return Perturbed(text)
    starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line_of(token: Token) -> int:
        return bisect.bisect_right(starts, token.start)

    edits: dict[int, tuple[Token, str]] = {}
    sides, messages = _expected_sides(tokens, spelling)
    for side in sides:
        changed = [
            (token, new)
            for k, token in enumerate(side)
            if token.kind in _VALUES
            and not _is_shape(side, k)
            and (new := changed_literal(token, spelling.bools, rng, chars=spelling.chars))
            is not None
            and new != token.text
        ]
        if not changed or (lines is not None and any(line_of(t) not in lines for t, _ in changed)):
            continue
        edits.update((token.start, (token, new)) for token, new in changed)
    # A failure message repeating the expected value would still hold the answer.
    same = {token.text: new for token, new in edits.values()}
    edits.update(
        (token.start, (token, same[token.text]))
        for token in messages
        if token.text in same and (lines is None or line_of(token) in lines)
    )
    if not edits:
        return Perturbed(text)
    return Perturbed(replaced(text, edits), tuple(sorted({line_of(t) for t, _ in edits.values()})))


_VALUES = frozenset({Kind.LITERAL, Kind.BOOL})
_DEPTH = {Kind.OPEN: 1, Kind.CLOSE: -1}
_OPERATORS = frozenset({Kind.OP, Kind.WORD})


def _expected_sides(
    tokens: Sequence[Token], spelling: Expectations
) -> tuple[list[list[Token]], list[Token]]:
    """Every run of tokens that is an assertion's expected side, and the tokens of the
    assertions' failure messages."""
    sides: list[list[Token]] = []
    messages: list[Token] = []
    for i, token in enumerate(tokens):
        if token.kind is not Kind.WORD:
            continue
        if token.text in spelling.equal_calls:
            args = _call_args(tokens, i) or []
            sides += _constant_of(args[:2] if len(args) > 1 else args, spelling)
            messages += [t for arg in args[2:] for t in arg]
        elif token.text in spelling.truth_calls:
            body = _call_args(tokens, i)
            if body is None:  # a statement: `assert a == b, "why"` up to its line's end
                body = _split(_until(tokens, i + 1, Kind.END), ",")
            sides += _compared(body[0], spelling, spelling.equal_ops)
            messages += [t for arg in body[1:] for t in arg]
        elif token.text in spelling.message_calls:
            messages += [t for arg in _call_args(tokens, i) or [] for t in arg]
        elif token.text == "if" and spelling.failing_if:
            condition = _split(_until(tokens, i + 1, Kind.OPEN, "{"), ";")[-1]
            sides += _compared(condition, spelling, frozenset({"!="}))
        elif _EXPECTED_NAME.match(token.text):
            sides += _assigned(tokens, i, spelling)
    return sides, messages


def _is_shape(side: Sequence[Token], k: int) -> bool:
    """Whether the literal at `k` shapes the value rather than holding it: an array type's
    length (Go's `[2]int`: changed, the value no longer fits its type) or a map's key
    (`{"A": 9}`: keys drawn anew may repeat, which Go refuses to compile). A changed test
    that does not compile fails honest code and cheat alike, and so tells nothing."""
    before = side[k - 1].text if k > 0 else ""
    after = side[k + 1].text if k + 1 < len(side) else ""
    if before == "[" and after == "]" and k + 2 < len(side):
        following = side[k + 2]
        return following.kind is Kind.WORD or following.text in ("[", "*")
    return after == ":" and before in ("{", ",")


def _call_args(tokens: Sequence[Token], i: int) -> list[list[Token]] | None:
    """The top-level arguments of the call (or macro call) whose name is at `i`."""
    j = i + 1
    if j < len(tokens) and tokens[j].text == "!":
        j += 1
    if j >= len(tokens) or tokens[j].text != "(":
        return None
    depth, inner = 0, list[Token]()
    for token in tokens[j:]:
        depth += _DEPTH.get(token.kind, 0)
        if depth == 0:
            return _split(inner[1:], ",")
        inner.append(token)
    return None


def _until(tokens: Sequence[Token], i: int, kind: Kind, text: str = "") -> list[Token]:
    """The tokens from `i` up to the first top-level one of `kind` (and `text`)."""
    depth, out = 0, []
    for token in tokens[i:]:
        if depth == 0 and token.kind is kind and token.text.startswith(text):
            break
        if depth == 0 and token.kind is Kind.CLOSE:
            break
        depth += _DEPTH.get(token.kind, 0)
        out.append(token)
    return out


def _split(tokens: Sequence[Token], separator: str) -> list[list[Token]]:
    """`tokens` split at each top-level `separator`."""
    parts: list[list[Token]] = [[]]
    depth = 0
    for token in tokens:
        if depth == 0 and token.text == separator:
            parts.append([])
            continue
        depth += _DEPTH.get(token.kind, 0)
        parts[-1].append(token)
    return parts


def _compared(
    tokens: Sequence[Token], spelling: Expectations, operators: frozenset[str]
) -> list[list[Token]]:
    """The constant side of a comparison `a OP b` (none when not exactly one operator)."""
    top, depth = [], 0
    for k, token in enumerate(tokens):
        if depth == 0 and token.kind in _OPERATORS and token.text in operators:
            top.append(k)  # `is` is a word to Python
        depth += _DEPTH.get(token.kind, 0)
    if len(top) != 1:
        return []
    return _constant_of([list(tokens[: top[0]]), list(tokens[top[0] + 1 :])], spelling)


def _constant_of(operands: Sequence[list[Token]], spelling: Expectations) -> list[list[Token]]:
    """The one operand that is a constant; none when no operand or every operand is one
    (`assert_eq!(1, 1)` compares nothing the code computes)."""
    constant = [o for o in operands if _is_constant(o, spelling)]
    return constant if len(constant) == 1 else []


def _is_constant(tokens: Sequence[Token], spelling: Expectations) -> bool:
    """Literals built only with the language's constructor words."""
    if not any(t.kind in _VALUES for t in tokens):
        return False
    return all(
        t.kind is not Kind.OPAQUE and (t.kind is not Kind.WORD or t.text in spelling.constant_words)
        for t in tokens
    )


def _assigned(tokens: Sequence[Token], i: int, spelling: Expectations) -> list[list[Token]]:
    """The value an `expected`/`want` variable is given where it is declared, or a keyed
    field of a composite literal gets (a Go table's `{year: 2015, expected: false}`)."""
    before = next((t for t in reversed(tokens[:i]) if t.kind is not Kind.END), None)
    keyed = [t.text for t in tokens[i + 1 : i + 2]] == [":"]
    if keyed and before is not None and before.text in ("{", ","):
        value = _until(tokens, i + 2, Kind.OP, ",")
        return [value] if _is_constant(value, spelling) else []
    j = i + 1  # past a declared type: `let expected: &str =`, `want :=`
    while j < min(len(tokens), i + 8) and (
        tokens[j].kind is Kind.WORD or tokens[j].text in _TYPE_MARKS
    ):
        j += 1
    if j >= len(tokens) or tokens[j].text not in ("=", ":="):
        return []
    value = _split(_until(tokens, j + 1, Kind.END), ";")[0]
    return [value] if _is_constant(value, spelling) else []


_TYPE_MARKS = frozenset({":", "::", "&", "*", "<", ">", "[", "]"})


def added_lines(before: str, after: str) -> frozenset[int]:
    """The 1-based lines of `after` that are not in `before` (inserted or rewritten)."""
    old, new = before.splitlines(), after.splitlines()
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    return frozenset(
        line + 1
        for tag, _, _, low, high in matcher.get_opcodes()
        if tag in ("insert", "replace")
        for line in range(low, high)
    )
