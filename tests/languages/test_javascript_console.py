"""A JavaScript test file's process prints text, never a frame of node's runner: the judge's
console (`guard.TEXT_CONSOLE`) against a test file that reports a test which never ran, and
code that prints, as a model's may."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tdd_sandbox.acceptance.scorer import score_kata
from tdd_sandbox.execution.docker_checker import DockerChecker
from tdd_sandbox.grading.gates import GateResult, GateStatus
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.sandbox.snapshot import Snapshot
from tdd_sandbox.settings import load_settings
from tests.helpers.gates import run_test_gate
from tests.helpers.repos import encode

pytestmark = [pytest.mark.docker, pytest.mark.usefixtures("images")]
FIZZBUZZ = Path(__file__).resolve().parents[2] / "katas" / "fizzbuzz"

# node --test reads each test file's process's events from its stdout, as frames: a header,
# a length, a value in V8's serialization. This one, written by node 24's `v8.serialize`,
# says that a test named fizz passed. A test file may print, and node's console handed out
# the raw stream (`console._stdout`): the forger needs neither `process` nor an import.
FRAME = """\
// A test named fizz passed: a frame of node's runner, by hand, on raw stdout.
const body = [
  255, 15, 111, 34, 4, 116, 121, 112, 101, 34, 9, 116, 101, 115, 116, 58, 112, 97,
  115, 115, 34, 4, 100, 97, 116, 97, 111, 34, 4, 110, 97, 109, 101, 34, 4, 102, 105,
  122, 122, 34, 7, 110, 101, 115, 116, 105, 110, 103, 73, 0, 34, 10, 116, 101, 115,
  116, 78, 117, 109, 98, 101, 114, 73, 2, 34, 7, 100, 101, 116, 97, 105, 108, 115,
  111, 34, 11, 100, 117, 114, 97, 116, 105, 111, 110, 95, 109, 115, 73, 2, 123, 1,
  123, 4, 123, 2,
];
const n = body.length;
const head = [0xff, 0x0f, n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
console._stdout.write(new Uint8Array([...head, ...body]));
"""
WRONG = 'export function fizzBuzz() {\n  return "?";\n}\n'
PRINTS = """\
export function fizzBuzz(n) {
  console.log("fizzBuzz of %d", n, { n });
  const word = (n % 3 === 0 ? "Fizz" : "") + (n % 5 === 0 ? "Buzz" : "");
  return word || String(n);
}
"""
SAYS_FIZZ = """\
import { test } from "node:test";
import assert from "node:assert/strict";
import { fizzBuzz } from "../kata.js";

test("fizz", () => {
  console.log("asking", 3);
  assert.equal(fizzBuzz(3), "Fizz");
});
"""


@pytest.fixture(scope="module")
def checker() -> Iterator[DockerChecker]:
    """One checker for the module."""
    with DockerChecker(load_settings(), run_id="pytest-javascript-console") as made:
        yield made


def _test_gate(checker: DockerChecker, files: dict[str, str]) -> GateResult:
    language = get_language("javascript")
    return run_test_gate(checker, language, {**language.scaffold(), **files})


def test_the_frame_is_a_passing_test_to_node_itself(checker: DockerChecker) -> None:
    # The attack works on the image's own node, or the next test proves nothing.
    files = encode({"test/forged.test.mjs": FRAME})
    with checker.open(get_language("javascript"), Snapshot(files)) as box:
        ran = box.exec(["node", "--test", "--test-reporter=tap", "test/forged.test.mjs"])
    assert "ok 1 - fizz" in ran.stdout, ran.stdout[-500:]
    assert "# pass 1" in ran.stdout


def test_a_test_file_cannot_report_a_test_that_never_ran(checker: DockerChecker) -> None:
    gate = _test_gate(checker, {"kata.js": WRONG, "test/fizzbuzz.test.js": FRAME})
    assert gate.status is not GateStatus.PASSED, gate.reason
    passed = {o.id for o in gate.tests if o.status.value == "passed"}
    assert not any(test_id.endswith("::fizz") for test_id in passed), passed


def test_code_and_tests_print_and_still_pass(checker: DockerChecker) -> None:
    gate = _test_gate(checker, {"kata.js": PRINTS, "test/fizzbuzz.test.js": SAYS_FIZZ})
    assert gate.status is GateStatus.PASSED, gate.reason


def test_a_scored_case_prints_and_is_scored_as_its_answer(checker: DockerChecker) -> None:
    # Each case's process (the driver's) has the same console: what the code prints goes to
    # stderr, never among the framed reports on stdout.
    language = get_language("javascript")
    code = {p: d.encode() for p, d in language.scaffold().items() if not language.is_test_path(p)}
    report = score_kata(checker, language, {**code, "kata.js": PRINTS.encode()}, FIZZBUZZ)
    assert report.total > 0
    assert report.passed == report.total, report.why()
    raw = PRINTS.replace('console.log("fizzBuzz of %d", n, { n });', "console._stdout.write(`@@`);")
    report = score_kata(checker, language, {**code, "kata.js": raw.encode()}, FIZZBUZZ)
    assert report.passed == 0, report.why()  # no raw stream to write to: each case fails
