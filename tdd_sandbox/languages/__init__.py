"""The language packs and their one registry.

Each pack is a folder here (`python/`, `rust/`, ...) whose `__init__` makes its plug-in; this
module registers them, refusing any that lacks a part, so no language can run model code
without a policy, a reader, a driver or an image.
"""

from __future__ import annotations

from collections.abc import Iterable

from tdd_sandbox.errors import UsageError
from tdd_sandbox.languages.base import Language
from tdd_sandbox.languages.cpp import CPP
from tdd_sandbox.languages.go import GO
from tdd_sandbox.languages.java import JAVA
from tdd_sandbox.languages.javascript import JAVASCRIPT
from tdd_sandbox.languages.python import PYTHON
from tdd_sandbox.languages.registry import register
from tdd_sandbox.languages.rust import RUST
from tdd_sandbox.languages.typescript import TYPESCRIPT

# TypeScript before JavaScript: a TypeScript package has a package.json too.
LANGUAGES: dict[str, Language] = register(PYTHON, RUST, GO, TYPESCRIPT, JAVASCRIPT, CPP, JAVA)
"""Every pack by name, in the order detection tries them."""


def get_language(name: str) -> Language:
    """The plug-in registered as `name`.

    Raises:
        UsageError: no such language; the message lists the known ones.
    """
    try:
        return LANGUAGES[name.lower()]
    except KeyError:
        known = ", ".join(sorted(LANGUAGES))
        raise UsageError(f"unknown language {name!r}: choose one of {known}") from None


def detect_language(paths: Iterable[str]) -> Language:
    """The language of a repo holding `paths`.

    Raises:
        UsageError: no plug-in recognises the repo; pass --language.
    """
    listed = list(paths)
    for language in LANGUAGES.values():
        if language.detect(listed):
            return language
    known = ", ".join(sorted(LANGUAGES))
    raise UsageError(f"cannot tell the repo's language: pass --language ({known})")
