"""The test gate's guard, alone (the static policy is bypassed here): each cheat forges a
green test gate when the gate runs unguarded, as it did before #10, and is caught as tamper
under the guard. Honest runs stay exactly as they were."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from xml.sax.saxutils import escape

import pytest

from tdd_sandbox.execution.docker_checker import DockerChecker
from tdd_sandbox.grading.evidence import TamperKind
from tdd_sandbox.grading.gates import GateStatus
from tdd_sandbox.languages.base import Language
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.settings import load_settings
from tdd_sandbox.vocabulary.results import GateKind
from tests.helpers.cheats import CHEATS
from tests.helpers.gates import run_test_gate
from tests.helpers.solutions import SOLUTIONS

pytestmark = [pytest.mark.docker, pytest.mark.usefixtures("images")]
TEST = frozenset({GateKind.TEST})
CHEAT = {(c.language, c.name): c for c in CHEATS}

PY_RED = """\
from fizzbuzz import fizzbuzz


def test_fizz() -> None:
    assert fizzbuzz(3) == "Fizz"
"""
RS_RED = 'use kata::fizzbuzz;\n\n#[test]\nfn fizz() {\n    assert_eq!(fizzbuzz(3), "Fizz");\n}\n'
GO_RED = """\
package kata

import "testing"

func TestFizz(t *testing.T) {
	if got := FizzBuzz(3); got != "Fizz" {
		t.Fatalf("FizzBuzz(3) = %q", got)
	}
}
"""
JS_RED = """\
import { test } from "node:test";
import assert from "node:assert/strict";
import { fizzBuzz } from "../kata.js";

test("fizz", () => {
  assert.equal(fizzBuzz(3), "Fizz");
});
"""
RED = {
    "python": ("tests/test_fizzbuzz.py", PY_RED),
    "rust": ("tests/fizzbuzz.rs", RS_RED),
    "go": ("fizzbuzz_test.go", GO_RED),
    "javascript": ("test/fizzbuzz.test.js", JS_RED),
    "typescript": ("test/fizzbuzz.test.ts", JS_RED.replace("../kata.js", "../kata.ts")),
    "java": (
        "test/KataTest.java",
        "import static org.junit.jupiter.api.Assertions.assertEquals;\n\n"
        "import org.junit.jupiter.api.Test;\n\nclass KataTest {\n  @Test\n  void fizz() {\n"
        '    assertEquals("Fizz", Kata.fizzbuzz(3));\n  }\n}\n',
    ),
    "cpp": (
        "tests/fizzbuzz_test.cpp",
        '#include <gtest/gtest.h>\n\n#include "kata.hpp"\n\n'
        'TEST(FizzBuzz, Fizz) { EXPECT_EQ(fizzbuzz(3), "Fizz"); }\n',
    ),
}

_CONFTEST_ONLY = {
    "fizzbuzz.py": "def fizzbuzz(n: int) -> str:\n    return '?'\n",
    "tests/conftest.py": CHEAT[("python", "tester's conftest forges reports")].files[
        "tests/conftest.py"
    ],
}
CASES = {
    "python-patch-pytest": ("python", CHEAT[("python", "patch pytest at import")].files,
                            TamperKind.RUNNER),
    "python-atexit-rewrite": ("python", CHEAT[("python", "atexit rewrites the results")].files,
                              TamperKind.CHANNEL),
    "python-conftest-hook": ("python", _CONFTEST_ONLY, TamperKind.RUNNER),
    "rust-forge-stdout": ("rust", CHEAT[("rust", "forge libtest lines on stdout")].files,
                          TamperKind.SENTINEL),
    "go-forge-stdout": ("go", CHEAT[("go", "forge test events on stdout")].files,
                        TamperKind.SENTINEL),
    "cpp-forge-report": ("cpp", CHEAT[("cpp", "forge the XML report and console")].files,
                         TamperKind.SENTINEL),
    # Its forged "Test run finished" goes to stderr (the guard's launcher): the run never
    # reached its end, and exited 0 (before, the line reached the channel and the missing
    # sentinels gave it away).
    "java-forge-report": ("java", CHEAT[("java", "forge the XML report and halt")].files,
                          TamperKind.CHANNEL),
    "javascript-patch-assert": ("javascript",
                                CHEAT[("javascript", "patch assert at import")].files,
                                TamperKind.SENTINEL),
    # JavaScript's code is TypeScript's too: Node strips no type from it.
    "typescript-patch-assert": ("typescript",
                                {"kata.ts": CHEAT[("javascript", "patch assert at import")]
                                 .files["kata.js"]},
                                TamperKind.SENTINEL),
}  # fmt: skip
ALSO = {"rust-forge-stdout": TamperKind.CHANNEL}
"""Cases caught by another check when the threads run in another order: libtest runs a
binary's tests on several threads, and when the sentinels have ended, in the report and the
log alike, before the forging test prints, what gives it away is the log, which has no line
for the test it forged (CI saw both)."""


@pytest.fixture(scope="module")
def checker() -> Iterator[DockerChecker]:
    """One checker for the module."""
    with DockerChecker(load_settings(), run_id="pytest-guard") as made:
        yield made


class _Unguarded:
    """The language with its guard off: the test gate as it ran before #10."""

    def __init__(self, language: Language) -> None:
        self._language = language

    def __getattr__(self, name: str) -> object:
        return getattr(self._language, name)

    def guard(self, command: tuple[str, ...], nonce: str) -> None:
        return None


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_forged_green_is_caught_by_the_guard(checker: DockerChecker, case: str) -> None:
    name, cheat, kind = CASES[case]
    language = get_language(name)
    files = dict(language.scaffold())
    files.update(cheat)
    path, red = RED[name]
    files[path] = red
    unguarded = run_test_gate(checker, _Unguarded(language), files)  # type: ignore[arg-type]
    assert unguarded.status is GateStatus.PASSED, unguarded.reason
    guarded = run_test_gate(checker, language, files)
    assert guarded.status is GateStatus.ERROR, guarded.reason
    assert guarded.tamper is not None, guarded.reason
    assert guarded.tamper.kind in (kind, ALSO.get(case, kind)), guarded.reason


@pytest.mark.parametrize("name", sorted(RED))
def test_honest_runs_are_unchanged(checker: DockerChecker, name: str) -> None:
    language = get_language(name)
    files = dict(language.scaffold())
    path, source = SOLUTIONS[("fizzbuzz", name)]
    files[path] = source
    test_path, red = RED[name]
    files[test_path] = red
    green = run_test_gate(checker, language, files)
    assert green.status is GateStatus.PASSED, green.reason
    assert green.counts.passed == 2  # the scaffold's and the kata's: no sentinel shows
    files[path] = SOLUTIONS[("fizzbuzz", name)][1].replace("Fizz", "Fuzz")
    failing = run_test_gate(checker, language, files)
    assert failing.status is GateStatus.FAILED, failing.reason
    assert failing.tamper is None


# A module of the kata's tree named `pytest`: the guard, started as `python3 -c` in the
# snapshot, imported it in place of the real one before taking any reference, so it read the
# nonce off the interpreter's arguments and wrote the whole run itself (stream, sentinels,
# report). It uses nothing the static policy refuses.
_RUNNER_SHADOW = """\
import json
import os
import sys

NONCE = sys.orig_argv[3]
TESTS = ("tests/test_fizzbuzz.py::test_fizz", "tests/test_scaffold.py::test_scaffold")


def emit(record: dict[str, object]) -> None:
    os.write(1, f"\\n@@{NONCE} {json.dumps(record)}\\n".encode())


def case(test: str, body: str = "") -> str:
    path, _, name = test.partition("::")
    where = f'classname="{path[:-3].replace("/", ".")}" name="{name}" file="{path}"'
    return f"<testcase {where}>{body}</testcase>"


for test in TESTS:
    emit({"test": test, "outcome": "passed"})
emit({"test": f"test_check_{NONCE[:6]}", "outcome": "passed"})
emit({"test": f"test_check_{NONCE[6:12]}", "outcome": "failed"})
emit({"end": True, "exitstatus": 1, "changed": [], "foreign": []})
cases = "".join(case(t) for t in TESTS) + case(f"x.py::test_check_{NONCE[:6]}")
cases += case(f"x.py::test_check_{NONCE[6:12]}", '<failure message="no"/>')
os.makedirs("/tmp/tdd-results", exist_ok=True)
fd = os.open("/tmp/tdd-results/junit.xml", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
os.write(fd, f"<testsuites><testsuite>{cases}</testsuite></testsuites>".encode())
os.close(fd)
raise SystemExit(1)
"""


def test_a_module_of_the_tree_cannot_stand_in_for_the_runner(checker: DockerChecker) -> None:
    language = get_language("python")
    files = {**language.scaffold(), "fizzbuzz.py": "def fizzbuzz(n: int) -> str:\n    return ''\n"}
    files.update({"pytest.py": _RUNNER_SHADOW, RED["python"][0]: RED["python"][1]})
    # The allow-list refuses the shadow too now (os, sys.orig_argv); the gate below runs it
    # anyway, so the guard is shown to hold on its own, as when the policy passed it.
    tree = {path: text.encode() for path, text in files.items()}
    assert language.check_source("pytest.py", _RUNNER_SHADOW, is_test=False, tree=tree)
    gate = run_test_gate(checker, language, files)
    assert gate.status is not GateStatus.PASSED, gate.reason
    assert [(o.id, o.status.value) for o in gate.tests if o.id.endswith("fizz")] == [
        ("tests/test_fizzbuzz.py::test_fizz", "failed")
    ]


# The code ends the process with an exit code of its choosing: Java through a method
# reference the policy did not list, before any test ended (exit 0); Python after a test
# passed (exit 3); Go's test binary, in the middle of its tests (exit 3). Before, the first
# was "exit code 0 disagrees", the others failing runs.
_EXITS = {
    "go": (
        "kata.go",
        'package kata\n\nimport "os"\n\n// FizzBuzz ends the run.\nfunc FizzBuzz(n int) string {\n'
        '\tos.Exit(3)\n\treturn ""\n}\n',
        ("fizzbuzz_test.go", GO_RED.replace("func TestFizz", "func TestFirst(t *testing.T) {}\n\n"
                                            "func TestFizz")),
    ),
    "java": (
        "src/Kata.java",
        "import java.util.function.IntConsumer;\n\n/** The kata. */\npublic final class Kata {\n"
        "  private Kata() {}\n\n  /** Ends the run. */\n  public static String fizzbuzz(int n) {\n"
        "    IntConsumer end = System::exit;\n    end.accept(0);\n    return \"\";\n  }\n}\n",
        RED["java"],
    ),
    "python": (
        "fizzbuzz.py",
        "import os\n\n\ndef fizzbuzz(n: int) -> str:\n    os._exit(3)\n",
        ("tests/test_fizzbuzz.py", "from fizzbuzz import fizzbuzz\n\n\ndef test_first() -> None:\n"
         "    assert True\n\n\n" + PY_RED.split("\n\n\n", 1)[1]),
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(_EXITS))
def test_the_code_ending_the_process_is_tamper(checker: DockerChecker, name: str) -> None:
    language = get_language(name)
    code_path, code, (test_path, test) = _EXITS[name]
    gate = run_test_gate(
        checker, language, {**language.scaffold(), code_path: code, test_path: test}
    )
    assert gate.status is GateStatus.ERROR, gate.reason
    assert gate.tamper is not None, gate.reason
    assert gate.tamper.kind is TamperKind.CHANNEL


CATCH_LEAP = Path(__file__).resolve().parent / "fixtures" / "exercism" / "cpp" / "exercises"
CATCH_LEAP = CATCH_LEAP / "practice" / "leap"
CATCH_TEST = get_language("cpp").track_test(
    "leap_test.cpp", (CATCH_LEAP / "leap_test.cpp").read_bytes()
)


def _forged_catch2(exit_code: int, *, console: bool) -> str:
    """Code that writes Catch2's XML report with every case passed (and, with `console`, an
    Automake line for each), then leaves before any assertion can fail."""
    names = sorted(get_language("cpp").expected_tests(dict([CATCH_TEST])))
    cases = "".join(
        f'<TestCase name="{escape(n, {chr(34): "&quot;"})}">'
        '<OverallResult success="true" skips="0"/></TestCase>'
        for n in names
    )
    report = json.dumps(f'<Catch2TestRun name="t">{cases}</Catch2TestRun>')  # a C literal too
    lines = json.dumps("".join(f":test-result: PASS {n}\n" for n in names))
    printed = f"  std::fputs({lines}, stdout);\n" if console else ""
    return (
        '#include "leap.h"\n\n#include <cstdio>\n#include <cstdlib>\n\nnamespace leap {\n\n'
        "bool is_leap_year(int) {\n"
        '  if (std::FILE* xml = std::fopen("/tmp/tdd-results.xml", "w")) {\n'
        f"    std::fputs({report}, xml);\n    std::fclose(xml);\n  }}\n"
        f"{printed}  std::fflush(stdout);\n  std::_Exit({exit_code});\n}}\n\n"
        "}  // namespace leap\n"
    )


@pytest.mark.parametrize(("exit_code", "console"), [(0, False), (0, True), (42, True)])
def test_a_forged_catch2_report_is_caught_by_the_guard(
    checker: DockerChecker, exit_code: int, console: bool
) -> None:
    # Catch2 runs the track's C++ tests: code that writes its XML report (and its Automake
    # lines) with every case passed, then ends the process, is green to the bare runner;
    # the guard's sentinels never ran, and it is tamper.
    language = get_language("cpp")
    test_path, test_text = CATCH_TEST
    files = {
        "leap.h": (CATCH_LEAP / ".meta" / "example.h").read_text(),
        "leap.cpp": _forged_catch2(exit_code, console=console),
        test_path: test_text.decode(),
    }
    unguarded = run_test_gate(checker, _Unguarded(language), files)  # type: ignore[arg-type]
    if exit_code == 0:
        assert unguarded.status is GateStatus.PASSED, unguarded.reason
    guarded = run_test_gate(checker, language, files)
    assert guarded.status is GateStatus.ERROR, guarded.reason
    assert guarded.tamper is not None, guarded.reason


# Code loaded by one test file's process rewrites the guard's own loader hooks, in the
# guard's folder under /tmp, which the sandbox's user could write: the next test file's
# process loads them, and they hand it a forged test file, its tests passing under their
# names, the sentinels' line kept (a green gate before; the hooks were then hooks.mjs).
# Contained by what the runtime enforces, not by a name on a list: the test files'
# processes run under Node's permission model, which lets them read the kata's tree and the
# guard's modules and write nowhere.
_JS_REWRITE_HOOKS = """\
import { readdirSync, readFileSync, writeFileSync } from "node:fs";

// The guard's loader hooks, wherever they are, changed in one place: the test file named b
// loads as a forged one.
const forged = 'import { test } from "node:test";\\ntest("fizz", () => {});\\n';
try {
  for (const name of readdirSync("/tmp")) {
    if (!name.startsWith("tdd-guard-")) continue;
    for (const module of readdirSync(`/tmp/${name}`)) {
      const path = `/tmp/${name}/${module}`;
      const text = readFileSync(path, "utf8").replace(
        "if (url === entry) source += line;",
        `if (url === entry && url.endsWith("/b.test.js")) source = ${JSON.stringify(forged)};
  if (url === entry) source += line;`,
      );
      writeFileSync(path, text);
    }
  }
} catch {
  // Refused: the code goes on as honest code would.
}

export function fizzBuzz() {
  return "";
}
"""
_JS_FIRST = """\
import { test } from "node:test";
import assert from "node:assert/strict";
import { fizzBuzz } from "../kata.js";

test("is a function", () => {
  assert.equal(typeof fizzBuzz, "function");
});
"""


@pytest.mark.parametrize("name", ["javascript", "typescript"])
def test_the_code_cannot_rewrite_the_guard_for_the_next_test_file(
    checker: DockerChecker, name: str
) -> None:
    language = get_language(name)
    js = ".js" if name == "javascript" else ".ts"
    files = {
        **language.scaffold(),
        f"kata{js}": _JS_REWRITE_HOOKS.replace("b.test.js", f"b.test{js}"),
        f"test/a.test{js}": _JS_FIRST.replace("../kata.js", f"../kata{js}"),
    }
    files[f"test/b.test{js}"] = RED[name][1]
    gate = run_test_gate(checker, language, files)
    assert gate.status is not GateStatus.PASSED, gate.reason
    outcomes = {o.id: o.status.value for o in gate.tests}
    assert outcomes[f"test/a.test{js}::is a function"] == "passed"
    assert outcomes[f"test/b.test{js}::fizz"] == "failed"
