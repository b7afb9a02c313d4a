"""The phases as specs: what each role is asked, on which files, and what it is held to.

The wording of every task lives here, and each phase's check comes from `grading.verdicts`,
so a rule of the game is read in one place and decided in another, never in the loop.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from tdd_sandbox.agents.context import Situation
from tdd_sandbox.engine.phases import Outcome, Phase, Red
from tdd_sandbox.grading.gates import GateReport
from tdd_sandbox.grading.probe import Probe, plan_probe, plan_refactor_probe
from tdd_sandbox.grading.verdicts import (
    Baseline,
    VerdictError,
    check_green,
    check_red,
    check_refactor,
)
from tdd_sandbox.katas.kata import Kata
from tdd_sandbox.languages.base import Language
from tdd_sandbox.repo.history import CommitInfo
from tdd_sandbox.vocabulary.failures import Failure
from tdd_sandbox.vocabulary.results import GateKind
from tdd_sandbox.vocabulary.roles import Role


class Unchanged(enum.Enum):
    """What an attempt whose plan changes nothing comes to."""

    JUDGED = "judged"
    """Judged like any other (a tester's: the verdict says no new test was found)."""
    REFUSED = "refused"
    """Told to change something (an implementer's)."""
    QUIET = "quiet"
    """Ends quietly: nothing worth changing (a refactorer's)."""


Grade = Callable[[Mapping[str, bytes], GateReport], str]
"""A phase's check of a judged candidate (from `grading.verdicts`): raises VerdictError
unless it may land, and returns the new test's id (RED) or ""."""


@dataclass(frozen=True)
class PhaseSpec:
    """One phase, as data: who acts, on which files, told what, judged by which gates and
    which check. `engine.attempt` runs any of them; the functions below build them."""

    phase: Phase
    role: Role
    head: Mapping[str, bytes]
    """The files at HEAD (a racing attempt's worktree starts there)."""
    start: Mapping[str, bytes]
    """The files the attempt changes: HEAD, or HEAD with the RED test."""
    context: Situation
    """What the model is shown (its `previous_error` is filled in per attempt)."""
    grade: Grade
    gates: frozenset[GateKind] | None = None
    """The gates that judge it (None: every gate)."""
    count: int = 1
    """Attempts racing in each wave."""
    raced: bool = True
    """Whether the phase is one that races (RED never does: its waves are retries, and no
    race is recorded for them)."""
    first_cycle: bool = False
    """The tester may create the scaffold's runner config, exactly as the scaffold has it."""
    code_only: bool = True
    """Refuse test code written into non-test files."""
    unchanged: Unchanged = Unchanged.REFUSED
    too_early: str = ""
    """Why "done" may not end the run yet (before the kata's first test)."""
    hint: str = ""
    """The first attempt's feedback (the supervisor's request for a smaller test)."""
    probe: Probe | None = None
    """Tests with their expected values changed, run on a candidate that passes the gates:
    GREEN must fail the new one, a refactoring must do what the code before it did
    (`grading.probe`)."""


RED_GATES = frozenset({GateKind.FORMAT, GateKind.LINT, GateKind.TEST})
"""A failing test is judged on its layout, its own lint and its run. The lint gate may fail
by design while the code the test calls does not exist yet: only its findings in the test
file that no implementation can clear refuse it (`Language.lint_faults`). The other gates
fail by design."""


@dataclass(frozen=True)
class Brief:
    """What every phase of a run is told: the kata, where it is, and the last commit."""

    kata: Kata
    kata_path: str
    language: Language
    last_commit: CommitInfo | None
    interface: str = ""
    """How the kata's acceptance suite reaches its code (`acceptance.suite.interface`)."""

    def situation(
        self,
        files: Mapping[str, bytes],
        task: str,
        *,
        target: str = "",
        focus: Sequence[str] = (),
        gate_output: str = "",
        may_finish: bool = False,
        may_keep: bool = False,
    ) -> Situation:
        """A prompt's situation: the kata, `files`, the one-line `task`, the file the role
        most likely writes, the files to show first, and the failing run's output."""
        return Situation(
            kata_text=self.kata.text, kata_path=self.kata_path, files=files,
            language=self.language, task=task, last_commit=self.last_commit, focus=focus,
            gate_output=gate_output, target=target, may_finish=may_finish, may_keep=may_keep,
        )  # fmt: skip


def specify_red(brief: Brief, base: Baseline, *, first_cycle: bool, hint: str = "") -> PhaseSpec:
    """The tester writes exactly one new test, which must fail for the right reason."""
    language = brief.language
    # The scaffold's own tests, as they stand in this repository: an imported stub may have
    # moved them into its package (Go), which renames them.
    scaffold = {
        path: data
        for path, data in base.files.items()
        if path in language.scaffold()
        and (language.is_test_path(path) or language.is_runner_config(path))
    }
    kata_tests = base.expected - language.expected_tests(scaffold)
    test_path = language.suggest_paths(base.files, brief.kata.slug)[0]
    if test_path not in base.files:
        task = f"Create {test_path} with the imports it needs and one failing test."
    else:
        task = (
            f"Write the next failing test in {test_path}: the whole file, with its imports "
            "and every test already in it, plus one new test."
        )

    def grade(files: Mapping[str, bytes], report: GateReport) -> str:
        [new_test] = check_red(base, files, report, language)
        test = files.get(new_test.partition("::")[0], b"").decode("utf-8", "replace")
        if brief.interface and (misplaced := language.misplaced_import(brief.interface, test)):
            # A test of the kata's function in a module of the tester's naming makes the
            # loop build it there, green, where the acceptance suite never looks (0 of 12).
            raise VerdictError(misplaced, Failure.TEST_MISTAKE)
        return new_test

    return PhaseSpec(
        Phase.RED, Role.TESTER, base.files, base.files,
        brief.situation(base.files, task, target=test_path, may_finish=True), grade,
        gates=RED_GATES, first_cycle=first_cycle, code_only=False,
        unchanged=Unchanged.JUDGED, hint=hint, raced=False,
        too_early="" if kata_tests else (
            "done before any test of the kata was written: write the first test"
        ),
    )  # fmt: skip


def specify_green(brief: Brief, base: Baseline, failing: Red, *, count: int) -> PhaseSpec:
    """The implementer makes the new test pass with every gate green, tests untouched."""
    language = brief.language
    expected = language.expected_tests(failing.files)
    _, sources = language.suggest_paths(failing.files, brief.kata.slug)
    where = f" Write the code in {', '.join(sources)}." if sources else ""
    task = f"Make the failing test pass: {failing.new_test}.{where} Change only non-test files."

    def grade(files: Mapping[str, bytes], report: GateReport) -> str:
        check_green(expected, report, language, files)
        return ""

    context = brief.situation(
        failing.files, task, focus=[failing.new_test.split("::")[0]],
        gate_output=failing.test_output, target=sources[0] if sources else "",
    )  # fmt: skip
    probe = plan_probe(language, base.files, failing.files, failing.new_test)
    return PhaseSpec(Phase.GREEN, Role.IMPLEMENTER, base.files, failing.files, context, grade,
                     count=count, probe=probe)  # fmt: skip


def specify_refactor(brief: Brief, base: Baseline, *, count: int) -> PhaseSpec:
    """The refactorer may improve structure; exactly the same tests must pass after."""
    sources = brief.language.suggest_paths(base.files, brief.kata.slug)[1]

    def grade(files: Mapping[str, bytes], report: GateReport) -> str:
        check_refactor(base, report)
        return ""

    context = brief.situation(
        base.files, "Refactor if it helps; keep behaviour.",
        target=sources[0] if sources else "", may_keep=True,
    )  # fmt: skip
    probe = plan_refactor_probe(brief.language, base.files)
    return PhaseSpec(Phase.REFACTOR, Role.REFACTORER, base.files, base.files, context, grade,
                     count=count, unchanged=Unchanged.QUIET, probe=probe)  # fmt: skip


def ask_fixed_test(failing: Red, stuck: Outcome) -> str:
    """The supervisor's move when the new test is at fault (its own lint findings, seen only
    once the code exists): the tester writes it again, the findings in view."""
    return (
        f"Your test {failing.new_test} cannot pass as written, whatever the code: "
        f"{stuck.error[:900]}\nWrite the test again without that fault."
    )


def ask_smaller_test(failing: Red, stuck: Outcome) -> str:
    """The supervisor's move when the implementer is stuck: ask the tester once for a
    smaller test (the hint opens the next RED)."""
    return (
        f"The implementer could not make your test {failing.new_test} pass in "
        f"{stuck.attempts} attempts (last error: {stuck.error[:600]}). "
        "Write a smaller, simpler test instead."
    )
