"""The harness's own checks of each phase. The agents' claims count for nothing here.

- RED: exactly one new test; it fails (or fails to compile); every test that passed before
  still passes; the test code is formatted and lint-clean in itself.
- GREEN: every gate green, every expected test ran and passed, none removed or skipped.
- REFACTOR: every gate green and exactly the same tests passing as before.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass

from tdd_sandbox.grading.evidence import Tamper, TamperKind
from tdd_sandbox.grading.gates import GateReport, GateResult, GateStatus
from tdd_sandbox.grading.ids import matches
from tdd_sandbox.grading.policy import check_policy, worst
from tdd_sandbox.languages.base import Language
from tdd_sandbox.sandbox.base import ExecResult
from tdd_sandbox.vocabulary.failures import Failure
from tdd_sandbox.vocabulary.results import NOT_RUN, GateKind, TestOutcome, TestStatus


class VerdictError(ValueError):
    """A phase's result that the harness refuses; the message is feedback for the model and
    `kind` says why."""

    def __init__(self, message: str, kind: Failure) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class Baseline:
    """A green state: its files, the tests they define, and the tests that passed."""

    files: Mapping[str, bytes]
    expected: frozenset[str]
    passing: frozenset[str]


def passing_ids(report: GateReport) -> frozenset[str]:
    """Ids of the tests that passed in `report`."""
    gate = report.gate(GateKind.TEST)
    if gate is None:
        return frozenset()
    return frozenset(o.id for o in gate.tests if o.status is TestStatus.PASSED)


def failing_summary(report: GateReport, *, limit: int = 1500) -> str:
    """The gates that did not pass, with why and the end of their output."""
    lines = []
    for gate in report.gates:
        if not gate.passed:
            lines.append(f"{gate.kind.value} gate {gate.status.value}: {gate.reason}")
            lines.append(gate.output_tail[-limit:])
    return "\n".join(lines)


def refuse_tamper(report: GateReport) -> None:
    """Refuse a state whose test run shows signs of a forged result.

    Raises:
        VerdictError: of the tamper's kind (sentinel, channel, runner), with the evidence.
    """
    for gate in report.gates:
        if gate.tamper is not None:
            raise VerdictError(
                f"{gate.tamper}. Results must come from the tests themselves: write code that "
                "does what the tests ask, and leave the test runner alone",
                Failure(gate.tamper.kind.value),
            )


def check_red(
    base: Baseline, files: Mapping[str, bytes], report: GateReport, language: Language
) -> frozenset[str]:
    """The new test of a RED candidate, after checking the candidate really is red.

    Raises:
        VerdictError: no new test, more than one, it passes (an overshoot), it fails
            through its own fault (a missing import), an old test broke, or the test code is
            not formatted.
    """
    refuse_tamper(report)
    expected = language.expected_tests(files)
    new = expected - base.expected
    if not new:
        gate = report.gate(GateKind.TEST)
        said = ""
        if gate is not None and not gate.passed:
            # Usually the file does not parse: the runner's words say where.
            said = f"\nThe test run said:\n{gate.output_tail[-800:]}"
        raise VerdictError(
            f"no new test found: add one test the runner collects ({language.collects})" + said,
            Failure.NO_NEW_TEST,
        )
    if len(new) > 1:
        raise VerdictError(
            f"write exactly one new test; found {len(new)}: {', '.join(sorted(new))}",
            Failure.MANY_NEW_TESTS,
        )
    lost = base.expected - expected
    if lost:
        raise VerdictError(
            f"existing tests were removed or renamed: {', '.join(sorted(lost))}",
            Failure.REMOVED_TEST,
        )
    fmt = report.gate(GateKind.FORMAT)
    if fmt is not None and not fmt.passed:
        raise VerdictError(
            f"the test code is not formatted:\n{fmt.output_tail[-1200:]}", Failure.NOT_FORMATTED
        )
    gate = report.gate(GateKind.TEST)
    if gate is None:
        raise VerdictError("the test gate did not run", Failure.UNFINISHED_RUN)
    if gate.status in (GateStatus.TIMEOUT, GateStatus.OOM, GateStatus.OUTPUT_LIMIT):
        raise VerdictError(f"the tests did not end cleanly: {gate.reason}", Failure.UNFINISHED_RUN)
    outcomes = {o.id: o for o in gate.tests}
    [new_id] = new
    passed_new = [
        o for i, o in outcomes.items() if matches(i, new_id) and o.status is TestStatus.PASSED
    ]
    failed_new = [
        o for i, o in outcomes.items() if matches(i, new_id) and o.status is not TestStatus.PASSED
    ]
    if passed_new and not failed_new:
        raise VerdictError(
            f"overshoot: the new test {new_id} passed without any implementation change; "
            "write a test for behaviour the code does not have yet",
            Failure.OVERSHOOT,
        )
    for outcome in failed_new:
        if mistake := language.test_mistake(files, outcome):
            raise VerdictError(mistake, Failure.TEST_MISTAKE)
    # A compile error (Rust) or an import error at collection (Python) stops old tests from
    # running, and so may the new test's own failure (a Go panic ends the test binary): that
    # is still red. Otherwise every test that passed must still pass, and one that reported
    # must have passed. The green step needs them all anyway.
    reported = [o for o in gate.tests if o.message != NOT_RUN]
    cut_short = (
        not reported
        or any(o.message != NOT_RUN for o in failed_new)
        or any(
            o.status is TestStatus.ERROR and not any(matches(o.id, e) for e in expected)
            for o in reported
        )
    )
    broken = [t for t in sorted(base.passing) if _broke(outcomes.get(t), cut_short=cut_short)]
    if broken:
        raise VerdictError(
            f"tests that passed before now fail: {', '.join(broken)}", Failure.BROKEN_TEST
        )
    if faults := lint_faults_in_tests(report, language, files):
        # No role but the tester may touch a test file: a test that fails its own lint can
        # never turn green (an unused import in a Rust test took three waves, then stuck).
        raise VerdictError(
            "the test fails the linter in the test file itself, which no implementation can "
            "fix; clean it up:\n" + "\n".join(faults[:10]),
            Failure.TEST_MISTAKE,
        )
    return new


def _broke(outcome: TestOutcome | None, *, cut_short: bool) -> bool:
    missing = outcome is None or outcome.message == NOT_RUN
    if missing:
        return not cut_short
    assert outcome is not None
    return outcome.status is not TestStatus.PASSED


def lint_faults_in_tests(
    report: GateReport, language: Language, files: Mapping[str, bytes]
) -> list[str]:
    """The lint gate's findings in the test files of `files` (none where it passed)."""
    lint = report.gate(GateKind.LINT)
    if lint is None or lint.passed:
        return []
    tests = [path for path in files if language.is_test_path(path)]
    return language.lint_faults(lint.output_tail, tests)


def check_green(
    expected: frozenset[str],
    report: GateReport,
    language: Language,
    files: Mapping[str, bytes],
) -> None:
    """Whether an implementation makes the RED state green.

    Raises:
        VerdictError: a gate is not green, or a test did not run and pass; the test's own
            lint findings are the tester's to fix (`Failure.TEST_MISTAKE`).
    """
    refuse_tamper(report)
    if faults := lint_faults_in_tests(report, language, files):
        # Go's vet reads nothing past a name not yet defined, so a test's own findings show
        # only once the code it calls exists: no implementation can clear them.
        raise VerdictError(
            "the new test fails the linter in its own file, now that the code it calls "
            "exists; only the tester can fix that:\n" + "\n".join(faults[:10]),
            Failure.TEST_MISTAKE,
        )
    if not report.ok:
        raise VerdictError(f"not green:\n{failing_summary(report)}", Failure.NOT_GREEN)
    passed = passing_ids(report)
    missing = [e for e in sorted(expected) if not any(matches(p, e) for p in passed)]
    if missing:
        raise VerdictError(f"these tests did not pass: {', '.join(missing)}", Failure.NOT_GREEN)


def check_refactor(base: Baseline, report: GateReport) -> None:
    """Whether a refactoring kept everything green and the same tests passing.

    Raises:
        VerdictError: it broke a gate or changed which tests pass.
    """
    refuse_tamper(report)
    if not report.ok:
        raise VerdictError(
            f"the refactoring broke a gate:\n{failing_summary(report)}", Failure.NOT_GREEN
        )
    now = passing_ids(report)
    if now != base.passing:
        changed = sorted(now ^ base.passing)
        raise VerdictError(
            f"the refactoring changed which tests pass: {', '.join(changed[:10])}",
            Failure.CHANGED_TESTS,
        )


def check_no_test_code(
    language: Language, before: Mapping[str, bytes], after: Mapping[str, bytes]
) -> None:
    """Refuse implementation files that hold tests (small models copy the test file in).

    Raises:
        VerdictError: a changed non-test file defines a test.
    """
    for path, data in after.items():
        if before.get(path) == data or language.is_test_path(path):
            continue
        text = data.decode("utf-8", "replace")
        if language.defines_tests(path, text):
            raise VerdictError(
                f"{path} holds test code: write only the code under test there; the tests "
                "stay in the test files",
                Failure.TEST_IN_CODE,
            )


def check_policy_of(
    language: Language,
    before: Mapping[str, bytes],
    after: Mapping[str, bytes],
    allow: frozenset[str] = frozenset(),
) -> None:
    """Refuse changed files that use the means of forging a verdict (`grading.policy`).

    Raises:
        VerdictError: kind `policy`, listing the first violations; kind `unreadable` when
            every violation is text the judge could not read (`Violation.unreadable`).
    """
    changed = {path: data for path, data in after.items() if before.get(path) != data}
    found = check_policy(language, changed, tree=after, allow=allow)
    if not found:
        return
    listed = "\n".join(f"- {violation}" for violation in found[:5])
    if worst(found).unreadable:
        why, kind = ("the judge reads every file before it runs and could not read this one as "
                     "the compiler does; write it plainly"), Failure.UNREADABLE  # fmt: skip
    else:
        why, kind = ("the code uses what a kata never needs and what could forge a test "
                     "result; solve the kata with plain code instead (a kata that needs it "
                     "names the rule in its kata.md: `allow: [rule]`)"), Failure.POLICY  # fmt: skip
    raise VerdictError(f"refused before running: {why}:\n{listed}", kind)


def policy_gate(
    language: Language, files: Mapping[str, bytes], allow: frozenset[str] = frozenset()
) -> GateResult:
    """The checks the loop makes before anything runs (no tests in code files, the static
    policy), over a whole tree, as a gate: `tdd-sandbox gates` puts it first, so that a tree
    is green there exactly when the loop would call it green."""
    started = time.monotonic()
    try:
        check_no_test_code(language, {}, files)
        check_policy_of(language, {}, files, allow)
    except VerdictError as refused:
        message = str(refused)
        tamper = Tamper(TamperKind.POLICY, message) if refused.kind.is_tamper else None
        result = ExecResult(1, message, "", time.monotonic() - started)
        first = message.splitlines()[0]
        return GateResult(GateKind.POLICY, GateStatus.FAILED, first, result, tamper=tamper)
    result = ExecResult(0, "", "", time.monotonic() - started)
    return GateResult(GateKind.POLICY, GateStatus.PASSED, "", result)
