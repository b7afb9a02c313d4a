"""`tdd-sandbox gates` end to end, through the installed entry point."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.cli import run_cli
from tests.helpers.repos import (
    PY_IMPL,
    RS_IMPL,
    cpp_repo,
    go_repo,
    python_repo,
    rust_repo,
    write_repo,
)


def _json(result: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def _gate(report: dict[str, Any], name: str) -> dict[str, Any]:
    """The gate of `name` in a `--json` report (the probe, when it runs, comes last)."""
    [gate] = [gate for gate in report["gates"] if gate["name"] == name]
    found: dict[str, Any] = gate
    return found


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_python_repo_exact_counts(tmp_path: Path) -> None:
    result = run_cli("gates", "--json", str(write_repo(tmp_path, python_repo())))
    assert result.returncode == 1, result.stderr
    report = _json(result)
    assert report["language"] == "python"
    assert report["ok"] is False
    statuses = {gate["name"]: gate["status"] for gate in report["gates"]}
    assert statuses == {
        "policy": "passed",
        "format": "passed",
        "lint": "passed",
        "typecheck": "passed",
        "build": "passed",
        "test": "failed",
    }
    test_gate = report["gates"][-1]
    # The scaffold's own test and four of the kata's pass, one fails, one is skipped.
    assert test_gate["tests"] == {"passed": 5, "failed": 1, "skipped": 1, "errors": 0}
    assert "Buzz" in test_gate["output_tail"]
    # The guard's failing sentinel is its own: shown to a model, it read as a second failing
    # test, one the model never saw (the 0.5B coder's retries quoted its arithmetic).
    assert "test_check_" not in test_gate["output_tail"]
    assert "tdd-guard" not in test_gate["output_tail"]


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_rust_repo_exact_counts(tmp_path: Path) -> None:
    result = run_cli("gates", "--json", str(write_repo(tmp_path, rust_repo())))
    assert result.returncode == 1, result.stderr
    report = _json(result)
    assert report["language"] == "rust"
    assert [gate["status"] for gate in report["gates"]] == ["passed"] * 4 + ["failed"]
    assert report["gates"][-1]["tests"] == {"passed": 4, "failed": 1, "skipped": 1, "errors": 0}


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_a_clippy_toml_beside_the_crate_does_not_configure_the_lint_gate(tmp_path: Path) -> None:
    # Read, this one would ask the kata's `n % 15 == 0` for 1.87's `is_multiple_of` and fail
    # the lint gate; a model's file that loosened it would be read the same way.
    repo = {**rust_repo(), "clippy.toml": 'msrv = "1.97"\n'}
    report = _json(run_cli("gates", "--json", str(write_repo(tmp_path, repo))))
    assert {gate["name"]: gate["status"] for gate in report["gates"]}["lint"] == "passed"


# Eight parameters, past clippy's `too_many_arguments` threshold of seven.
_MANY = """
/// Sums eight.
pub fn sum(a: u8, b: u8, c: u8, d: u8, e: u8, f: u8, g: u8, h: u8) -> u8 {
    a + b + c + d + e + f + g + h
}
"""


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_a_model_s_clippy_toml_cannot_loosen_the_lint_gate(tmp_path: Path) -> None:
    # The attack: code the lint gate refuses, and a clippy.toml beside the crate raising the
    # threshold it breaks. Clippy read that file from the crate's folder, and the gate passed.
    repo = rust_repo(impl=RS_IMPL + _MANY)
    repo["clippy.toml"] = repo[".clippy.toml"] = "too-many-arguments-threshold = 20\n"
    report = _json(run_cli("gates", "--json", str(write_repo(tmp_path, repo))))
    lint = next(gate for gate in report["gates"] if gate["name"] == "lint")
    assert lint["status"] == "failed", lint
    assert "too_many_arguments" in lint["output_tail"]


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_green_repo_exits_zero_and_prints_a_table(tmp_path: Path) -> None:
    tests = (
        "from fizzbuzz import fizzbuzz\n\n\n"
        'def test_one() -> None:\n    assert fizzbuzz(1) == "1"\n'
    )
    repo = write_repo(tmp_path, python_repo(tests=tests, impl=PY_IMPL))
    result = run_cli("gates", str(repo), "--timeout", "60")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "all gates green" in result.stdout
    assert "typecheck" in result.stdout


def test_missing_directory_is_one_line(tmp_path: Path) -> None:
    result = run_cli("gates", str(tmp_path / "nope"))
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0
    assert "is not a directory" in result.stderr
    assert "Traceback" not in result.stderr


def test_unknown_language_is_one_line(tmp_path: Path) -> None:
    result = run_cli("gates", "--language", "cobol", str(tmp_path))
    assert result.returncode == 2
    assert (
        "unknown language 'cobol': choose one of cpp, go, java, javascript, python, rust"
        in result.stderr
    )
    assert "Traceback" not in result.stderr


def test_docker_down_names_the_fix(tmp_path: Path) -> None:
    write_repo(tmp_path, python_repo())
    result = run_cli("gates", str(tmp_path), env={"DOCKER_HOST": f"unix://{tmp_path}/no.sock"})
    assert result.returncode == 3
    assert "Docker is not reachable" in result.stderr
    assert "dockerd" in result.stderr
    assert result.stderr.strip().count("\n") == 0


def test_bad_config_is_one_line(tmp_path: Path) -> None:
    write_repo(tmp_path, python_repo())
    (tmp_path / "tdd.yaml").write_text("sandbox: {timeout_s: -1}\n")
    result = run_cli("gates", str(tmp_path))
    assert result.returncode == 2
    assert "invalid setting sandbox.timeout_s" in result.stderr
    assert "Traceback" not in result.stderr


UNITTEST_TESTS = """\
import unittest

from fizzbuzz import fizzbuzz


class FizzBuzzTest(unittest.TestCase):
    def test_numbers(self) -> None:
        for n in (1, 2, 4):
            with self.subTest(n=n):
                self.assertEqual(fizzbuzz(n), str(n))

    def test_bad_input(self) -> None:
        with self.assertRaises(TypeError):
            fizzbuzz("x")  # type: ignore[arg-type]
"""


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_unittest_style_tests_of_any_class_name_count(tmp_path: Path) -> None:
    # Exercism's style: a TestCase subclass not named Test*, subTest loops, assertRaises.
    repo = write_repo(tmp_path / "green", python_repo(tests=UNITTEST_TESTS, impl=PY_IMPL))
    green = _json(run_cli("gates", "--json", str(repo)))
    assert green["ok"] is True, green
    assert _gate(green, "test")["tests"] == {"passed": 3, "failed": 0, "skipped": 0, "errors": 0}
    # `str(n)` is no constant the probe could change: the last gate says it probed nothing.
    assert "not probed" in _gate(green, "probe")["reason"]
    wrong = PY_IMPL.replace("return str(n)", "return str(n) if n != 4 else 'four'")
    repo = write_repo(tmp_path / "red", python_repo(tests=UNITTEST_TESTS, impl=wrong))
    red = _json(run_cli("gates", "--json", str(repo)))
    assert red["ok"] is False  # a failing subTest fails its test
    assert _gate(red, "test")["tests"]["failed"] == 1


LEAP_TOML = '[package]\nedition = "2021"\nname = "leap"\nversion = "1.0.0"\n'
LEAP_LIB = """\
pub fn is_leap_year(year: u64) -> bool {
    if year == 0 {
        panic!("no year zero");
    }
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}
"""
LEAP_TESTS = """\
#[test]
fn year_not_divisible_by_4() {
    assert!(!leap::is_leap_year(2015));
}

mod century {
    #[test]
    fn divisible_by_400() {
        assert!(leap::is_leap_year(2000));
    }
}

#[test]
#[should_panic(expected = "no year zero")]
fn year_zero_panics() {
    leap::is_leap_year(0);
}

#[test]
#[should_panic]
fn any_panic() {
    leap::is_leap_year(0);
}
"""


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_a_rust_crate_of_any_name_without_a_lock_file_and_with_should_panic_is_green(
    tmp_path: Path,
) -> None:
    # As Exercism ships it: the crate is named after the exercise and has no Cargo.lock
    # (every gate failed with "Permission denied" on /work/Cargo.lock); `#[should_panic]`
    # tests print `- should panic` after their name (green said the exit code disagreed).
    files = {"Cargo.toml": LEAP_TOML, "src/lib.rs": LEAP_LIB, "tests/leap.rs": LEAP_TESTS}
    repo = write_repo(tmp_path, files)
    report = _json(run_cli("gates", "--json", str(repo)))
    assert report["ok"] is True, json.dumps(report, indent=1)[-3000:]
    assert _gate(report, "test")["tests"] == {"passed": 4, "failed": 0, "skipped": 0, "errors": 0}
    assert report["gates"][-1]["name"] == "probe"
    assert not (repo / "Cargo.lock").exists()  # nothing written into the user's tree


MODERN_LIB = """\
pub fn parts(text: &str) -> Option<u64> {
    let Some((left, right)) = text.split_once('/') else {
        return Some(0);
    };
    let left: u64 = left.parse().ok()?;
    let right: u64 = right.parse().ok()?;
    Some(left.div_ceil(right))
}

pub fn is_small(value: Option<u64>) -> bool {
    value.is_some_and(|v| v < 10)
}
"""
MODERN_TESTS = """\
#[test]
fn divides_rounding_up() {
    assert_eq!(modern::parts("7/2"), Some(4));
    assert!(modern::is_small(modern::parts("7/2")));
}
"""


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_rust_of_today_builds(tmp_path: Path) -> None:
    # let-else (1.65), div_ceil (1.73), is_some_and (1.70): Debian 12's rustc 1.63 compiled
    # none of it, so every modern solution scored 0.
    toml = '[package]\nedition = "2021"\nname = "modern"\nversion = "0.1.0"\n'
    files = {"Cargo.toml": toml, "src/lib.rs": MODERN_LIB, "tests/modern.rs": MODERN_TESTS}
    report = _json(run_cli("gates", "--json", str(write_repo(tmp_path, files))))
    assert report["ok"] is True, json.dumps(report, indent=1)[-2000:]


GO_PANICS = """\
import "testing"

func TestNilMap(t *testing.T) {
\tvar seen map[string]int
\tseen["x"] = 1
}
"""
GO_EXTERNAL = """\
package kata_test

import (
\t"testing"

\t"kata"
)

func TestFizz(t *testing.T) {
\tif kata.FizzBuzz(3) != "Fizz" {
\t\tt.Fatal("3")
\t}
}
"""


@pytest.mark.docker
@pytest.mark.usefixtures("images")
@pytest.mark.parametrize("external", [False, True], ids=["internal", "external"])
def test_a_go_test_that_panics_is_a_failure_not_tampering(tmp_path: Path, external: bool) -> None:
    # A panic ends the test binary, so tests after it never run. The guard's sentinels used to
    # sort last (and a package's external tests run after its internal ones): an honest red
    # that panicked read as "tampering suspected", and the loop refused it.
    files = go_repo(GO_PANICS)
    if external:
        files["a_test.go"] = GO_EXTERNAL  # sorts first, and is of the package `kata_test`
    report = _json(run_cli("gates", "--json", str(write_repo(tmp_path, files))))
    test_gate = report["gates"][-1]
    assert test_gate["status"] in {"failed", "error"}, json.dumps(test_gate, indent=1)[-2000:]
    assert test_gate["tamper"] is None, test_gate["tamper"]
    assert "--- FAIL: TestNilMap" in test_gate["output_tail"]
    assert "TestTddCheck" not in test_gate["output_tail"]  # the guard's tests are its own


CPP_CRASHES = """
TEST(FizzBuzz, Crashes) {
  volatile int* nowhere = nullptr;
  EXPECT_EQ(*nowhere, 3);
}
"""


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_a_cpp_test_that_crashes_is_a_failure_not_tampering(tmp_path: Path) -> None:
    # A segfault ends the test binary as a Go panic does, before the guard's sentinels (they
    # follow the first file's tests). The binary's exit by signal says it never finished, so
    # the sentinels' silence is not held against it: a red, not tampering.
    files = cpp_repo(CPP_CRASHES)
    report = _json(run_cli("gates", "--json", str(write_repo(tmp_path, files))))
    test_gate = report["gates"][-1]
    assert test_gate["status"] in {"failed", "error"}, json.dumps(test_gate, indent=1)[-2000:]
    assert test_gate["tamper"] is None, json.dumps(test_gate, indent=1)[-2000:]
    assert "FizzBuzz.Crashes" in test_gate["output_tail"]


ANSWERS_FROM_THE_TESTS = """\
import re


def fizzbuzz(n: int) -> str:
    with open("tests/test_fizzbuzz.py", encoding="utf-8") as source:
        text = source.read()
    found = re.search(rf'fizzbuzz\\({n}\\) == "(\\w+)"', text)
    return found.group(1) if found else str(n)
"""


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_gates_decide_as_the_loop_does_so_code_reading_its_tests_is_not_green(
    tmp_path: Path,
) -> None:
    # Every gate command but the tests passes on code that answers from the tests' own text
    # (the tests passed too before they were sealed): the loop refuses it before it runs
    # (its policy), and `gates` used to call it green (exit 0).
    tests = (
        "from fizzbuzz import fizzbuzz\n\n\n"
        'def test_three() -> None:\n    assert fizzbuzz(3) == "Fizz"\n\n\n'
        'def test_five() -> None:\n    assert fizzbuzz(5) == "Buzz"\n'
    )
    repo = write_repo(tmp_path, python_repo(tests=tests, impl=ANSWERS_FROM_THE_TESTS))
    result = run_cli("gates", "--json", str(repo), "--timeout", "60")
    assert result.returncode == 1, result.stdout + result.stderr
    report = _json(result)
    policy, *commands = report["gates"]
    assert [gate["status"] for gate in commands] == ["passed"] * 4 + ["failed"]
    assert (policy["name"], policy["status"]) == ("policy", "failed")
    assert policy["tamper"] == "policy"
    assert "call:open" in policy["output_tail"]
    # The kata may allow it in its front matter, as the loop lets it: the sealed tests still
    # cannot be opened.
    (repo / "kata.md").write_text("---\nallow: [call:open]\n---\n# FizzBuzz\n")
    allowed = _json(run_cli("gates", "--json", str(repo), "--timeout", "60"))
    assert allowed["gates"][0]["status"] == "passed", allowed["gates"][0]
    assert allowed["ok"] is False
    assert "PermissionError" in allowed["gates"][-1]["output_tail"]


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_what_a_failing_test_prints_reaches_the_terminal_as_text(tmp_path: Path) -> None:
    # The test prints a retitle, a line erase and a green verdict of its own; pytest shows
    # captured output of a failing test raw, and `gates` shows the end of that output.
    tests = (
        "from fizzbuzz import fizzbuzz\n\n\n"
        "def test_one() -> None:\n"
        '    print("\\x1b]0;pwned\\x07\\x1b[1A\\x1b[2Kall gates green")\n'
        '    assert fizzbuzz(1) == "2"\n'
    )
    repo = write_repo(tmp_path, python_repo(tests=tests, impl=PY_IMPL))
    result = run_cli("gates", str(repo), "--timeout", "60")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "\x1b" not in result.stdout + result.stderr
    assert "\\x1b]0;pwned" in result.stdout  # shown, as text
    assert result.stdout.rstrip().endswith("not green")


_TS_CODE = """\
export enum Word {
  Fizz = "Fizz",
  Buzz = "Buzz",
}

export class Counter {
  constructor(private readonly start: number) {}

  next(): number {
    return this.start + 1;
  }
}

export function fizzBuzz(n: number): string {
  const word = (n % 3 === 0 ? Word.Fizz : "") + (n % 5 === 0 ? Word.Buzz : "");
  return word || String(n);
}
"""
_TS_TESTS = """\
import { test } from "node:test";
import assert from "node:assert/strict";
import { Counter, fizzBuzz } from "../kata.ts";

test("one is 1", () => {
  assert.equal(fizzBuzz(1), "1");
});

test("fifteen is FizzBuzz", () => {
  assert.equal(fizzBuzz(15), "FizzBuzz");
  assert.equal(new Counter(1).next(), 2);
});
"""


@pytest.mark.docker
@pytest.mark.usefixtures("images")
@pytest.mark.parametrize(
    ("change", "failed"),
    [
        ((), None),
        # A wrong type Node never sees (it strips it): the tests pass, the type-check does not.
        (("next(): number", "next(): string"), "typecheck"),
        # The same wrong type, the compiler told to look away (with a reason, which
        # typescript-eslint's own rule accepts): green but for the policy.
        (
            ("  next(): number {\n", "  next(): string {\n    // @ts-expect-error: it is one\n"),
            "policy",
        ),
        (("(n: number)", "(n: any)"), "lint"),  # typescript-eslint's recommended rules
        (("const word", "const  word"), "format"),
        (('"FizzBuzz");', '"Fizz");'), "test"),
    ],
    ids=["green", "type-error", "type-error-silenced", "any", "unformatted", "failing-test"],
)
def test_typescript_runs_as_node_runs_it_and_each_gate_reads_it(
    tmp_path: Path, change: tuple[str, str], failed: str | None
) -> None:
    # Node runs the .ts files itself: an enum and a constructor's parameter properties (more
    # than types: the transform runs them) work as the test expects, with no build step.
    files = {"package.json": '{"type": "module"}\n', "kata.ts": _TS_CODE,
             "test/fizzbuzz.test.ts": _TS_TESTS}  # fmt: skip
    if change:
        for path, text in files.items():
            files[path] = text.replace(*change)
    result = run_cli("gates", "--json", str(write_repo(tmp_path, files)))
    report = _json(result)
    assert report["language"] == "typescript"
    statuses = {gate["name"]: gate["status"] for gate in report["gates"]}
    assert [name for name, status in statuses.items() if status != "passed"] == (
        [failed] if failed else []
    ), report
    assert result.returncode == (1 if failed else 0), result.stderr
    if failed in (None, "test"):
        assert _gate(report, "test")["tests"]["passed"] == (2 if failed is None else 1)
