"""Which Go files `go test` builds: a file's `//go:build` line and its name's `_GOOS` or
`_GOARCH` suffix, read as the go command reads them in the image (linux, no extra tags), so
that a test behind a tag nobody sets (Exercism's `//go:build bonus`) is no expected test."""

from __future__ import annotations

import platform
import re
from collections.abc import Callable
from pathlib import PurePosixPath

from tdd_sandbox.languages.go.reader import TOOLCHAIN

_ARCHES = {"x86_64": "amd64", "aarch64": "arm64", "arm64": "arm64", "amd64": "amd64"}
_GOARCH = _ARCHES.get(platform.machine().lower(), platform.machine().lower())
"""The images run on the host's architecture."""
_SATISFIED = frozenset({"linux", "unix", "gc", _GOARCH})
_KNOWN_OS = frozenset({
    "aix", "android", "darwin", "dragonfly", "freebsd", "hurd", "illumos", "ios", "js",
    "linux", "nacl", "netbsd", "openbsd", "plan9", "solaris", "wasip1", "windows", "zos",
})  # fmt: skip
_KNOWN_ARCH = frozenset({
    "386", "amd64", "arm", "arm64", "loong64", "mips", "mipsle", "mips64", "mips64le",
    "ppc64", "ppc64le", "riscv64", "s390x", "wasm",
})  # fmt: skip
_LINE = re.compile(r"//go:build[ \t]+(.*)")
_TOKEN = re.compile(r"\s*(\|\||&&|!|\(|\)|[\w.]+)")
_RELEASE = re.compile(r"go1\.(\d+)")


def builds(path: str, text: str) -> bool:
    """Whether `go test` in the image builds the file at `path` whose source is `text`."""
    parts = PurePosixPath(path).stem.removesuffix("_test").split("_")[1:]
    if parts and parts[-1] in _KNOWN_ARCH and parts.pop() != _GOARCH:
        return False
    if parts and parts[-1] in _KNOWN_OS and parts[-1] != "linux":
        return False
    expression = _constraint(text)
    return expression is None or _satisfied(expression)


def _constraint(text: str) -> str | None:
    """The file's `//go:build` expression: only comments and blank lines come before it."""
    for line in text.splitlines():
        stripped = line.strip()
        if match := _LINE.fullmatch(stripped):
            return match[1]
        if stripped and not stripped.startswith("//"):
            return None  # the package clause, or a block comment: no constraint after it
    return None


def _satisfied(expression: str) -> bool:
    """The expression evaluated with the image's tags; one the go command cannot parse
    fails the build, so it builds nothing either."""
    tokens = _TOKEN.findall(expression)
    if "".join(tokens) != re.sub(r"\s", "", expression):
        return False
    try:
        value, rest = _either(tokens)
    except (IndexError, ValueError):  # ended early, or an operator out of place
        return False
    return value if not rest else False


def _either(tokens: list[str]) -> tuple[bool, list[str]]:
    return _joined(tokens, "||", _both)


def _both(tokens: list[str]) -> tuple[bool, list[str]]:
    return _joined(tokens, "&&", _one)


def _joined(
    tokens: list[str], operator: str, operand: Callable[[list[str]], tuple[bool, list[str]]]
) -> tuple[bool, list[str]]:
    """Operands joined by `operator` (`||` or `&&`), left to right."""
    value, tokens = operand(tokens)
    while tokens and tokens[0] == operator:
        right, tokens = operand(tokens[1:])
        value = (value or right) if operator == "||" else (value and right)
    return value, tokens


def _one(tokens: list[str]) -> tuple[bool, list[str]]:
    head, rest = tokens[0], tokens[1:]
    if head == "!":
        value, rest = _one(rest)
        return not value, rest
    if head == "(":
        value, rest = _either(rest)
        if not rest or rest[0] != ")":
            raise ValueError("unclosed")
        return value, rest[1:]
    if head in ("&&", "||", ")"):
        raise ValueError("misplaced operator")
    release = _RELEASE.fullmatch(head)
    return (int(release[1]) <= TOOLCHAIN[1] if release else head in _SATISFIED), rest
