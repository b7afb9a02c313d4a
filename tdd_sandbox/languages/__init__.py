"""Language plug-ins and their registry: one explicit dict, one module per language."""

from __future__ import annotations

from collections.abc import Iterable

from tdd_sandbox.errors import UsageError
from tdd_sandbox.languages.base import Language
from tdd_sandbox.languages.cpp import CPP
from tdd_sandbox.languages.go import GO
from tdd_sandbox.languages.java import JAVA
from tdd_sandbox.languages.javascript import JAVASCRIPT
from tdd_sandbox.languages.python import PYTHON
from tdd_sandbox.languages.rust import RUST

LANGUAGES: dict[str, Language] = {
    "python": PYTHON,
    "rust": RUST,
    "go": GO,
    "javascript": JAVASCRIPT,
    "cpp": CPP,
    "java": JAVA,
}


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
