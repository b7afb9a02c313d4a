"""Scripted 'perfect' agents for FizzBuzz in Python, Rust and Go, cycle by cycle."""

from __future__ import annotations

from dataclasses import dataclass

from tests.helpers.fake_llm import Answer, done, no_change, plan

PY_TEST_HEAD = "from fizzbuzz import fizzbuzz\n"
PY_TESTS = [
    ("one", 'def test_one() -> None:\n    assert fizzbuzz(1) == "1"\n'),
    ("fizz", 'def test_fizz() -> None:\n    assert fizzbuzz(3) == "Fizz"\n'),
    ("buzz", 'def test_buzz() -> None:\n    assert fizzbuzz(5) == "Buzz"\n'),
    ("fizzbuzz", 'def test_fizzbuzz() -> None:\n    assert fizzbuzz(15) == "FizzBuzz"\n'),
]
PY_IMPLS = [
    "def fizzbuzz(n: int) -> str:\n    return str(n)\n",
    'def fizzbuzz(n: int) -> str:\n    if n % 3 == 0:\n        return "Fizz"\n    return str(n)\n',
    (
        'def fizzbuzz(n: int) -> str:\n    if n % 3 == 0:\n        return "Fizz"\n'
        '    if n % 5 == 0:\n        return "Buzz"\n    return str(n)\n'
    ),
    (
        'def fizzbuzz(n: int) -> str:\n    if n % 15 == 0:\n        return "FizzBuzz"\n'
        '    if n % 3 == 0:\n        return "Fizz"\n    if n % 5 == 0:\n        return "Buzz"\n'
        "    return str(n)\n"
    ),
]
PY_REFACTOR = (
    "def fizzbuzz(n: int) -> str:\n"
    '    word = ("Fizz" if n % 3 == 0 else "") + ("Buzz" if n % 5 == 0 else "")\n'
    "    return word or str(n)\n"
)

RS_TESTS = [
    ("one", '#[test]\nfn one() {\n    assert_eq!(fizzbuzz(1), "1");\n}\n'),
    ("fizz", '#[test]\nfn fizz() {\n    assert_eq!(fizzbuzz(3), "Fizz");\n}\n'),
    ("buzz", '#[test]\nfn buzz() {\n    assert_eq!(fizzbuzz(5), "Buzz");\n}\n'),
    ("fizzbuzz", '#[test]\nfn fizz_buzz() {\n    assert_eq!(fizzbuzz(15), "FizzBuzz");\n}\n'),
]
RS_IMPLS = [
    "pub fn fizzbuzz(n: u32) -> String {\n    n.to_string()\n}\n",
    (
        "pub fn fizzbuzz(n: u32) -> String {\n    if n % 3 == 0 {\n"
        '        return "Fizz".to_string();\n    }\n    n.to_string()\n}\n'
    ),
    (
        "pub fn fizzbuzz(n: u32) -> String {\n    if n % 3 == 0 {\n"
        '        return "Fizz".to_string();\n    }\n    if n % 5 == 0 {\n'
        '        return "Buzz".to_string();\n    }\n    n.to_string()\n}\n'
    ),
    (
        "pub fn fizzbuzz(n: u32) -> String {\n    if n % 15 == 0 {\n"
        '        return "FizzBuzz".to_string();\n    }\n    if n % 3 == 0 {\n'
        '        return "Fizz".to_string();\n    }\n    if n % 5 == 0 {\n'
        '        return "Buzz".to_string();\n    }\n    n.to_string()\n}\n'
    ),
]
RS_REFACTOR = (
    "pub fn fizzbuzz(n: u32) -> String {\n    match (n % 3, n % 5) {\n"
    '        (0, 0) => "FizzBuzz".to_string(),\n        (0, _) => "Fizz".to_string(),\n'
    '        (_, 0) => "Buzz".to_string(),\n        _ => n.to_string(),\n    }\n}\n'
)


GO_TESTS = [
    (name, f"func Test{title}(t *testing.T) {{\n\tif got := FizzBuzz({n}); got != \"{want}\" {{\n"
     f"\t\tt.Fatalf(\"FizzBuzz({n}) = %q, want %q\", got, \"{want}\")\n\t}}\n}}\n")
    for name, title, n, want in (
        ("one", "One", 1, "1"), ("fizz", "Fizz", 3, "Fizz"), ("buzz", "Buzz", 5, "Buzz"),
        ("fizzbuzz", "FizzBuzz", 15, "FizzBuzz"),
    )
]  # fmt: skip
_GO_HEAD = (
    'package kata\n\nimport "strconv"\n\n'
    "// FizzBuzz turns n into its word.\nfunc FizzBuzz(n int) string {\n"
)
_GO_TAIL = "\treturn strconv.Itoa(n)\n}\n"
_GO_CASES = [
    '\tif n%15 == 0 {\n\t\treturn "FizzBuzz"\n\t}\n',
    '\tif n%3 == 0 {\n\t\treturn "Fizz"\n\t}\n',
    '\tif n%5 == 0 {\n\t\treturn "Buzz"\n\t}\n',
]
GO_IMPLS = [
    _GO_HEAD + _GO_TAIL,
    _GO_HEAD + _GO_CASES[1] + _GO_TAIL,
    _GO_HEAD + _GO_CASES[1] + _GO_CASES[2] + _GO_TAIL,
    _GO_HEAD + "".join(_GO_CASES) + _GO_TAIL,
]
GO_REFACTOR = (
    _GO_HEAD + '\tword := ""\n\tif n%3 == 0 {\n\t\tword += "Fizz"\n\t}\n'
    '\tif n%5 == 0 {\n\t\tword += "Buzz"\n\t}\n\tif word == "" {\n'
    "\t\treturn strconv.Itoa(n)\n\t}\n\treturn word\n}\n"
)


JS_TESTS = [
    (name, f'test("{title}", () => {{\n  assert.equal(fizzBuzz({n}), "{want}");\n}});\n')
    for name, title, n, want in (
        # Not the bare words: kata.md, a code file to the fake checker, holds "fizzbuzz".
        ("one", "answers one", 1, "1"), ("fizz", "answers fizz", 3, "Fizz"),
        ("buzz", "answers buzz", 5, "Buzz"), ("fizzbuzz", "answers fizzbuzz", 15, "FizzBuzz"),
    )
]  # fmt: skip
_JS_CASES = [
    '  if (n % 15 === 0) {\n    return "FizzBuzz";\n  }\n',
    '  if (n % 3 === 0) {\n    return "Fizz";\n  }\n',
    '  if (n % 5 === 0) {\n    return "Buzz";\n  }\n',
]
_JS_HEAD, _JS_TAIL = "export function fizzBuzz(n) {\n", "  return String(n);\n}\n"
JS_IMPLS = [
    _JS_HEAD + _JS_TAIL,
    _JS_HEAD + _JS_CASES[1] + _JS_TAIL,
    _JS_HEAD + _JS_CASES[1] + _JS_CASES[2] + _JS_TAIL,
    _JS_HEAD + "".join(_JS_CASES) + _JS_TAIL,
]
JS_REFACTOR = (
    "export function fizzBuzz(n) {\n"
    '  const word = (n % 3 === 0 ? "Fizz" : "") + (n % 5 === 0 ? "Buzz" : "");\n'
    "  return word || String(n);\n}\n"
)
_JS_HEAD_TEST = (
    'import { test } from "node:test";\nimport assert from "node:assert/strict";\n'
    'import { fizzBuzz } from "../kata.js";\n'
)

_TS_HEAD = "export function fizzBuzz(n: number): string {\n"
TS_IMPLS = [impl.replace(_JS_HEAD, _TS_HEAD) for impl in JS_IMPLS]
TS_REFACTOR = JS_REFACTOR.replace(_JS_HEAD, _TS_HEAD)


CPP_TESTS = [
    (name, f'TEST(FizzBuzz, {title}) {{ EXPECT_EQ(fizzbuzz({n}), "{want}"); }}\n')
    for name, title, n, want in (
        ("one", "One", 1, "1"), ("fizz", "Fizz", 3, "Fizz"), ("buzz", "Buzz", 5, "Buzz"),
        ("fizzbuzz", "FizzBuzz", 15, "FizzBuzz"),
    )
]  # fmt: skip
_CPP_HEAD = "#pragma once\n\n#include <string>\n\n"
_CPP_CASES = [
    '  if (n % 15 == 0) return "FizzBuzz";\n',
    '  if (n % 3 == 0) return "Fizz";\n',
    '  if (n % 5 == 0) return "Buzz";\n',
]
_CPP_OPEN, _CPP_TAIL = "inline std::string fizzbuzz(int n) {\n", "  return std::to_string(n);\n}\n"
CPP_IMPLS = [
    _CPP_HEAD + "inline std::string fizzbuzz(int n) { return std::to_string(n); }\n",
    _CPP_HEAD + _CPP_OPEN + _CPP_CASES[1] + _CPP_TAIL,
    _CPP_HEAD + _CPP_OPEN + _CPP_CASES[1] + _CPP_CASES[2] + _CPP_TAIL,
    _CPP_HEAD + _CPP_OPEN + "".join(_CPP_CASES) + _CPP_TAIL,
]
CPP_REFACTOR = (
    _CPP_HEAD + _CPP_OPEN + "  std::string word;\n"
    '  if (n % 3 == 0) word += "Fizz";\n  if (n % 5 == 0) word += "Buzz";\n'
    "  return word.empty() ? std::to_string(n) : word;\n}\n"
)


JAVA_TESTS = [
    (name, f"  @Test\n  void {name}() {{\n"
           f"    assertEquals(\"{want}\", Kata.fizzbuzz({n}));\n  }}\n")
    for name, n, want in (("one", 1, "1"), ("fizz", 3, "Fizz"), ("buzz", 5, "Buzz"),
                          ("fizzBuzz", 15, "FizzBuzz"))
]  # fmt: skip
_JAVA_OPEN = (
    "/** FizzBuzz. */\npublic final class Kata {\n  private Kata() {}\n\n"
    "  public static String fizzbuzz(int n) {\n"
)
_JAVA_CASES = [
    '    if (n % 15 == 0) {\n      return "FizzBuzz";\n    }\n',
    '    if (n % 3 == 0) {\n      return "Fizz";\n    }\n',
    '    if (n % 5 == 0) {\n      return "Buzz";\n    }\n',
]
_JAVA_TAIL = "    return Integer.toString(n);\n  }\n}\n"
JAVA_IMPLS = [
    _JAVA_OPEN + _JAVA_TAIL,
    _JAVA_OPEN + _JAVA_CASES[1] + _JAVA_TAIL,
    _JAVA_OPEN + _JAVA_CASES[1] + _JAVA_CASES[2] + _JAVA_TAIL,
    _JAVA_OPEN + "".join(_JAVA_CASES) + _JAVA_TAIL,
]
JAVA_REFACTOR = (
    _JAVA_OPEN + '    String word = (n % 3 == 0 ? "Fizz" : "") + (n % 5 == 0 ? "Buzz" : "");\n'
    "    return word.isEmpty() ? Integer.toString(n) : word;\n  }\n}\n"
)
_JAVA_HEAD = (
    "import static org.junit.jupiter.api.Assertions.assertEquals;\n\n"
    "import org.junit.jupiter.api.Test;\n\nclass KataTest {\n"
)


@dataclass(frozen=True)
class Steps:
    """One language's FizzBuzz, test by test: where tests and code go, and each step's code."""

    test_path: str
    code_path: str
    head: str
    tests: list[tuple[str, str]]
    impls: list[str]
    refactor: str
    comment: str

    def test_file(self, count: int) -> str:
        """The test file holding the first `count` tests."""
        if self.head.endswith("{\n"):  # a class: its methods go inside it
            return self.head + "\n".join(body for _, body in self.tests[:count]) + "}\n"
        return self.head + "".join("\n" + body for _, body in self.tests[:count])

    def test_name(self, index: int) -> str:
        """The name the runner reports for test `index` (as the fake checker matches it)."""
        body = self.tests[index][1]
        if body.startswith("  @Test"):
            return "KataTest." + body.split("void ", 1)[1].split("(", 1)[0]
        if body.startswith("TEST("):
            suite, name = body[5:].split(")", 1)[0].split(", ")
            return f"{suite}.{name}"
        if body.startswith("test("):
            return body.split('"')[1]
        return body.split("(", 1)[0].split()[-1]


STEPS = {
    "python": Steps("tests/test_fizzbuzz.py", "fizzbuzz.py", PY_TEST_HEAD + "\n",
                    [(n, b) for n, b in PY_TESTS], PY_IMPLS, PY_REFACTOR, "#"),
    "rust": Steps("tests/fizzbuzz.rs", "src/lib.rs", "use kata::fizzbuzz;\n", RS_TESTS,
                  RS_IMPLS, RS_REFACTOR, "//"),
    "javascript": Steps("test/fizzbuzz.test.js", "kata.js", _JS_HEAD_TEST, JS_TESTS, JS_IMPLS,
                        JS_REFACTOR, "//"),
    "typescript": Steps("test/fizzbuzz.test.ts", "kata.ts",
                        _JS_HEAD_TEST.replace("kata.js", "kata.ts"), JS_TESTS, TS_IMPLS,
                        TS_REFACTOR, "//"),
    "cpp": Steps("tests/fizzbuzz_test.cpp", "kata.hpp",
                 '#include <gtest/gtest.h>\n\n#include "kata.hpp"\n', CPP_TESTS, CPP_IMPLS,
                 CPP_REFACTOR, "//"),
    "java": Steps("test/KataTest.java", "src/Kata.java", _JAVA_HEAD, JAVA_TESTS, JAVA_IMPLS,
                  JAVA_REFACTOR, "//"),
    "go": Steps("fizzbuzz_test.go", "kata.go", 'package kata\n\nimport "testing"\n', GO_TESTS,
                GO_IMPLS, GO_REFACTOR, "//"),
}  # fmt: skip


def python_test_file(count: int) -> str:
    """The Python test module holding the first `count` tests."""
    return PY_TEST_HEAD + "".join("\n\n" + body for _, body in PY_TESTS[:count])


def rust_test_file(count: int) -> str:
    """The Rust test file holding the first `count` tests."""
    return STEPS["rust"].test_file(count)


def fizzbuzz_script(language: str, prefix: str = "") -> dict[str, list[Answer]]:
    """Answers for models `<prefix>tester`, `<prefix>implementer`, `<prefix>refactorer` that
    complete the kata in four cycles, with one real refactoring in the last."""
    steps = STEPS[language]
    tester: list[Answer] = []
    implementer: list[Answer] = []
    refactorer: list[Answer] = []
    count = len(steps.tests)
    for index in range(count):
        name = steps.tests[index][0]
        test_file = (
            python_test_file(index + 1) if language == "python" else steps.test_file(index + 1)
        )
        test = (steps.test_path, test_file)
        tester.append(plan(test, message=f"test(fizzbuzz): {name}", note=f"test {name}"))
        impl = (steps.code_path, steps.impls[index])
        implementer.append(plan(impl, message=f"feat(fizzbuzz): handle {name}", note="minimal"))
        last = index == count - 1
        refactorer.append(
            plan((steps.code_path, steps.refactor), message="refactor(fizzbuzz): one expression",
                 note="simplify")
            if last
            else no_change()
        )  # fmt: skip
    tester.append(done())
    return {
        f"{prefix}tester": tester,
        f"{prefix}implementer": implementer,
        f"{prefix}refactorer": refactorer,
    }


def covering(count: int, language: str = "python") -> str:
    """The implementation of the first `count` tests as the fake checker judges it: the real
    code, naming the tests it makes pass (see `tdd_sandbox.execution.fake_checker`)."""
    steps = STEPS[language]
    names = " ".join(steps.test_name(index) for index in range(count))
    return f"{steps.comment} passes: {names}\n{steps.impls[count - 1]}"


def fake_fizzbuzz_script(language: str = "python") -> dict[str, list[Answer]]:
    """The FizzBuzz script as the fake checker judges it: each implementation names the tests
    it makes pass (see `covering`), and the refactoring keeps naming them."""
    steps = STEPS[language]
    script = fizzbuzz_script(language)
    count = len(steps.tests)
    script["implementer"] = [
        plan(
            (steps.code_path, covering(n, language)),
            message=f"feat(fizzbuzz): handle {steps.tests[n - 1][0]}",
        )
        for n in range(1, count + 1)
    ]
    names = covering(count, language).splitlines()[0]
    refactored = plan((steps.code_path, f"{names}\n{steps.refactor}"),
                      message="refactor(fizzbuzz): one expression", note="simplify")  # fmt: skip
    script["refactorer"] = [no_change()] * (count - 1) + [refactored]
    return script
