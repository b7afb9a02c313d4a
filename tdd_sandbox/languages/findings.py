"""A linter's findings, read by where they lie: the ones in a test file that no implementation
can clear (an unused import in the test itself), which make a RED test one that can never
turn green, since no role but the tester may touch a test file.

Linters write a finding in one of a few shapes; each pack names the reader of its linter's:
- `path:line:col: message` (ruff's concise output, go vet, gcc): `at_line_start`;
- a header line, then ` --> path:line:col` (rustc and clippy): `rust_blocks`;
- a file's path on a line of its own, then its findings indented (eslint's default):
  `file_sections`.
A compile error a missing implementation causes (an unknown name) is never the test's fault:
each reader leaves those out as its linter marks them.
"""

from __future__ import annotations

import re
from collections.abc import Collection

_AT_LINE_START = re.compile(r"^(?:\./)?(?P<path>[^\s:][^:\n]*):\d+:(?:\d+:)? ")
_RUST_HEADER = re.compile(r"^(?P<level>error|warning)(?P<code>\[E\d{4}\])?: ")
_RUST_WHERE = re.compile(r"^\s*--> (?P<path>[^:\n]+):\d+:\d+")
_ESLINT_FINDING = re.compile(r"^\s+\d+:\d+\s+(?:error|warning)\s+")


def in_tests(path: str, tests: Collection[str]) -> bool:
    """Whether a linter's `path` (relative, `./`-led or absolute inside the sandbox) is one
    of `tests` (relative, POSIX)."""
    path = path.strip().removeprefix("./")
    return any(path == test or path.endswith("/" + test) for test in tests)


def at_line_start(output: str, tests: Collection[str], *, skip: str = "") -> list[str]:
    """Findings written `path:line:col: message` whose path is a test (lines that start
    with `skip`, such as go vet's type errors, aside)."""
    found = []
    for line in output.splitlines():
        if skip and line.startswith(skip):
            continue
        match = _AT_LINE_START.match(line)
        if match and in_tests(match["path"], tests):
            found.append(line.strip())
    return found


def rust_blocks(output: str, tests: Collection[str]) -> list[str]:
    """rustc's and clippy's findings in a test file, the errors with a code (`E0425`: a
    name not found, which the implementation may be the one to define) aside: a lint clippy
    turned into an error (`-D warnings`) carries none."""
    found = []
    header: str | None = None
    for line in output.splitlines():
        if match := _RUST_HEADER.match(line):
            header = None if match["code"] else line.strip()
            continue
        where = _RUST_WHERE.match(line)
        if where and header is not None:
            if in_tests(where["path"], tests):
                found.append(f"{where['path'].strip()}: {header}")
            header = None
    return found


def file_sections(output: str, tests: Collection[str]) -> list[str]:
    """Findings listed under their file's path (eslint's default), in a test file."""
    found = []
    current = ""
    for line in output.splitlines():
        if line and not line[0].isspace():
            current = line.strip()
        elif _ESLINT_FINDING.match(line) and in_tests(current, tests):
            found.append(f"{current}: {line.strip()}")
    return found
