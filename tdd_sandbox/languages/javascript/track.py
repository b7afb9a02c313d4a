"""Exercism's JavaScript specs made `node --test` files: the track writes Jest (`*.spec.js`,
the globals `describe`, `test`, `xtest` and `expect`, imports without a file extension that
Babel resolves), and the pack runs node's runner under its guard. The spec's text is kept,
with four changes made where its code is (never inside a string or a comment): the globals
imported from the image's module of them, whose `expect` is Jest's own; the spec's own import
of them (`@jest/globals`, as today's track writes, or `vitest`; ES or CommonJS) left out, so
that each is declared once; `xtest`, `xit` and `xdescribe` (pending) and `test.skip`,
`it.skip` and `describe.skip` (skipped, as the track does with a slow test) made `test`,
`it` and `describe` (a hidden suite runs every test, as Rust's `#[ignore]` is lifted); and
each relative import rebased to where the file goes, `.js` added."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from pathlib import PurePosixPath

from tdd_sandbox.languages.javascript.flavour import JAVASCRIPT_FLAVOUR, NodeFlavour
from tdd_sandbox.languages.javascript.reader import read_javascript

GLOBALS = "/opt/js/jest-globals.mjs"
"""The image's module of Jest's globals (its `image/jest-globals.mjs`)."""
TEST_FOLDER = "test"

_SKIPPED = re.compile(
    r"(?<![\w$.])(?:x(test|it|describe)(?=\s*[(.])|(test|it|describe)\s*\.\s*skip(?=\s*\())"
)
_RELATIVE = re.compile(
    r"""(\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)(['"])(\.\.?/[^'"\n]*)\2"""
)
_FRAMEWORK = r"""(?:'(?:@jest/globals|vitest)'|"(?:@jest/globals|vitest)")"""
_OWN_IMPORT = re.compile(
    rf"^[ \t]*(?:import\s*\{{[^}}]*\}}\s*from\s*{_FRAMEWORK}"
    rf"|(?:const|let|var)\s*\{{[^}}]*\}}\s*=\s*require\(\s*{_FRAMEWORK}\s*\))"
    r"[ \t]*;?[ \t]*\n?",
    re.MULTILINE,
)
"""A spec's own import of the framework's globals, which the header declares."""
_HEADER = (
    "import { describe, test, it, expect, beforeEach, afterEach, beforeAll, afterAll } "
    f'from "{GLOBALS}";\n'
)


def is_spec(path: str, flavour: NodeFlavour = JAVASCRIPT_FLAVOUR) -> bool:
    """Whether a track's test file is a Jest spec (`*.spec.js`; TypeScript's `*.test.ts`)."""
    return bool(flavour.spec.search(path))


def from_spec(path: str, text: str, flavour: NodeFlavour = JAVASCRIPT_FLAVOUR) -> tuple[str, str]:
    """The spec at `path` (relative to the exercise) as a `node --test` file: its path under
    `test/`, `.spec.js` made `.test.js`, and its text (relative imports without a suffix
    given the flavour's first)."""
    target = TEST_FOLDER + "/" + flavour.spec.sub(r".test\g<1>", path)
    here, there = posixpath.dirname(path), posixpath.dirname(target)

    def rebase(match: re.Match[str]) -> str:
        lead, quote, specifier = match.groups()
        moved = posixpath.relpath(posixpath.normpath(posixpath.join(here, specifier)), there)
        moved = moved if moved.startswith("../") else f"./{moved}"
        if not PurePosixPath(moved).suffix:
            moved += flavour.suffixes[0]
        return f"{lead}{quote}{moved}{quote}"

    rebased = _in_code(_RELATIVE, rebase, _in_code(_OWN_IMPORT, lambda _: "", text))
    return target, _HEADER + _in_code(_SKIPPED, lambda m: m.group(1) or m.group(2), rebased)


def shown(text: str) -> str:
    """A spec made a `node --test` file, as a model is shown it: without the line that
    imports Jest's globals from the image's module, a path of the harness (the track's own
    specs use the globals with no import, or one from `@jest/globals`)."""
    return text.removeprefix(_HEADER)


def _in_code(pattern: re.Pattern[str], change: Callable[[re.Match[str]], str], text: str) -> str:
    """`text` with each match of `pattern` that starts in code (not in a string or a
    comment) replaced by `change(match)`."""
    code = read_javascript(text).code

    def where_code(match: re.Match[str]) -> str:
        return change(match) if code[match.start()] == text[match.start()] else match.group(0)

    return pattern.sub(where_code, text)
