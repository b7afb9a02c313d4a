"""The JavaScript plug-in on its reporter's lines and on source text (no Docker)."""

from __future__ import annotations

import base64
import json

from tdd_sandbox.grading.evidence import cross_check
from tdd_sandbox.grading.reconcile import reconcile
from tdd_sandbox.languages.javascript.discovery import literal_test_names
from tdd_sandbox.languages.javascript.plugin import JAVASCRIPT
from tdd_sandbox.sandbox.base import ExecResult
from tdd_sandbox.vocabulary.results import TestStatus

NONCE = "0123456789abcdef"


def _report(*entries: dict[str, object], end: bool = True) -> bytes:
    lines = [json.dumps(entry) for entry in entries] + ([json.dumps({"end": True})] if end else [])
    return ("\n".join(lines) + "\n").encode()


def _result(stdout: str = "", code: int = 1) -> ExecResult:
    return ExecResult(exit_code=code, stdout=stdout, stderr="", duration_s=0.1)


REPORT = _report(
    {"file": "test/k.test.js", "path": ["one"], "status": "passed", "message": ""},
    {"file": "test/k.test.js", "path": ["multiples", "of five"], "status": "failed",
     "message": "'5' !== 'Buzz'"},
    {"file": "test/k.test.js", "path": ["multiples", "later"], "status": "skipped", "message": ""},
    {"file": "test/broken.test.js", "diagnostic": "SyntaxError: no export named 'nothing'"},
)  # fmt: skip


def test_parses_each_test_with_its_suites_and_a_file_that_did_not_load() -> None:
    outcomes = {o.id: o for o in JAVASCRIPT.parse_results(_result(), REPORT)}
    assert {i: o.status for i, o in outcomes.items()} == {
        "test/k.test.js::one": TestStatus.PASSED,
        "test/k.test.js::multiples > of five": TestStatus.FAILED,
        "test/k.test.js::multiples > later": TestStatus.SKIPPED,
        "test/broken.test.js::<load>": TestStatus.ERROR,
    }
    assert outcomes["test/k.test.js::multiples > of five"].message == "'5' !== 'Buzz'"


def test_a_report_without_its_end_is_an_error_and_a_missing_test_is_one_too() -> None:
    outcomes = JAVASCRIPT.parse_results(_result(), REPORT.replace(b'{"end": true}\n', b""))
    assert "<node>" in {o.id for o in outcomes}
    missing = reconcile(outcomes, {"test/k.test.js::one", "test/k.test.js::two"})
    assert [o.id for o in missing if o.message.startswith("expected")] == ["test/k.test.js::two"]


def test_test_names_follow_literal_calls_and_their_suites() -> None:
    source = """\
// test("commented", () => {});
it("top", async () => { const s = "test(\\"in a string\\")"; });
describe("a", () => {
  describe('b', () => { it.skip("c", () => {}); });
  test(`d`, () => {});
});
test(name, () => {});
test(`x ${y}`, () => {});
"""
    assert list(literal_test_names(source)) == ["top", "a > b > c", "a > d"]


def test_expected_tests_paths_scaffold_and_detection() -> None:
    scaffold = {path: text.encode() for path, text in JAVASCRIPT.scaffold().items()}
    assert JAVASCRIPT.detect(scaffold)
    assert JAVASCRIPT.expected_tests(scaffold) == {"test/scaffold.test.js::scaffold"}
    ignored = {"node_modules/x/a.test.js": b'test("no", () => {});\n'}
    assert JAVASCRIPT.expected_tests(ignored) == frozenset()
    assert JAVASCRIPT.suggest_paths(scaffold, "fizz-buzz") == (
        "test/fizz-buzz.test.js",
        ["kata.js"],
    )
    assert JAVASCRIPT.is_test_path("test/helpers.js")
    assert JAVASCRIPT.is_test_path("a.test.mjs")
    assert not JAVASCRIPT.is_test_path("kata.js")
    for config in ("package.json", ".prettierrc.json", "eslint.config.js", "sub/tsconfig.json"):
        assert JAVASCRIPT.is_runner_config(config), config
    assert JAVASCRIPT.defines_tests("kata.js", 'import { test } from "node:test";\n')


def _guarded(report: bytes, files: list[str]) -> ExecResult:
    frames = "".join(f"@@{NONCE} file {f}\n" for f in files)
    encoded = base64.b64encode(report).decode()
    return _result(f"{frames}spec output\n@@{NONCE} report {encoded} end\n@@{NONCE} end\n")


def _sentinel(name: str, file: str, status: str) -> dict[str, object]:
    return {"file": "../tdd-guard/sentinels.mjs", "path": [f"{name} {file}"], "status": status}


def test_an_honest_guarded_run_agrees_and_hides_the_sentinels() -> None:
    report = _report(
        {"file": "test/k.test.js", "path": ["one"], "status": "passed"},
        _sentinel("tdd_check_012345", "test/k.test.js", "passed"),
        _sentinel("tdd_check_6789ab", "test/k.test.js", "failed"),
    )
    result = _guarded(report, ["test/k.test.js"])
    evidence = JAVASCRIPT.evidence(result, NONCE)
    assert evidence.ended
    own, code, tamper = cross_check(JAVASCRIPT.parse_results(result, report), evidence, 1)
    assert tamper is None
    assert code == 0
    assert [o.id for o in own] == ["test/k.test.js::one"]


def test_a_rigged_assert_passes_the_failing_sentinel_and_is_tamper() -> None:
    report = _report(
        {"file": "test/k.test.js", "path": ["one"], "status": "passed"},
        _sentinel("tdd_check_012345", "test/k.test.js", "passed"),
        _sentinel("tdd_check_6789ab", "test/k.test.js", "passed"),
    )
    result = _guarded(report, ["test/k.test.js"])
    _, _, tamper = cross_check(
        JAVASCRIPT.parse_results(result, report), JAVASCRIPT.evidence(result, NONCE), 0
    )
    assert tamper is not None
    assert "tdd_check_6789ab" in tamper.detail


def test_the_guard_runs_only_the_default_test_command() -> None:
    test = next(g for g in JAVASCRIPT.gates() if g.kind.value == "test").command
    guarded = JAVASCRIPT.guard(test, NONCE)
    assert guarded is not None
    assert "export function register(file)" in guarded[5]
    assert JAVASCRIPT.guard(("node", "--test"), NONCE) is None


def test_what_people_read_has_no_frames() -> None:
    result = _guarded(REPORT, ["test/k.test.js"])
    shown = JAVASCRIPT.readable(result.stdout)
    assert shown.strip() == "spec output"
