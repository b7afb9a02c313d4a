"""The static policy for Go: the means a kata's code needs none of, refused before anything runs.

A Go test binary runs the tests and the code under test in one process, and the go command
turns whatever that process prints into the results. So code may not reach the process, its
files or its environment (`os`, `syscall`, `runtime`...), may not write memory or link to the
runtime's internals (`unsafe`, `//go:linkname`), may not read files into the build
(`//go:embed`) and may not print to stdout, where results are read from. Tests may not take
over the run with a `TestMain`.
"""

from __future__ import annotations

import re

from tdd_sandbox.languages.go.reader import GO_LEXEMES
from tdd_sandbox.languages.lexing import blank
from tdd_sandbox.vocabulary.violation import Violation

_PROCESS = "reaches the process, its files or its environment"
_IMPORTS = {
    "unsafe": "writes memory directly",
    "C": "links foreign code",
    "os": _PROCESS,
    "syscall": _PROCESS,
    "runtime": "changes how the process runs or ends",
    "testing": "reaches into the test runner",
    "embed": "reads files into the build",
    "io/fs": "reads the file system (the tests' answers among it)",
    "io/ioutil": "reads the file system (the tests' answers among it)",
    "path/filepath": "reads the file system (the tests' answers among it)",
    "debug": "reads the binary's own symbols",
    "plugin": "loads foreign code",
    "net": "reaches the network",
    "log/syslog": "reaches the system's logger",
    "golang.org/x/sys": _PROCESS,
}
_TEST_IMPORTS = frozenset({"testing", "os", "path/filepath", "io/fs"})
_DIRECTIVE = re.compile(r"^//go:(linkname|embed|cgo_\w+)\b|^//export\b", re.MULTILINE)
_PRINT = re.compile(r"\bfmt\s*\.\s*Print(?:f|ln)?\b|(?<![.\w])print(?:ln)?\s*\(")
_TEST_MAIN = re.compile(r"^func\s+TestMain\s*\(", re.MULTILINE)
_IMPORT_BLOCK = re.compile(r"^import\s*(\([^)]*\)|[\w.]*\s*\"[^\"]*\")", re.MULTILINE)
_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)


def check_go(path: str, text: str, *, is_test: bool = False) -> list[Violation]:
    """Violations in one Go file. Tests may use `testing`, `os` and the file system (their
    fixtures), and print; they may not define `TestMain`."""
    found: list[Violation] = []

    def flag(offset: int, rule: str, why: str, source: str) -> None:
        found.append(Violation(path, source.count("\n", 0, offset) + 1, rule, why))

    for match in _DIRECTIVE.finditer(text):
        flag(match.start(), "directive", f"{match.group(0)!r} hooks the linker or the build", text)
    uncommented = blank(text, _COMMENTS)
    for block in _IMPORT_BLOCK.finditer(uncommented):
        for name in re.findall(r"\"([^\"]*)\"", block.group(1)):
            rule = _rule_for(name)
            if rule is None or (is_test and rule in _TEST_IMPORTS):
                continue
            flag(block.start(), f"import:{rule}", f"imports {name}, which {_IMPORTS[rule]}", text)
    code = blank(text, GO_LEXEMES)
    if is_test:
        for match in _TEST_MAIN.finditer(code):
            flag(match.start(), "test-main", "TestMain takes over how the tests run", code)
    else:
        for match in _PRINT.finditer(code):
            why = f"{match.group(0).rstrip('(')!r} writes to stdout, where results are read"
            flag(match.start(), "print", why, code)
    return found


def _rule_for(name: str) -> str | None:
    """The refused import `name` falls under (a package or any package below it)."""
    for refused in _IMPORTS:
        if name == refused or name.startswith(refused + "/"):
            return refused
    return None
