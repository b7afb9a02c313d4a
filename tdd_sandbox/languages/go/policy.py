"""The static policy for Go: the means a kata's code needs none of, refused before anything runs.

A Go test binary runs the tests and the code under test in one process, and the go command
turns whatever that process prints into the results. So code may not reach the process, its
files or its environment (`os`, `syscall`, `runtime`...), may not write memory or link to the
runtime's internals (`unsafe`, `//go:linkname`), may not read files into the build
(`//go:embed`) and may not print to stdout, where results are read from. Tests may not take
over the run with a `TestMain`. Nor may code declare one of the language's predeclared names
(`false`, `nil`, `len`, `error`...) for the package: the tests share its package, so
`const false = true` would hold in them too.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from tdd_sandbox.languages.go.reader import GO_LEXEMES
from tdd_sandbox.languages.lexing import blank, spaced
from tdd_sandbox.vocabulary.violation import NO_TREE, Violation

# The standard packages code may import: the ones that compute (reflect too: it reaches no
# file and no process without unsafe). Anything else of the standard library (os, go/parser,
# log, runtime...) reaches the process, its files or the
# caller, by routes no block-list keeps up with (#24). A package of the module's own (go.mod)
# is allowed; its files are held to this policy too.
_PURE = frozenset(
    {
        "bufio", "bytes", "cmp", "container/heap", "container/list", "container/ring",
        "context", "errors", "fmt", "hash", "io", "iter", "maps", "math", "math/big",
        "math/bits", "math/cmplx", "math/rand", "math/rand/v2", "reflect", "regexp",
        "regexp/syntax",
        "slices", "sort", "strconv", "strings", "sync", "sync/atomic", "time", "unicode",
        "unicode/utf16", "unicode/utf8", "unique",
    }
)  # fmt: skip
_PURE_TREES = ("encoding/", "hash/", "crypto/")
# Tests may also use their runner, compare with reflect and read their fixtures.
_TEST_ONLY = frozenset({"testing", "testing/quick", "os", "path/filepath", "io/fs"})
_REASONS = {
    "unsafe": "writes memory directly",
    "os": "reaches the process, its files or its environment",
    "runtime": "changes how the process runs or ends, or finds the caller",
    "testing": "reaches into the test runner",
    "embed": "reads files into the build",
    "log": "writes to the output and ends the process",
    "go": "reads source files (the tests' answers among them)",
}
_IMPORT_SPEC = re.compile(r'(?:([\w.]+)[ \t]+)?"([^"\n]*)"')
_DIRECTIVE = re.compile(r"^//go:(linkname|embed|cgo_\w+)\b|^//export\b", re.MULTILINE)
_BUILTIN_PRINT = re.compile(r"(?<![.\w])print(?:ln)?\s*\(")
_TEST_MAIN = re.compile(r"^func\s+TestMain\s*\(", re.MULTILINE)
_IMPORT_BLOCK = re.compile(r"^import\s*(\([^)]*\)|[\w.]*\s*\"[^\"]*\")", re.MULTILINE)
_MODULE = re.compile(r"^module\s+\"?([^\s\"]+)", re.MULTILINE)
_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
# The universe block (the Go spec's "Predeclared identifiers").
_PREDECLARED = frozenset(
    {
        "any", "bool", "byte", "comparable", "complex64", "complex128", "error", "float32",
        "float64", "int", "int8", "int16", "int32", "int64", "rune", "string", "uint", "uint8",
        "uint16", "uint32", "uint64", "uintptr", "true", "false", "iota", "nil", "append",
        "cap", "clear", "close", "complex", "copy", "delete", "imag", "len", "make", "max",
        "min", "new", "panic", "print", "println", "real", "recover",
    }
)  # fmt: skip
_DECLARATION = re.compile(r"(?<![\w.])(?:(const|var|type)\b\s*(\(?)|func\s+(\w+))")
_NAMES = re.compile(r"\s*(\w+(?:\s*,\s*\w+)*)")
# What ends a line where Go inserts a semicolon: a name, a literal, a closing bracket, ++/--
# (a string or rune reads as a `0` here).
_ENDS_STATEMENT = re.compile(r"(?:[\w)\]}]|\+\+|--)\s*$")


def check_go(
    path: str, text: str, *, is_test: bool = False, tree: Mapping[str, bytes] = NO_TREE
) -> list[Violation]:
    """Violations in one Go file, its imports held to the allow-list (the module's own from
    `tree`'s go.mod files). Tests may also use `testing`, `reflect`, `os` and the file system
    (their fixtures), and print; they may not define `TestMain`."""
    found: list[Violation] = []

    def flag(offset: int, rule: str, why: str, source: str) -> None:
        found.append(Violation(path, source.count("\n", 0, offset) + 1, rule, why))

    for match in _DIRECTIVE.finditer(text):
        flag(match.start(), "directive", f"{match.group(0)!r} hooks the linker or the build", text)
    uncommented = blank(text, _COMMENTS)
    own = _own_modules(tree)
    # How fmt is named here: its own name, an alias, or "" when dot-imported.
    printers = ["fmt"]
    for block in _IMPORT_BLOCK.finditer(uncommented):
        for local, name in _IMPORT_SPEC.findall(block.group(1)):
            if name == "fmt" and local != "_":
                printers.append("" if local == "." else local or "fmt")
            if _allowed(name, own, is_test=is_test):
                continue
            why = _REASONS.get(name.split("/")[0], "is not among the packages a kata's code "
                               "may use (the computing parts of the standard library and the "
                               "module's own)")  # fmt: skip
            flag(block.start(), f"import:{name}", f"imports {name}, which {why}", text)
    code = blank(text, GO_LEXEMES)
    for offset, name in _package_names(_as_values(text)) if not is_test else ():
        if name in _PREDECLARED:
            why = f"declares {name!r} for the package, where the tests read it as the language's"
            flag(offset, "predeclared", why, code)
    if is_test:
        for match in _TEST_MAIN.finditer(code):
            flag(match.start(), "test-main", "TestMain takes over how the tests run", code)
        return found
    prints = [_BUILTIN_PRINT] + [
        re.compile(rf"\b{re.escape(name)}\s*\.\s*Print(?:f|ln)?\b" if name
                   else r"(?<![.\w])Print(?:f|ln)?\s*\(")
        for name in printers
    ]  # fmt: skip
    for pattern in prints:
        for match in pattern.finditer(code):
            why = f"{match.group(0).rstrip('(')!r} writes to stdout, where results are read"
            flag(match.start(), "print", why, code)
    return found


def _as_values(text: str) -> str:
    """`text` with its comments blanked and each string or rune a `0` then blanks: still a
    value where a line ends (`a = "x"` ends a statement), nothing to read inside."""

    def value(match: re.Match[str]) -> str:
        found = match.group(0)
        return spaced(found) if found.startswith("/") else "0" + spaced(found[1:])

    return GO_LEXEMES.sub(value, text)


def _package_names(code: str) -> list[tuple[int, str]]:
    """(offset, name) of each name `code` (from `_as_values`) declares in the package block:
    constants, variables, types and functions outside every body."""
    top = _outside(code, "{", "}")
    found: list[tuple[int, str]] = []
    for match in _DECLARATION.finditer(top):
        if match.group(3):
            found.append((match.start(3), match.group(3)))
            continue
        start = match.end()
        if not match.group(2):
            end = top.find("\n", start)
            specs = [(start, top[start:] if end < 0 else top[start:end])]
        else:
            end = _closing(top, start - 1)
            group = _outside(top[start:end], "(", ")")
            specs, at, ended = [], start, True
            for line in re.split(r"([\n;])", group):
                # A line is a spec of its own only where Go ends the one before (its
                # semicolon rule); else it carries on an expression (`x = 1 +\n len(s)`).
                if line.strip() and line not in "\n;":
                    if ended:
                        specs.append((at, line))
                    ended = bool(_ENDS_STATEMENT.search(line))
                elif line == ";":
                    ended = True
                at += len(line)
        for at, spec in specs:
            names = _NAMES.match(spec.split(";")[0])
            if names:
                first = names.start(1) + at
                found += [(first, name.strip()) for name in names.group(1).split(",")]
    return found


def _outside(code: str, opening: str, closing: str) -> str:
    """`code` with whatever is between each outermost `opening` and its `closing` blanked
    (newlines kept, so offsets and lines stay)."""
    out, depth = [], 0
    for char in code:
        if char == closing and depth:
            depth -= 1
        out.append(char if depth == 0 or char == "\n" else " ")
        if char == opening:
            depth += 1
    return "".join(out)


def _closing(code: str, at: int) -> int:
    """The offset of the `)` closing the `(` at `at` (the end of `code` if none does)."""
    depth = 0
    for index in range(at, len(code)):
        depth += {"(": 1, ")": -1}.get(code[index], 0)
        if depth == 0:
            return index
    return len(code)


def _allowed(name: str, own: frozenset[str], *, is_test: bool) -> bool:
    if name in _PURE or name.startswith(_PURE_TREES) or (is_test and name in _TEST_ONLY):
        return True
    return any(name == module or name.startswith(module + "/") for module in own)


def _own_modules(tree: Mapping[str, bytes]) -> frozenset[str]:
    """The module paths the tree's go.mod files declare."""
    found = set()
    for path, data in tree.items():
        if path == "go.mod" or path.endswith("/go.mod"):
            match = _MODULE.search(data.decode("utf-8", "replace"))
            if match:
                found.add(match.group(1))
    return frozenset(found)
