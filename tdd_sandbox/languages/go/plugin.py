"""Go: gofmt, go vet, go build and `go test -json`; results read from the go command's events."""

from __future__ import annotations

import random
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import PurePosixPath

from tdd_sandbox.languages.base import Defaults
from tdd_sandbox.languages.go.calls import derive_go_calls
from tdd_sandbox.languages.go.driver import GoDriver
from tdd_sandbox.languages.go.policy import check_go
from tdd_sandbox.languages.go.reader import (
    GO_DIRECTIVE,
    GO_LEXEMES,
    TOOLCHAIN,
    for_toolchain,
    module_path,
)
from tdd_sandbox.languages.go.runner import GoRunner
from tdd_sandbox.languages.lexing import blank
from tdd_sandbox.languages.perturbing import Expectations, Perturbed
from tdd_sandbox.languages.renaming import Naming
from tdd_sandbox.languages.tokens import lexer
from tdd_sandbox.vocabulary.cases import CallMap, Case
from tdd_sandbox.vocabulary.violation import Violation

_NOT_TESTS = re.compile(r"^func\s+(?:Benchmark|Example|Fuzz)\w*\s*\(", re.MULTILINE)
_PACKAGE = re.compile(r"^package\s+(\w+)", re.MULTILINE)
_RUNNER_CONFIG = frozenset({"go.mod", "go.sum", "go.work", "go.work.sum"})

_GO_MOD = f"module kata\n\n{GO_DIRECTIVE}\n"
_SCAFFOLD_CODE = "// Package kata holds the kata's code.\npackage kata\n"
_SCAFFOLD_TEST = """\
package kata

import "testing"

// TestScaffold only proves the toolchain runs; the kata's tests live beside it.
func TestScaffold(t *testing.T) {}
"""


def _closing(code: str, opening: int) -> int:
    """Where the brace opened at `opening` closes (the end of `code` where it does not)."""
    depth = 0
    for at in range(max(opening, 0), len(code)):
        depth += (code[at] == "{") - (code[at] == "}")
        if depth == 0:
            return at
    return len(code)


class Go(GoRunner, Defaults):
    """The Go plug-in: one module (`kata` in a new repository), tests in `*_test.go` files."""

    driver_class = GoDriver

    def check_source(
        self, path: str, text: str, *, is_test: bool, tree: Mapping[str, bytes]
    ) -> list[Violation]:
        """The pack's static policy (`policy.py`)."""
        return check_go(path, text, is_test=is_test, tree=tree)

    name = "go"
    title = "Go"
    source_suffixes: tuple[str, ...] = (".go",)
    expectations = Expectations(
        lexer(GO_LEXEMES, ends_lines=True),
        equal_calls=frozenset({"DeepEqual", "Equal"}),
        failing_if=True,
        message_calls=frozenset({"Errorf", "Fatalf", "Error", "Fatal", "Logf", "Log"}),
        constant_words=frozenset({
            "string", "int", "int64", "uint", "float64", "bool", "byte", "rune", "nil", "map",
        }),
    )  # fmt: skip
    naming = Naming(declared_by=frozenset({"func"}), prefix="TestN")
    project_files: tuple[str, ...] = ("go.mod",)
    prompt_note = (
        f"Go {TOOLCHAIN[0]}.{TOOLCHAIN[1]}, standard library only, no cgo. The module is the "
        "one go.mod names, and the code is the package at the root (in a new repository: "
        "module kata, package kata in kata.go); tests are `func TestXxx(t *testing.T)` in "
        "*_test.go files of the same package. Code must pass gofmt and go vet."
    )

    def perturb(self, text: str, lines: Collection[int] | None, rng: random.Random) -> Perturbed:
        """The expected values on `lines` changed, never inside a benchmark, an example or a
        fuzz target: `go test` runs none of them as a test, so a value changed there is seen
        by no test, and every test passing still would prove nothing."""
        code = blank(text, GO_LEXEMES)
        skipped: set[int] = set()
        for match in _NOT_TESTS.finditer(code):
            body = code.find("{", match.end())
            end = _closing(code, body)
            first = code.count("\n", 0, match.start()) + 1
            skipped.update(range(first, code.count("\n", 0, end) + 2))
        if not skipped:
            return super().perturb(text, lines, rng)
        every = range(1, text.count("\n") + 2) if lines is None else lines
        return super().perturb(text, frozenset(every) - skipped, rng)

    def is_test_path(self, path: str) -> bool:
        """`*_test.go` files, and anything under a `testdata/` folder (tests' fixtures)."""
        return path.endswith("_test.go") or "testdata" in PurePosixPath(path).parts[:-1]

    def is_runner_config(self, path: str) -> bool:
        """The module and workspace files (a `replace` or `toolchain` line changes the build)."""
        return PurePosixPath(path).name in _RUNNER_CONFIG

    def scaffold(self) -> dict[str, str]:
        """The module `kata` with an empty package and one toolchain test."""
        return {"go.mod": _GO_MOD, "kata.go": _SCAFFOLD_CODE, "scaffold_test.go": _SCAFFOLD_TEST}

    def derive_calls(
        self, cases: Sequence[Case], stub: Mapping[str, bytes], tests: Mapping[str, bytes]
    ) -> CallMap | str:
        """The stub's exported functions perform the properties (`calls.py`)."""
        return derive_go_calls(cases, stub, tests)

    def scaffold_under(self, files: Mapping[str, str]) -> dict[str, str]:
        """Where the kata's code at the root is a package of another name (an Exercism stub's
        `package leap`), or there is none and go.mod names another module (`module leap`),
        the scaffold's code gives way and its toolchain test joins that package: one folder
        holds one package."""
        scaffold = self.scaffold()
        code = [
            text for path, text in sorted(files.items())
            if "/" not in path and path.endswith(".go") and not self.is_test_path(path)
        ]  # fmt: skip
        # With no code at the root (a stub set aside as an outline), the package is named
        # after the module, as Go names a package after the last element of its path.
        module = module_path({p: t.encode() for p, t in files.items() if p == "go.mod"})
        last = module.rsplit("/", 1)[-1]
        default = last if re.fullmatch(r"[a-z_][a-z0-9_]*", last) else ""
        package = next(
            (m.group(1) for text in code if (m := _PACKAGE.search(text))), default or "kata"
        )
        if package != "kata":
            del scaffold["kata.go"]
            test = _SCAFFOLD_TEST.replace("package kata", f"package {package}", 1)
            scaffold["scaffold_test.go"] = test
        return scaffold

    def detect(self, paths: Iterable[str]) -> bool:
        """A go.mod at the root."""
        return "go.mod" in set(paths)

    def suggest_paths(self, files: Mapping[str, bytes], slug: str) -> tuple[str, list[str]]:
        """The kata's test file at the root (or `<slug>_test.go`) and the root's code files."""
        scaffold = set(self.scaffold())
        root = [p for p in sorted(files) if "/" not in p and p.endswith(".go")]
        tests = [p for p in root if p.endswith("_test.go") and p not in scaffold]
        code = [p for p in root if not p.endswith("_test.go")] or ["kata.go"]
        return (tests[0] if tests else f"{slug.replace('-', '_')}_test.go"), code

    def defines_tests(self, path: str, text: str) -> bool:
        """A code file that imports "testing": tests belong in `*_test.go` files."""
        code = blank(text, re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL))
        return path.endswith(".go") and re.search(r'"testing"', code) is not None

    def track_project(self, path: str, data: bytes) -> tuple[bytes, str]:
        """go.mod asking for the image's Go at most (`reader.for_toolchain`)."""
        return for_toolchain(data) if path == "go.mod" else (data, "")


GO = Go()  # the plug-in the registry (`languages.registry`) holds
