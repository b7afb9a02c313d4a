"""The probe's plan (which tests change) and its verdict (what a probed run must show)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tdd_sandbox.grading.evidence import TamperKind
from tdd_sandbox.grading.gates import GateReport, judge_tests
from tdd_sandbox.grading.probe import Probe, plan_probe, plan_refactor_probe, plan_tree_probe
from tdd_sandbox.grading.probe_verdict import answered_from_text, check_probe, probe_gate
from tdd_sandbox.grading.verdicts import VerdictError
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.sandbox.base import ExecResult
from tdd_sandbox.vocabulary.failures import Failure
from tdd_sandbox.vocabulary.results import GateKind, TestOutcome, TestStatus
from tests.helpers.katas import python_test_file

PATH = "tests/test_fizzbuzz.py"
ONE, FIZZ = f"{PATH}::test_one", f"{PATH}::test_fizz"


def test_only_the_new_test_is_changed() -> None:
    before = {PATH: python_test_file(1).encode(), "fizzbuzz.py": b"x = 1\n"}
    after = {**before, PATH: python_test_file(2).encode()}
    probe = plan_probe(get_language("python"), before, after, FIZZ, rng=random.Random(3))
    assert probe is not None
    assert probe.test == FIZZ
    assert set(probe.files) == {PATH}
    text = probe.files[PATH].decode()
    # Every test is run under a name that says nothing, and read back by its own.
    assert "def test_one" not in text
    assert "def test_fizz" not in text
    assert sorted(probe.names.values()) == ["test_fizz", "test_one"]
    for neutral, name in probe.names.items():
        text = text.replace(neutral, name)
    old, new = python_test_file(2).splitlines(), text.splitlines()
    [(was, now)] = [(a, b) for a, b in zip(old, new, strict=True) if a != b]
    assert was == '    assert fizzbuzz(3) == "Fizz"'
    assert now != was
    assert probe.where == (f"{PATH}:{old.index(was) + 1}",)


def test_a_test_with_no_expected_side_the_pack_knows_is_not_probed() -> None:
    before = {PATH: python_test_file(1).encode()}
    after = {PATH: before[PATH] + b"\n\ndef test_odd() -> None:\n    assert fizzbuzz(7)\n"}
    assert plan_probe(get_language("python"), before, after, f"{PATH}::test_odd") is None


def _report(*outcomes: TestOutcome) -> GateReport:
    failing = any(o.status is not TestStatus.PASSED for o in outcomes)
    return GateReport("python", (judge_tests(ExecResult(int(failing), "", "", 0.1), outcomes),))


PROBE = Probe(FIZZ, {PATH: b""}, (f"{PATH}:9",), frozenset({FIZZ}))


def test_code_that_fails_the_changed_test_and_passes_the_rest_computes_its_answers() -> None:
    check_probe(PROBE, _report(TestOutcome(ONE, TestStatus.PASSED),
                               TestOutcome(FIZZ, TestStatus.FAILED)))  # fmt: skip


@pytest.mark.parametrize(("one", "fizz", "said"), [
    (TestStatus.PASSED, TestStatus.PASSED, "still passes with its expected values changed"),
    (TestStatus.PASSED, TestStatus.SKIPPED, "did not fail as a test does"),
    (TestStatus.PASSED, TestStatus.ERROR, "did not fail as a test does"),
    (TestStatus.FAILED, TestStatus.FAILED, "test_one"),
    (TestStatus.ERROR, TestStatus.ERROR, "test_one"),  # a build that notices the change
])  # fmt: skip
def test_any_other_run_is_code_that_depends_on_the_tests_text(
    one: TestStatus, fizz: TestStatus, said: str
) -> None:
    report = _report(TestOutcome(ONE, one), TestOutcome(FIZZ, fizz))
    with pytest.raises(VerdictError) as refused:
        check_probe(PROBE, report)
    assert refused.value.kind is Failure.ANSWERS
    assert Failure.ANSWERS.is_tamper
    assert said in str(refused.value)


def test_a_probe_run_with_no_test_outcome_for_the_new_test_is_refused() -> None:
    with pytest.raises(VerdictError, match="did not fail as a test does"):
        check_probe(PROBE, _report(TestOutcome(ONE, TestStatus.PASSED)))


def test_a_refactoring_probe_changes_every_test_and_keeps_the_code_before_it() -> None:
    files = {PATH: python_test_file(2).encode(), "fizzbuzz.py": b"x = 1\n"}
    probe = plan_refactor_probe(get_language("python"), files, rng=random.Random(5))
    assert probe is not None
    assert probe.baseline == files
    assert len(probe.where) == 2


@pytest.mark.parametrize(("before", "after", "said"), [
    (TestStatus.FAILED, TestStatus.PASSED, "refactored code passes"),
    (TestStatus.FAILED, TestStatus.ERROR, "behaves differently"),
])  # fmt: skip
def test_a_refactoring_must_do_on_changed_tests_what_the_code_before_it_did(
    before: TestStatus, after: TestStatus, said: str
) -> None:
    probe = Probe("", {PATH: b""}, (f"{PATH}:5",), frozenset({ONE, FIZZ}), baseline={})
    was = _report(TestOutcome(ONE, TestStatus.FAILED), TestOutcome(FIZZ, before))
    check_probe(probe, was, lambda: was)
    with pytest.raises(VerdictError, match=said) as refused:
        check_probe(probe, _report(TestOutcome(ONE, TestStatus.FAILED),
                                   TestOutcome(FIZZ, after)), lambda: was)  # fmt: skip
    assert refused.value.kind is Failure.ANSWERS


def test_a_refactoring_whose_changed_tests_all_fail_needs_no_run_of_the_code_before_it() -> None:
    probe = Probe("", {PATH: b""}, (f"{PATH}:5",), frozenset({ONE, FIZZ}), baseline={})

    def never() -> GateReport:
        raise AssertionError("the baseline ran although the run settled the verdict")

    check_probe(probe, _report(TestOutcome(ONE, TestStatus.FAILED),
                               TestOutcome(FIZZ, TestStatus.FAILED)), never)  # fmt: skip
    # A test of a changed file that still passes may be one with nothing changed: only the
    # code before the refactoring can say, so it runs; doing the same is accepted.
    mixed = _report(TestOutcome(ONE, TestStatus.FAILED), TestOutcome(FIZZ, TestStatus.PASSED))
    asked: list[int] = []

    def before() -> GateReport:
        asked.append(1)
        return mixed

    check_probe(probe, mixed, before)
    assert asked == [1]
    with pytest.raises(ValueError, match="needs the code before it"):
        check_probe(probe, mixed)


def test_a_whole_trees_probe_names_each_changed_files_tests() -> None:
    other = "tests/test_more.py"
    files = {
        PATH: python_test_file(2).encode(),
        other: b"from fizzbuzz import fizzbuzz\n\n\ndef test_odd() -> None:\n"
        b"    assert fizzbuzz(7)\n",
        "fizzbuzz.py": b"x = 1\n",
    }
    probe = plan_tree_probe(get_language("python"), files, rng=random.Random(5))
    assert probe is not None
    # The other file has no expected side to change: it is run only under neutral names.
    assert set(probe.files) == {PATH, other}
    assert "test_odd" not in probe.files[other].decode()
    assert probe.groups == ((PATH, frozenset({ONE, FIZZ})),)
    assert plan_tree_probe(get_language("python"), {other: files[other]}) is None


TREE = Probe("", {PATH: b""}, (f"{PATH}:5",), frozenset({ONE, FIZZ}),
             groups=((PATH, frozenset({ONE, FIZZ})),))  # fmt: skip
ODD = "tests/test_more.py::test_odd"


@pytest.mark.parametrize(("outcomes", "said"), [
    # Code that read its answers passes the changed tests still.
    ((TestStatus.PASSED, TestStatus.PASSED, TestStatus.PASSED), "every test of"),
    # A test nothing changed that fails now: the code noticed the change.
    ((TestStatus.FAILED, TestStatus.PASSED, TestStatus.FAILED), "behaves differently"),
    ((TestStatus.FAILED, TestStatus.FAILED, TestStatus.ERROR), "behaves differently"),
])  # fmt: skip
def test_a_whole_tree_must_fail_a_changed_test_of_each_file_and_pass_the_rest(
    outcomes: tuple[TestStatus, TestStatus, TestStatus], said: str
) -> None:
    ids = (ONE, FIZZ, ODD)
    with pytest.raises(VerdictError, match=said) as refused:
        check_probe(TREE, _report(*(TestOutcome(i, s) for i, s in zip(ids, outcomes, strict=True))))
    assert refused.value.kind is Failure.ANSWERS
    # Honest code: the changed file's tests fail (one may have had nothing to change), the
    # rest pass.
    for honest in ((TestStatus.FAILED, TestStatus.FAILED), (TestStatus.FAILED, TestStatus.PASSED)):
        run = [TestOutcome(i, s) for i, s in zip(ids, honest, strict=False)]
        check_probe(TREE, _report(*run, TestOutcome(ODD, TestStatus.PASSED)))


def test_a_whole_trees_probe_is_a_gate() -> None:
    refused = probe_gate(TREE, _report(TestOutcome(ONE, TestStatus.PASSED),
                                       TestOutcome(FIZZ, TestStatus.PASSED)))  # fmt: skip
    assert refused.kind is GateKind.PROBE
    assert not refused.passed
    assert refused.tamper is not None
    assert refused.tamper.kind is TamperKind.ANSWERS
    honest = probe_gate(TREE, _report(TestOutcome(ONE, TestStatus.FAILED),
                                      TestOutcome(FIZZ, TestStatus.FAILED)))  # fmt: skip
    assert honest.passed
    assert honest.tamper is None
    unprobed = probe_gate(None, None)
    assert unprobed.passed
    assert "not probed" in unprobed.reason


def test_a_table_of_cases_is_probed_through_the_tests_that_read_it() -> None:
    # Exercism's Go tracks keep the cases in cases_test.go, which defines no test: the tests
    # of leap_test.go loop over it, so any of them may be the one that fails.
    leap = Path("tests/fixtures/exercism/go/exercises/practice/leap")
    files = {p.name: p.read_bytes() for p in leap.iterdir() if p.is_file()}
    probe = plan_tree_probe(get_language("go"), files, rng=random.Random(2))
    assert probe is not None
    assert set(probe.files) == {"cases_test.go", "leap_test.go"}  # the tests, renamed
    [(path, ids)] = probe.groups
    assert path == "cases_test.go"
    assert ids == get_language("go").expected_tests(files)
    assert ids


def test_an_in_process_suites_probe_refuses_the_tests_answered_from_their_text() -> None:
    # Two changed files: a.py's passing test still passes with its values changed (read
    # from the text); b.py's fails as it should; c.py was not changed and must not move.
    probe = Probe(
        "", {}, ("tests/a.py:3",), frozenset({"a::t1", "b::t2"}),
        groups=(("tests/a.py", frozenset({"a::t1"})), ("tests/b.py", frozenset({"b::t2"}))),
    )  # fmt: skip
    passed, failed = TestStatus.PASSED, TestStatus.FAILED
    before = (TestOutcome("a::t1", passed), TestOutcome("b::t2", passed),
              TestOutcome("c::t3", passed), TestOutcome("c::t4", failed))  # fmt: skip
    after = (TestOutcome("a::t1", passed), TestOutcome("b::t2", failed),
             TestOutcome("c::t3", passed), TestOutcome("c::t4", failed))  # fmt: skip
    assert list(answered_from_text(probe, before, after)) == ["a::t1"]
    moved = (*after[:2], TestOutcome("c::t3", failed), after[3])
    assert sorted(answered_from_text(probe, before, moved)) == ["a::t1", "c::t3"]
    # A test that failed before is no score to take away.
    assert answered_from_text(probe, (TestOutcome("a::t1", failed),), after) == {}
