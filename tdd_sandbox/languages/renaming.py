"""Tests under neutral names: the metamorphic probe's answer to code that reads its caller.

A test's name can carry its answer (`test_fizzbuzz_of_3_is_fizz`, Exercism's `..._leap_year`),
and code can read the name of the test calling it by routes no list closes (a frame, the
runner's environment, a thread named after the test). Changing expected values does not
catch that: the name still says the answer. So the probe runs every test under a name that
says nothing, drawn unpredictably, and maps the outcomes back: honest code passes a renamed
test as it passed the original, code that answered from the name does not.

Only a name's declaration changes (the word after `def`/`fn`/`func`, the leading arguments of
`test(...)`/`TEST(...)`): a string of the same text elsewhere in the test is an input.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from tdd_sandbox.languages.tokens import Kind, Token, Tokenize, replaced

QUOTES = ("'", '"', "`")


@dataclass(frozen=True)
class Naming:
    """Where one language writes a test's name."""

    declared_by: frozenset[str] = frozenset()
    """Words a test's declared name follows (`def`, `fn`, `func`, `void`)."""
    named_by: frozenset[str] = frozenset()
    """Calls whose leading arguments name a test or its group (`test`, `describe`, `TEST`):
    the words and plain strings before the first bracket nested in them."""
    prefix: str = "t"
    """How a name starts for the runner to still collect the test (`test_`, `TestN`)."""


@dataclass(frozen=True)
class Renamed:
    """A test file's text with its tests' names made neutral."""

    text: str
    names: dict[str, str] = field(default_factory=dict)
    """Each neutral name the text now holds, and the name it stands for."""


def restored(test_id: str, names: Mapping[str, str]) -> str:
    """A test id of a run under neutral `names` (neutral to own) under the test's own name."""
    for neutral, name in names.items():
        test_id = test_id.replace(neutral, name)
    return test_id


def name_parts(test_id: str) -> list[str]:
    """The names a test id is made of, as a test file declares them: the test's own (after a
    module's `::`, a class's `.`), and its groups' (JavaScript's `describe > test`)."""
    last = test_id.rsplit("::", 1)[-1].split("[", 1)[0]
    parts = last.split(" > ")
    words = [part.rsplit(".", 1)[-1] for part in parts if "." in part]
    return [*parts, *(word for word in words if word.isidentifier())]


def rename_tests(
    text: str,
    naming: Naming,
    tokenize: Tokenize,
    names: Collection[str],
    rng: random.Random,
    given: dict[str, str] | None = None,
) -> Renamed:
    """`text` with every declaration of one of `names` given a neutral name; `given` (name
    to neutral) keeps one name's neutral name the same across files.

    Never raises: text the tokenizer cannot read is left as it is.
    """
    try:
        tokens = tokenize(text)
    except (SyntaxError, ValueError):
        return Renamed(text)
    chosen = {} if given is None else given
    edits: dict[int, tuple[Token, str]] = {}

    def neutral(name: str) -> str:
        if name not in chosen:
            chosen[name] = f"{naming.prefix}{rng.getrandbits(40):010x}"
        return chosen[name]

    for index, token in enumerate(tokens):
        before = tokens[index - 1] if index else None
        if (
            token.kind is Kind.WORD
            and token.text in names
            and before is not None
            and before.text in naming.declared_by
        ):
            edits[token.start] = (token, neutral(token.text))
        if token.text in naming.named_by and _opens(tokens, index + 1):
            for arg in _leading(tokens, index + 2):
                said = _plain(arg)
                if said is not None and said in names:
                    new = neutral(said)
                    edits[arg.start] = (
                        arg,
                        new if arg.kind is Kind.WORD else arg.text[0] + new + arg.text[0],
                    )
    used = {new.strip("".join(QUOTES)) for _, new in edits.values()}
    return Renamed(replaced(text, edits), {n: name for name, n in chosen.items() if n in used})


def _opens(tokens: list[Token], index: int) -> bool:
    return index < len(tokens) and tokens[index].kind is Kind.OPEN and tokens[index].text == "("


def _leading(tokens: list[Token], index: int) -> list[Token]:
    """The tokens of a call's arguments from `index` up to the first nested bracket or the
    call's end: where a test's name and its group's are written, never its body."""
    found = []
    for token in tokens[index:]:
        if token.kind in (Kind.OPEN, Kind.CLOSE, Kind.OPAQUE):
            break
        found.append(token)
    return found


def _plain(token: Token) -> str | None:
    """A word, or a string literal's text where it holds no escape (an escaped name is left
    alone rather than guessed at); None for anything else."""
    if token.kind is Kind.WORD:
        return token.text
    quoted = token.text
    if (
        token.kind is Kind.LITERAL
        and len(quoted) >= 2
        and quoted[0] in QUOTES
        and quoted[-1] == quoted[0]
        and "\\" not in quoted
    ):
        return quoted[1:-1]
    return None
