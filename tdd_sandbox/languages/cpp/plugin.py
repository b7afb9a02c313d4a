"""C++: clang-format, a warnings-as-errors GCC 14 build and GoogleTest (or Catch2, `catch2.py`);
results from the runner's XML report, checked against its console lines."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import PurePosixPath

from tdd_sandbox.languages.base import Defaults
from tdd_sandbox.languages.cpp.calls import derive_cpp_calls
from tdd_sandbox.languages.cpp.driver import CppDriver
from tdd_sandbox.languages.cpp.policy import check_cpp
from tdd_sandbox.languages.cpp.reader import CPP_LEXEMES
from tdd_sandbox.languages.cpp.runner import CppRunner
from tdd_sandbox.languages.cpp.transcripts import derive_cpp_transcripts
from tdd_sandbox.languages.lexing import blank
from tdd_sandbox.languages.perturbing import Expectations
from tdd_sandbox.languages.renaming import Naming
from tdd_sandbox.languages.tokens import lexer
from tdd_sandbox.vocabulary.cases import CallMap, Case
from tdd_sandbox.vocabulary.violation import Violation

_RUNNER_CONFIG = re.compile(
    r"(^|/)(\.clang-format|\.clang-tidy|_clang-format|CMakeLists\.txt|Makefile)$"
)

_HEADER = "#pragma once\n\n// The kata's declarations.\n"
_CODE = '#include "kata.hpp"\n\n// The kata\'s definitions.\n'
_HEADERS = (".hpp", ".h")
_SCAFFOLD_TEST = """\
#include <gtest/gtest.h>

// Only proves the toolchain runs; the kata's tests live beside it.
TEST(Scaffold, Runs) { SUCCEED(); }
"""


class Cpp(CppRunner, Defaults):
    """The C++ plug-in: `kata.hpp`/`kata.cpp` at the root, GoogleTest files in `tests/`."""

    driver_class = CppDriver

    def check_source(
        self, path: str, text: str, *, is_test: bool, tree: Mapping[str, bytes]
    ) -> list[Violation]:
        """The pack's static policy (`policy.py`)."""
        return check_cpp(path, text, is_test=is_test, tree=tree)

    name = "cpp"
    listed = ("std::vector{", "}")
    title = "C++"
    source_suffixes: tuple[str, ...] = (".cpp", ".cc", ".hpp", ".h")
    expectations = Expectations(
        lexer(CPP_LEXEMES),
        equal_calls=frozenset({
            "EXPECT_EQ", "ASSERT_EQ", "EXPECT_STREQ", "ASSERT_STREQ", "EXPECT_DOUBLE_EQ",
            "ASSERT_DOUBLE_EQ", "EXPECT_FLOAT_EQ", "ASSERT_FLOAT_EQ",
        }),
        truth_calls=frozenset({"EXPECT_TRUE", "ASSERT_TRUE", "REQUIRE", "CHECK"}),
        constant_words=frozenset({
            "std", "string", "vector", "int", "long", "double", "char", "size_t", "int64_t",
            "uint64_t",
        }),
    )  # fmt: skip
    naming = Naming(
        named_by=frozenset({"TEST", "TEST_F", "TEST_P", "TEST_CASE", "SECTION", "SCENARIO"}),
        prefix="T",
    )
    prompt_note = (
        "C++20 with GCC 14 and GoogleTest, standard library only. Declarations go in kata.hpp "
        "and definitions in kata.cpp at the root (more .cpp files at the root are built too); "
        'tests are tests/*_test.cpp files with `#include <gtest/gtest.h>`, `#include "kata.hpp"` '
        "and TEST(Suite, Name) cases (GoogleTest provides main); a kata whose tests include "
        "<catch2/catch.hpp> runs them with Catch2 instead (TEST_CASE, REQUIRE). Code must pass "
        "clang-format (Google style) and build with -Wall -Wextra -Werror."
    )

    def is_test_path(self, path: str) -> bool:
        """Anything under `tests/`."""
        return PurePosixPath(path).parts[0] == "tests"

    def is_runner_config(self, path: str) -> bool:
        """Build and format configuration (none is read, but none may be planted either)."""
        return bool(_RUNNER_CONFIG.search(path))

    def scaffold(self) -> dict[str, str]:
        """An empty header and source file, and one toolchain test."""
        return {"kata.hpp": _HEADER, "kata.cpp": _CODE, "tests/scaffold_test.cpp": _SCAFFOLD_TEST}

    def derive_calls(
        self, cases: Sequence[Case], stub: Mapping[str, bytes], tests: Mapping[str, bytes]
    ) -> CallMap | str:
        """The namespace's calls the track's tests make perform the properties (`calls.py`)."""
        return derive_cpp_calls(cases, stub, tests)

    def transcribe_tests(self, cases: Sequence[Case], tests: Mapping[str, bytes]) -> CallMap | str:
        """Each case's `TEST_CASE`, what it asserts held on the host (`transcripts.py`)."""
        return derive_cpp_transcripts(cases, tests)

    def scaffold_under(self, files: Mapping[str, str]) -> dict[str, str]:
        """Beside a kata's own code (an Exercism stub's `leap.h`, `leap.cpp`) the empty
        `kata.hpp` and `kata.cpp` give way; the toolchain test stays."""
        scaffold = self.scaffold()
        if any(p.endswith(self.source_suffixes) and not self.is_test_path(p) for p in files):
            del scaffold["kata.hpp"], scaffold["kata.cpp"]
        return scaffold

    def detect(self, paths: Iterable[str]) -> bool:
        """A .cpp file at the root, and no manifest of another language."""
        listed = set(paths)
        return any("/" not in p and p.endswith(".cpp") for p in listed)

    def track_test(self, path: str, data: bytes) -> tuple[str, bytes]:
        """Exercism's test file sits beside the solution (`leap_test.cpp`): it goes to
        `tests/`, where it includes the solution's header from the root as before. The
        track's copy of Catch2 (`test/catch.hpp`, `test/tests-main.cpp`) stays behind: the
        image has Catch2."""
        pure = PurePosixPath(path)
        if len(pure.parts) == 1 and pure.suffix in (".cpp", ".cc"):
            return f"tests/{pure.name}", data
        return path, data

    def suggest_paths(self, files: Mapping[str, bytes], slug: str) -> tuple[str, list[str]]:
        """The kata's test file (or `tests/<slug>_test.cpp`), and the root's headers, then
        its sources: an Exercism stub's `leap.h` and `leap.cpp`, which its tests include,
        or the scaffold's `kata.hpp` and `kata.cpp`."""
        scaffold = set(self.scaffold())
        tests = sorted(p for p in files if self.is_test_path(p) and p not in scaffold)
        code = [
            p for p in files
            if "/" not in p and p.endswith(self.source_suffixes) and not self.is_test_path(p)
        ]  # fmt: skip
        code.sort(key=lambda p: (not p.endswith(_HEADERS), p))
        return (tests[0] if tests else f"tests/{slug.replace('-', '_')}_test.cpp"), code or [
            "kata.hpp",
            "kata.cpp",
        ]

    def defines_tests(self, path: str, text: str) -> bool:
        """A code file that includes GoogleTest or Catch2."""
        code = blank(text, re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL))
        return re.search(r"#\s*include\s*[<\"](g(test|mock)/|catch2/|catch\.hpp)", code) is not None


CPP = Cpp()  # the plug-in the registry (`languages.registry`) holds
