"""A literal changed for the probe: another of the same type (a letter for a letter, a
number one nearer zero, `true` for `false`), so that the changed test compiles wherever
the original did and no judge-made shape tells the two apart."""

from __future__ import annotations

import random
import re
import string

from tdd_sandbox.languages.tokens import Kind, Token


def changed_literal(
    token: Token, bools: tuple[str, str], rng: random.Random, *, chars: bool
) -> str | None:
    """Another literal of the same type as `token` (`bools`: how the language spells true
    and false; `chars`: whether `'a'` is one character), or None where none is safe to
    write."""
    if token.kind is Kind.BOOL:
        true, false = bools
        return false if token.text == true else true
    text = token.text
    if text[0].isdigit() or (text[0] == "." and text[1:2].isdigit()):
        return _number(text)
    quote = next((k for k, c in enumerate(text) if c in "\"'"), None)
    if quote is None or "R" in text[:quote]:
        return None  # a C++ raw string's delimiter is no place to write
    end = text.rfind(text[quote])
    width = 3 if text[quote : quote + 3] in ('"""', "'''") else 1
    body_start, body_end = quote + width, end - width + 1
    body = text[body_start:body_end]
    plain = body.split("\\", 1)[0]  # never inside an escape: it might stop being one
    spots = [k for k, c in enumerate(plain) if c.isascii() and c.isalnum()]
    if not spots:
        if chars and text[quote] == "'" and width == 1:
            return None  # a character: nothing of the same kind to write
        return text[:body_start] + body + "x" + text[body_end:] if "\\" not in body else None
    k = rng.choice(spots)
    pool = (
        string.digits if plain[k].isdigit()
        else string.ascii_uppercase if plain[k].isupper() else string.ascii_lowercase
    )  # fmt: skip
    new = rng.choice([c for c in pool if c != plain[k]])
    return text[: body_start + k] + new + text[body_start + k + 1 :]


_INT = re.compile(r"(\d[\d_']*?)(_?[a-zA-Z]\w*)?$")
_FLOAT = re.compile(r"(\d*)(\.\d*(?:[eE][+-]?\d+)?|[eE][+-]?\d+)(_?[a-zA-Z]\w*)?$")


def _number(text: str) -> str | None:
    """A decimal integer one nearer zero (so it fits whatever type the original did; zero
    becomes one), a decimal float one more; other bases are left alone."""
    if text[:2].lower() in ("0x", "0b", "0o"):
        return None
    if match := _FLOAT.match(text):
        whole = int(match.group(1) or "0")
        return f"{whole + 1}{match.group(2)}{match.group(3) or ''}"
    if match := _INT.match(text):
        value = int(re.sub("[_']", "", match.group(1)))
        return f"{value - 1 if value else 1}{match.group(2) or ''}"
    return None
