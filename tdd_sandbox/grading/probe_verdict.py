"""The probe's verdict: whether a candidate computes its answers, from its run on tests whose
expected values changed (`grading.probe` plans that run). Pure: it reads reports only."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tdd_sandbox.grading.evidence import Tamper, TamperKind
from tdd_sandbox.grading.gates import GateReport, GateResult, GateStatus
from tdd_sandbox.grading.ids import matches
from tdd_sandbox.grading.probe import Probe
from tdd_sandbox.grading.verdicts import VerdictError, refuse_tamper
from tdd_sandbox.sandbox.base import ExecResult
from tdd_sandbox.vocabulary.failures import Failure
from tdd_sandbox.vocabulary.results import GateKind, TestOutcome, TestStatus


def check_probe(
    probe: Probe, report: GateReport, baseline: Callable[[], GateReport] | None = None
) -> None:
    """Whether a candidate computes its answers. GREEN: with only the new test's expected
    values changed (`probe`), it must fail that test and pass every other. A refactoring:
    every test must do what it does on the code before it (`baseline()`, its run on the
    same changed tests, made only when the refactoring's own run cannot settle it).

    Raises:
        VerdictError: `answers` (tamper) when it still passes a changed test, or when its
            results move in any other way (a build or test run that notices the change).
        ValueError: a refactoring's probe with no `baseline` to run.
    """
    refuse_tamper(report)
    gate = report.gate(GateKind.TEST)
    outcomes = gate.tests if gate is not None else ()
    where = ", ".join(probe.where[:3])
    if probe.groups:
        _check_tree(probe, outcomes, where)
        return
    if probe.baseline is not None:
        if baseline is None:
            raise ValueError("a refactoring's probe needs the code before it to compare with")
        if not _gains_nothing(probe, outcomes):
            _check_same(outcomes, baseline(), where)
        return
    mine = [o for o in outcomes if matches(o.id, probe.test)]
    others = [o for o in outcomes if not matches(o.id, probe.test)]
    if any(o.status is TestStatus.PASSED for o in mine):
        raise VerdictError(
            f"{probe.test} still passes with its expected values changed ({where}): the code "
            "answers from the test's text, not from the kata. Compute the answers",
            Failure.ANSWERS,
        )
    moved = [o.id for o in others if o.status is not TestStatus.PASSED]
    if not mine or any(o.status is not TestStatus.FAILED for o in mine) or moved:
        said = f"{probe.test} did not fail as a test does" if not moved else ", ".join(moved)
        raise VerdictError(
            f"the code behaves differently when only the new test's expected values change "
            f"({where}): {said}. Code may not depend on the tests' text",
            Failure.ANSWERS,
        )


def check_names(probe: Probe, run: GateReport) -> None:
    """Whether a green candidate's tests pass under neutral names (`probe.renamed`, values as
    written) as they passed under their own.

    Raises:
        VerdictError: `answers` (tamper) when a test fails there: the code answered it from
            its name (a name may say the answer: `test_fizzbuzz_of_3_is_fizz`).
    """
    if not probe.renamed:
        return
    refuse_tamper(run)
    gate = run.gate(GateKind.TEST)
    outcomes = gate.tests if gate is not None else ()
    failed = [o.id for o in outcomes if o.status is not TestStatus.PASSED]
    if failed or not outcomes:
        said = ", ".join(failed[:3]) or "no test ran"
        raise VerdictError(
            f"run under names that say nothing, with every expected value as written, the "
            f"code fails what it passed under the tests' own names ({said}): it answers from "
            "the test's name, not from the kata. Compute the answers",
            Failure.ANSWERS,
        )


def answered_by_name(
    first: Sequence[TestOutcome], renamed: Sequence[TestOutcome]
) -> dict[str, str]:
    """Each test that passed under its own name and not under a neutral one (`renamed`, its
    ids read back), and why: it was answered from its name."""
    now = {o.id: o.status for o in renamed}
    return {
        o.id: "passes under its own name, fails under a neutral one"
        for o in first
        if o.status is TestStatus.PASSED
        and not any(s is TestStatus.PASSED for i, s in now.items() if matches(i, o.id))
    }


def _check_tree(probe: Probe, outcomes: tuple[TestOutcome, ...], where: str) -> None:
    """A whole tree's probe: a test of each changed file fails, every other test passes.

    Raises:
        VerdictError: `answers` otherwise.
    """
    for path, ids in probe.groups:
        mine = [o for o in outcomes if any(matches(o.id, t) for t in ids)]
        if not any(o.status is TestStatus.FAILED for o in mine):
            raise VerdictError(
                f"every test of {path} still passes with its expected values changed "
                f"({where}): the code answers from the tests' text, not from the kata",
                Failure.ANSWERS,
            )
    moved = [
        o.id
        for o in outcomes
        if o.status is not TestStatus.PASSED and not any(matches(o.id, t) for t in probe.perturbed)
    ]
    if moved:
        raise VerdictError(
            f"the code behaves differently when only other tests' expected values change "
            f"({where}): {', '.join(moved[:3])}. Code may not depend on the tests' text",
            Failure.ANSWERS,
        )


def _gains_nothing(probe: Probe, outcomes: tuple[TestOutcome, ...]) -> bool:
    """Whether a refactoring's run on changed tests is settled without the code before it:
    every test of a changed file failed (as a test fails) and every other passed. Answering
    from the text shows only as a changed test passing, so no code before it can make such
    a run suspect, and the comparison run is saved."""
    changed = probe.perturbed
    return bool(outcomes) and all(
        o.status
        is (TestStatus.FAILED if any(matches(o.id, t) for t in changed) else TestStatus.PASSED)
        for o in outcomes
    )


def _check_same(outcomes: tuple[TestOutcome, ...], before: GateReport, where: str) -> None:
    """Raises VerdictError (`answers`) unless each test does what it did `before`."""
    gate = before.gate(GateKind.TEST)
    was = {o.id: o.status for o in (gate.tests if gate is not None else ())}
    now = {o.id: o.status for o in outcomes}
    gained = sorted(i for i, s in now.items() if s is TestStatus.PASSED and was.get(i) != s)
    moved = sorted(i for i in was.keys() | now.keys() if was.get(i) != now.get(i))
    if gained:
        raise VerdictError(
            f"with the tests' expected values changed ({where}), the refactored code passes "
            f"{', '.join(gained)}, which the code before it failed: it answers from the "
            "tests' text. Keep the behaviour the tests ask for",
            Failure.ANSWERS,
        )
    if moved:
        raise VerdictError(
            f"with the tests' expected values changed ({where}), the refactored code behaves "
            f"differently from the code before it: {', '.join(moved)}. Code may not depend "
            "on the tests' text",
            Failure.ANSWERS,
        )


def probe_gate(
    probe: Probe | None, report: GateReport | None, named: GateReport | None = None
) -> GateResult:
    """A whole tree's probe as a gate (`tdd-sandbox gates` puts it last, after a green run):
    `report` is the tests' run on `probe`'s changed files, `named` their run under neutral
    names (None with no probe: no test has an expected value the judge can change, said as
    the reason)."""
    gate = report.gate(GateKind.TEST) if report is not None else None
    result = gate.result if gate is not None else ExecResult(0, "", "", 0.0)
    tests = gate.tests if gate is not None else ()
    if probe is None or report is None:
        why = "not probed: no assertion has an expected value the judge knows how to change"
        return GateResult(GateKind.PROBE, GateStatus.PASSED, why, result)
    try:
        if named is not None:
            check_names(probe, named)
        check_probe(probe, report)
    except VerdictError as refused:
        message = str(refused)
        tamper = (gate.tamper if gate is not None else None) or (
            Tamper(TamperKind.ANSWERS, message) if refused.kind.is_tamper else None
        )
        return GateResult(GateKind.PROBE, GateStatus.FAILED, message, result, tests, tamper)
    why = f"{len(probe.where)} expected values changed, and the code failed them"
    return GateResult(GateKind.PROBE, GateStatus.PASSED, why, result, tests)


def answered_from_text(
    probe: Probe, before: Sequence[TestOutcome], after: Sequence[TestOutcome]
) -> dict[str, str]:
    """An in-process suite's probe (its run `before`, its run `after` on `probe`'s changed
    files), test by test: the tests that passed before and that the probe shows answered
    from the tests' text, each with why. A changed file of which every test that passed
    before passes still read its answers; a test of an unchanged file that passed and moved
    depends on the tests' text."""
    passed = {o.id for o in before if o.status is TestStatus.PASSED}
    found: dict[str, str] = {}
    for path, ids in probe.groups:
        mine = [o for o in after if any(matches(o.id, t) for t in ids)]
        kept = sorted(i for i in passed if any(matches(i, t) for t in ids))
        if kept and not any(o.status is TestStatus.FAILED for o in mine):
            why = (f"every test of {path} that passed still passes with its expected values "
                   "changed: answered from the tests' text")  # fmt: skip
            found |= dict.fromkeys(kept, why)
    now = {o.id: o.status for o in after}
    for test_id in sorted(passed):
        unchanged_file = not any(matches(test_id, t) for t in probe.perturbed)
        if unchanged_file and now.get(test_id) is not TestStatus.PASSED:
            found[test_id] = ("behaves differently when only other tests' expected values "
                              "change: depends on the tests' text")  # fmt: skip
    return found
