"""The phase checks on hand-made reports."""

from __future__ import annotations

import pytest

from tdd_sandbox.grading.gates import GateReport, GateResult, GateStatus
from tdd_sandbox.grading.verdicts import (
    Baseline,
    VerdictError,
    check_green,
    check_red,
    check_refactor,
    policy_gate,
)
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.sandbox.base import ExecResult
from tdd_sandbox.vocabulary.results import NOT_RUN, GateKind, TestOutcome, TestStatus

PY = get_language("python")
OLD = "tests/test_k.py::test_old"
NEW = "tests/test_k.py::test_new"
OLD_SRC = b"def test_old() -> None:\n    pass\n"
BOTH_SRC = OLD_SRC + b"\n\ndef test_new() -> None:\n    pass\n"
BASE = Baseline({"tests/test_k.py": OLD_SRC}, frozenset({OLD}), frozenset({OLD}))
RUN = ExecResult(1, "", "", 0.1)


def _report(*outcomes: tuple[str, TestStatus], fmt: bool = True) -> GateReport:
    tests = tuple(TestOutcome(i, s) for i, s in outcomes)
    ok = all(s is TestStatus.PASSED for _, s in outcomes)
    status = GateStatus.PASSED if ok else GateStatus.FAILED
    format_status = GateStatus.PASSED if fmt else GateStatus.FAILED
    return GateReport(
        "python",
        (
            GateResult(GateKind.FORMAT, format_status, "", RUN),
            GateResult(GateKind.TEST, status, "", RUN, tests),
        ),
    )


def test_red_accepts_one_new_failing_test() -> None:
    report = _report((OLD, TestStatus.PASSED), (NEW, TestStatus.FAILED))
    assert check_red(BASE, {"tests/test_k.py": BOTH_SRC}, report, PY) == {NEW}


def test_red_refuses_an_overshoot() -> None:
    report = _report((OLD, TestStatus.PASSED), (NEW, TestStatus.PASSED))
    with pytest.raises(VerdictError, match="overshoot"):
        check_red(BASE, {"tests/test_k.py": BOTH_SRC}, report, PY)


def test_red_refuses_a_broken_old_test_and_unformatted_code() -> None:
    files = {"tests/test_k.py": BOTH_SRC}
    with pytest.raises(VerdictError, match="passed before now fail: " + OLD):
        check_red(BASE, files, _report((OLD, TestStatus.FAILED), (NEW, TestStatus.FAILED)), PY)
    unformatted = _report((OLD, TestStatus.PASSED), (NEW, TestStatus.FAILED), fmt=False)
    with pytest.raises(VerdictError, match="not formatted"):
        check_red(BASE, files, unformatted, PY)


def test_red_accepts_a_build_failure_that_stops_every_test() -> None:
    report = GateReport(
        "python",
        (
            GateResult(GateKind.FORMAT, GateStatus.PASSED, "", RUN),
            GateResult(
                GateKind.TEST, GateStatus.FAILED, "", RUN,
                tuple(TestOutcome(i, TestStatus.ERROR, NOT_RUN) for i in (OLD, NEW)),
            ),
        ),
    )  # fmt: skip
    assert check_red(BASE, {"tests/test_k.py": BOTH_SRC}, report, PY) == {NEW}


def test_red_accepts_a_failing_new_test_that_ended_the_run() -> None:
    # A Go panic ends the test binary: the tests after it never report. That is red (the old
    # tests were not broken, they did not run); an old test that reported a failure is not.
    later = "tests/test_k.py::test_later"
    base = Baseline({"tests/test_k.py": OLD_SRC}, frozenset({OLD, later}), frozenset({OLD, later}))
    src = OLD_SRC + b"\n\ndef test_later() -> None:\n    pass\n" + BOTH_SRC[len(OLD_SRC) :]
    cut = (TestOutcome(OLD, TestStatus.PASSED), TestOutcome(NEW, TestStatus.FAILED, "panic"))
    missing = TestOutcome(later, TestStatus.ERROR, NOT_RUN)
    report = GateReport(
        "python",
        (
            GateResult(GateKind.FORMAT, GateStatus.PASSED, "", RUN),
            GateResult(GateKind.TEST, GateStatus.FAILED, "", RUN, (*cut, missing)),
        ),
    )
    assert check_red(base, {"tests/test_k.py": src}, report, PY) == {NEW}
    broke = TestOutcome(OLD, TestStatus.FAILED, "assert")
    report = GateReport(
        "python",
        (
            GateResult(GateKind.FORMAT, GateStatus.PASSED, "", RUN),
            GateResult(GateKind.TEST, GateStatus.FAILED, "", RUN, (broke, cut[1], missing)),
        ),
    )
    with pytest.raises(VerdictError, match="passed before now fail: " + OLD):
        check_red(base, {"tests/test_k.py": src}, report, PY)


def test_red_needs_exactly_one_new_test() -> None:
    with pytest.raises(VerdictError, match="no new test"):
        check_red(BASE, dict(BASE.files), _report((OLD, TestStatus.PASSED)), PY)
    three = BOTH_SRC + b"\n\ndef test_third() -> None:\n    pass\n"
    with pytest.raises(VerdictError, match="exactly one new test; found 2"):
        check_red(BASE, {"tests/test_k.py": three}, _report(), PY)


def test_no_new_test_says_what_the_runner_collects() -> None:
    # A test class the runner does not collect used to be "no new test found" and nothing
    # more: the tester could not tell why its test did not count.
    checks = b"class Checks:\n    def test_one(self) -> None:\n        pass\n"
    with pytest.raises(VerdictError, match=r"unittest\.TestCase") as caught:
        check_red(BASE, {**BASE.files, "tests/test_more.py": checks}, _report(), PY)
    assert "Test*" in str(caught.value)


def test_green_and_refactor() -> None:
    green = _report((OLD, TestStatus.PASSED), (NEW, TestStatus.PASSED))
    check_green(frozenset({OLD, NEW}), green, PY, BASE.files)
    with pytest.raises(VerdictError, match="not green"):
        check_green(
            frozenset({OLD, NEW}),
            _report((OLD, TestStatus.PASSED), (NEW, TestStatus.FAILED)),
            PY,
            BASE.files,
        )
    after = Baseline({}, frozenset({OLD, NEW}), frozenset({OLD, NEW}))
    check_refactor(after, green)
    with pytest.raises(VerdictError, match="changed which tests pass"):
        check_refactor(after, _report((OLD, TestStatus.PASSED)))


def test_red_refuses_a_test_that_forgot_its_import() -> None:
    files = {"tests/test_k.py": BOTH_SRC + b"\n\ndef test_f() -> None:\n    assert f(1) == 1\n"}
    undefined = "NameError: name 'f' is not defined"
    report = GateReport(
        "python",
        (
            GateResult(GateKind.FORMAT, GateStatus.PASSED, "", RUN),
            GateResult(
                GateKind.TEST,
                GateStatus.FAILED,
                "",
                RUN,
                (
                    TestOutcome(OLD, TestStatus.PASSED),
                    TestOutcome(NEW, TestStatus.PASSED),
                    TestOutcome("tests/test_k.py::test_f", TestStatus.FAILED, undefined),
                ),
            ),
        ),
    )
    base = Baseline({"tests/test_k.py": BOTH_SRC}, frozenset({OLD, NEW}), frozenset({OLD, NEW}))
    with pytest.raises(VerdictError, match="'f' is never imported") as error:
        check_red(base, files, report, PY)
    assert error.value.kind == "test_mistake"
    # Imported (the NameError comes from the code under test) or star-imported: a real red.
    for head in (b"from k import f\n\n\n", b"from k import *\n\n\n"):
        assert check_red(base, {"tests/test_k.py": head + files["tests/test_k.py"]}, report, PY)


def test_the_policy_gate_judges_a_whole_tree_as_the_loop_judges_a_change() -> None:
    python = get_language("python")
    honest = {"fizzbuzz.py": b"def fizzbuzz(n: int) -> str:\n    return str(n)\n"}
    assert policy_gate(python, honest).status is GateStatus.PASSED
    forging = {"fizzbuzz.py": b"import inspect\n\n\ndef fizzbuzz(n: int) -> str:\n    ...\n"}
    refused = policy_gate(python, forging)
    assert (refused.kind, refused.status) == (GateKind.POLICY, GateStatus.FAILED)
    assert refused.tamper is not None
    assert refused.tamper.kind.value == "policy"
    assert "import:inspect" in refused.output_tail
    assert policy_gate(python, forging, frozenset({"import:inspect"})).passed
    # Not tamper: a test copied into code, and text the judge cannot read.
    copied = {"fizzbuzz.py": b"import pytest\n\n\ndef test_x() -> None:\n    pass\n"}
    assert policy_gate(python, copied).tamper is None
    assert not policy_gate(python, copied).passed
    nested = {"src/lib.rs": b"pub fn f() {\n    /* a /* b */ */\n}\n"}
    unreadable = policy_gate(get_language("rust"), nested)
    assert (unreadable.passed, unreadable.tamper) == (False, None)


@pytest.mark.parametrize(
    ("language", "path", "old", "hidden"),
    [
        ("go", "kata_test.go",
         'package kata\n\nimport "testing"\n\nfunc TestOld(t *testing.T) {}\n',
         '//go:build never\n\npackage kata\n\nimport "testing"\n\nfunc TestOld(t *testing.T) {}\n'),
        ("rust", "tests/kata.rs", "#[test]\nfn old() {}\n",
         '#[cfg(feature = "never")]\n#[test]\nfn old() {}\n'),
    ],
)  # fmt: skip
def test_a_tester_that_turns_old_tests_off_behind_a_tag_is_refused(
    language: str, path: str, old: str, hidden: str
) -> None:
    # The attacker: old tests behind a build tag or a cfg feature nobody sets are not built,
    # so they are no longer expected; hiding a hard test so is removing it.
    pack = get_language(language)
    config = (
        {"go.mod": b"module kata\n\ngo 1.24\n"}
        if language == "go"
        else {"Cargo.toml": b'[package]\nname = "kata"\nversion = "0.1.0"\n'}
    )
    before = {**config, path: old.encode()}
    base = Baseline(before, pack.expected_tests(before), pack.expected_tests(before))
    assert base.expected
    new_test = (
        "kata_new_test.go",
        'package kata\n\nimport "testing"\n\nfunc TestNew(t *testing.T) {}\n',
    )
    if language == "rust":
        new_test = ("tests/new.rs", "#[test]\nfn new() {}\n")
    after = {**config, path: hidden.encode(), new_test[0]: new_test[1].encode()}
    [added] = pack.expected_tests(after) - base.expected
    with pytest.raises(VerdictError, match="removed or renamed"):
        check_red(base, after, _report((added, TestStatus.FAILED)), pack)


def _with_lint(report: GateReport, output: str) -> GateReport:
    lint = GateResult(GateKind.LINT, GateStatus.FAILED, "exited with 1",
                      ExecResult(1, output, "", 0.1))  # fmt: skip
    return GateReport(report.language, (report.gates[0], lint, *report.gates[1:]))


def test_red_refuses_a_test_that_fails_its_own_lint() -> None:
    # No role but the tester may touch a test: an unused import in it can never be cleared,
    # and the loop spent three waves of implementers on it, then stuck.
    red = _report((OLD, TestStatus.PASSED), (NEW, TestStatus.FAILED))
    ruff = "tests/test_k.py:1:8: F401 [*] `os` imported but unused\nFound 1 error.\n"
    with pytest.raises(VerdictError, match="no implementation can fix") as refused:
        check_red(BASE, {"tests/test_k.py": BOTH_SRC}, _with_lint(red, ruff), PY)
    assert "tests/test_k.py:1:8: F401" in str(refused.value)
    # A finding in the code under test is the implementer's to clear: still red.
    in_code = "k.py:3:1: F401 [*] `sys` imported but unused\n"
    assert check_red(BASE, {"tests/test_k.py": BOTH_SRC}, _with_lint(red, in_code), PY) == {NEW}


@pytest.mark.parametrize(
    ("language", "test", "output", "own"),
    [
        ("rust", "tests/k.rs",
         "error: unused import: `std::fmt`\n --> tests/k.rs:1:5\n  |\n1 | use std::fmt;\n"
         "  = note: `-D unused-imports` implied by `-D warnings`\n", True),
        # A name the implementation has yet to define: a compile error, how a RED starts.
        ("rust", "tests/k.rs",
         "error[E0425]: cannot find function `fizz` in crate `k`\n --> tests/k.rs:3:12\n",
         False),
        ("go", "k_test.go", "# k\n./k_test.go:9:2: fmt.Printf format %d reads arg #1, of type "
         "string\n", True),
        ("go", "k_test.go", "# k\nvet: ./k_test.go:5:9: undefined: Fizz\n", False),
        ("javascript", "k.spec.js",
         "\n/work/k.spec.js\n  1:8  error  'os' is defined but never used  no-unused-vars\n\n"
         "✖ 1 problem (1 error, 0 warnings)\n", True),
        ("javascript", "k.spec.js",
         "\n/work/k.js\n  3:7  error  'x' is assigned a value but never used  no-unused-vars\n",
         False),
    ],
)  # fmt: skip
def test_each_linter_s_findings_in_a_test_are_told_from_a_missing_implementation(
    language: str, test: str, output: str, own: bool
) -> None:
    assert bool(get_language(language).lint_faults(output, [test])) is own
