"""Reading Python source as CPython does: its encoding declaration, and the grammar the judge
reads."""

from __future__ import annotations

import ast
import io
import sys
import threading
import tokenize

JUDGE_PYTHON = f"{sys.version_info.major}.{sys.version_info.minor}"
"""The Python whose grammar the judge reads Python code with: the host's own, which may be
older than the sandbox's (a file it cannot parse is refused, never skipped)."""


def python_text(data: bytes) -> str:
    """The text CPython reads from `data`: decoded as its encoding declaration says (PEP 263),
    a byte-order mark dropped. Reading it as plain UTF-8 instead let a `coding: utf-7` file or
    a BOM hide code from the policy while the interpreter ran it (tests/helpers/hidden_code.py)."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding, "replace")
    except (SyntaxError, LookupError, UnicodeError):
        return data.decode("utf-8", "replace")  # the interpreter refuses it too


# CPython 3.11's ast module counts the depth of the tree it builds per interpreter, not per
# thread: two threads parsing at once (a collection switching between them mid-build) raise
# "SystemError: AST constructor recursion depth mismatch". The host reads Python in threads
# (an attempt race, `bench --jobs`, an import's proof), so every parse takes turns.
_PARSING = threading.Lock()


def parse_python(source: str | bytes, filename: str = "<unknown>") -> ast.Module:
    """`ast.parse`, one thread at a time (see `_PARSING`).

    Raises:
        SyntaxError: the source is not Python (ValueError: it holds a null byte).
    """
    with _PARSING:
        return ast.parse(source, filename=filename)
