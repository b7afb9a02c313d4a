"""Sample kata repos, as file mappings, with known per-test outcomes."""

from __future__ import annotations

from pathlib import Path

from tdd_sandbox.languages.registry import get_language

PY_IMPL = """\
def fizzbuzz(n: int) -> str:
    if n % 15 == 0:
        return "FizzBuzz"
    if n % 3 == 0:
        return "Fizz"
    return str(n)
"""

PY_TESTS = """\
import pytest

from fizzbuzz import fizzbuzz


def test_one() -> None:
    assert fizzbuzz(1) == "1"


def test_fizz() -> None:
    assert fizzbuzz(3) == "Fizz"


def test_buzz() -> None:
    assert fizzbuzz(5) == "Buzz"


@pytest.mark.skip(reason="later")
def test_later() -> None:
    assert fizzbuzz(15) == "FizzBuzz"


class TestMore:
    @pytest.mark.parametrize("n", [2, 4])
    def test_numbers(self, n: int) -> None:
        assert fizzbuzz(n) == str(n)
"""

RS_IMPL = """\
pub fn fizzbuzz(n: u32) -> String {
    if n % 15 == 0 {
        return "FizzBuzz".to_string();
    }
    if n % 3 == 0 {
        return "Fizz".to_string();
    }
    n.to_string()
}
"""

RS_TESTS = """\
use kata::fizzbuzz;

#[test]
fn one() {
    assert_eq!(fizzbuzz(1), "1");
}

#[test]
fn fizz() {
    assert_eq!(fizzbuzz(3), "Fizz");
}

#[test]
fn buzz() {
    assert_eq!(fizzbuzz(5), "Buzz");
}

#[test]
#[ignore]
fn later() {
    assert_eq!(fizzbuzz(15), "FizzBuzz");
}

mod more {
    use kata::fizzbuzz;

    #[test]
    fn two() {
        assert_eq!(fizzbuzz(2), "2");
    }
}
"""


def python_repo(tests: str = PY_TESTS, impl: str = PY_IMPL) -> dict[str, str]:
    """A Python kata: 7 tests (the scaffold's among them): 5 pass, 1 fails, 1 is skipped."""
    files = get_language("python").scaffold()
    files["fizzbuzz.py"] = impl
    files["tests/test_fizzbuzz.py"] = tests
    return files


def rust_repo(tests: str = RS_TESTS, impl: str = RS_IMPL) -> dict[str, str]:
    """A Rust kata: 6 tests (the scaffold's among them): 4 pass, 1 fails, 1 is ignored."""
    files = get_language("rust").scaffold()
    files["src/lib.rs"] = impl
    files["tests/fizzbuzz.rs"] = tests
    return files


GO_IMPL = (
    'package kata\n\n// FizzBuzz answers "Fizz" and nothing else yet.\n'
    'func FizzBuzz(n int) string {\n\treturn "Fizz"\n}\n'
)


def go_repo(tests: str, impl: str = GO_IMPL) -> dict[str, str]:
    """A Go kata: the scaffold, `kata.go` and `tests` as the body of `fizzbuzz_test.go` (after
    its package clause, so it brings its own imports)."""
    files = get_language("go").scaffold()
    files["kata.go"] = impl
    files["fizzbuzz_test.go"] = "package kata\n\n" + tests
    return files


def javascript_repo(
    tests: str, impl: str = 'export function fizzBuzz() {\n  return "Fizz";\n}\n'
) -> dict[str, str]:
    """A JavaScript kata: the scaffold, `kata.js` and `tests` after the runner's import in
    `test/fizzbuzz.test.js`."""
    files = get_language("javascript").scaffold()
    files["kata.js"] = impl
    files["test/fizzbuzz.test.js"] = 'import { test } from "node:test";\n' + tests
    return files


def typescript_repo(
    tests: str, impl: str = 'export function fizzBuzz(): string {\n  return "Fizz";\n}\n'
) -> dict[str, str]:
    """A TypeScript kata: the scaffold, `kata.ts` and `tests` after the runner's import in
    `test/fizzbuzz.test.ts` (JavaScript's tests are TypeScript's: Node strips no type)."""
    files = get_language("typescript").scaffold()
    files["kata.ts"] = impl
    files["test/fizzbuzz.test.ts"] = 'import { test } from "node:test";\n' + tests
    return files


CPP_IMPL = (
    '#pragma once\n\n#include <string>\n\ninline std::string fizzbuzz(int) { return "Fizz"; }\n'
)


def cpp_repo(tests: str, impl: str = CPP_IMPL) -> dict[str, str]:
    """A C++ kata: the scaffold, a header-only `kata.hpp` and `tests` after the includes of
    `tests/fizzbuzz_test.cpp`."""
    files = get_language("cpp").scaffold()
    files["kata.hpp"] = impl
    files["tests/fizzbuzz_test.cpp"] = '#include <gtest/gtest.h>\n\n#include "kata.hpp"\n' + tests
    return files


JAVA_IMPL = (
    "/** Answers Fizz. */\npublic final class Kata {\n  private Kata() {}\n\n"
    '  public static String fizzbuzz(int n) {\n    return "Fizz";\n  }\n}\n'
)


def java_repo(tests: str, impl: str = JAVA_IMPL) -> dict[str, str]:
    """A Java kata: the scaffold, `src/Kata.java` and `tests` as the body of the class
    `KataTest` (after JUnit's imports)."""
    files = get_language("java").scaffold()
    files["src/Kata.java"] = impl
    files["test/KataTest.java"] = (
        "import org.junit.jupiter.api.Assumptions;\nimport org.junit.jupiter.api.Test;\n\n"
        f"class KataTest {{\n{tests}\n  @Test\n  void fine() {{}}\n}}\n"
    )
    return files


def write_repo(root: Path, files: dict[str, str]) -> Path:
    """Write `files` under `root` and return it."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def encode(files: dict[str, str]) -> dict[str, bytes]:
    """The mapping a Snapshot holds."""
    return {name: text.encode() for name, text in files.items()}
