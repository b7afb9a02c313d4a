"""Test mode (`bench --mode test`): the model writes tests from the kata and its starting
files, and is scored by the bugs its tests catch.

Its tests first run against the kata's reference, twice: a test that fails there is a wrong
test, and one whose outcome changes between the runs is flaky; both are counted and set aside
(a first try with wrong tests or none that run hears why, once). The rest, the sound tests,
run against mutants of the reference (`grading.mutants`). A mutant the hidden suite passes is
equivalent, and one it cannot run was stillborn: both are dropped, so only mutants the
kata's own suite tells apart from the reference count. A mutant is killed when a sound test
fails on it, and fails again when run once more: a test that fails by luck (a coin it
tosses) rarely fails twice in a row.

The score (`mutation_score`) is the share of counted mutants killed, times the share of the
written tests that are sound:

    mutation_score = mutants_killed / mutants_counted * sound_tests / tests_written

so tests that check nothing but luck, or check the wrong thing, cost what they add.
"""

from __future__ import annotations

import functools
import re
import time
from collections import Counter
from pathlib import Path
from typing import Any

from tdd_sandbox.acceptance.suite import has_reference
from tdd_sandbox.acceptance.testfiles import run_test_files
from tdd_sandbox.agents.context import Exchange, Situation, carried
from tdd_sandbox.agents.team import build_team
from tdd_sandbox.bench.mutation import kill_mutants, reference_files
from tdd_sandbox.bench.solo import solo_metrics, try_edits
from tdd_sandbox.errors import UsageError
from tdd_sandbox.execution.checkers import open_checker
from tdd_sandbox.grading.acceptance import AcceptanceReport, CaseResult, CaseStatus
from tdd_sandbox.katas.kata import load_kata
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.repo.scaffolding import starting_files
from tdd_sandbox.settings import Settings
from tdd_sandbox.vocabulary.cancel import CancelToken
from tdd_sandbox.vocabulary.failures import Failure
from tdd_sandbox.vocabulary.roles import Role

TRIES = 2
TASK = (
    "Write tests for the whole kata: every behaviour the kata describes, each checked with "
    "the exact values it specifies. Write test files only; the implementation is not yours. "
    "Your tests will be run against correct and subtly wrong implementations."
)


def score_tests(
    kata_dir: Path,
    language_name: str,
    settings: Settings,
    *,
    run_id: str,
    record: Path | None = None,
    replay: Path | None = None,
    stop: CancelToken | None = None,
) -> dict[str, Any]:
    """One test-mode job: the model's tests, judged on the reference and on its mutants.
    Cancelling `stop` ends it at once (`Cancelled`), whatever it waits on.

    Raises:
        UsageError: the kata has no reference in the language to measure tests against.
        InfrastructureError: the endpoint is unusable.
        SandboxUnavailable, PrerequisiteError: the sandbox is.
    """
    started = time.monotonic()
    language = get_language(language_name)
    if not has_reference(kata_dir, language.name):
        raise UsageError(
            f"{kata_dir.name} has no reference in {language.name}: test mode measures tests "
            f"against it and its mutants (add reference/{language.name}/)"
        )
    kata = load_kata(kata_dir / "kata.md")
    start = {p: t.encode() for p, t in starting_files(language, kata_dir).items()}
    reference = reference_files(language, kata_dir)
    allow = kata.allowed_rules(language.name)
    test_path = language.suggest_paths(start, kata.slug)[0]
    team = build_team(settings, record=record, replay=replay, header={"mode": "test"})
    stop = stop or CancelToken()
    files, feedback = start, ""
    earlier: tuple[Exchange, ...] = ()
    kinds: Counter[Failure] = Counter()  # why tries were refused
    tests: dict[str, bytes] = {}
    on_reference: AcceptanceReport | None = None
    try:
        agent = team[Role.TESTER]
        with open_checker(settings, for_scores="the bench", run_id=run_id) as checker:
            versions = checker.versions(language)
            for _ in range(TRIES):
                situation = Situation(
                    kata_text=kata.text,
                    kata_path="kata.md",
                    files=files,
                    language=language,
                    task=TASK,
                    previous_error=feedback,
                    target=test_path,
                    solo=True,
                    earlier=earlier,
                )
                tried = try_edits(agent, situation, kinds, stop, first_cycle=True)
                files, feedback = tried.files, tried.feedback
                earlier = carried(earlier, tried.exchange)
                if feedback:
                    continue
                # The model's own: a scaffold's test of the toolchain catches no bug.
                written = {
                    p: d for p, d in files.items()
                    if language.is_test_path(p) and start.get(p) != d
                }  # fmt: skip
                if not language.expected_tests(written):
                    feedback = f"No test the runner collects: write {language.collects}."
                    continue
                # Measured together: the tests and their run on the reference, never a
                # later try's tests with an earlier try's verdicts.
                tests = written
                on_reference = stop.call(
                    functools.partial(run_test_files, checker, language, reference, tests, allow)
                )
                wrong = [r for r in on_reference.results if r.status is not CaseStatus.PASSED]
                if not wrong:
                    break
                feedback = wrong_on_reference(wrong)
            figures = stop.call(
                functools.partial(
                    kill_mutants,
                    checker,
                    language,
                    kata_dir,
                    tests,
                    on_reference,
                    against_luck=True,
                )
            )
    finally:
        team.close()
    return {
        **solo_metrics(team.ledger, kinds, wall_s=time.monotonic() - started, gate_s=0.0),
        "status": "completed",
        "reason": "",
        **figures,
        # The bench's one score per job: the share of bugs the tests catch.
        "acceptance_pass_rate": figures["mutation_score"] or 0.0,
        "judged": "mutants",
        "gate_time_s": figures["mutation_s"],
        "green_commits": 0,
        "sandbox": versions,
    }


_ERROR_TYPE = re.compile(r"\b([A-Z][A-Za-z0-9_]*(?:Error|Exception|Panic|Failure))\b")


def wrong_on_reference(wrong: list[CaseResult]) -> str:
    """What a tester hears of its tests that fail on a correct implementation: which, and
    how (an assertion, or the error's type), never what the runner printed, which quotes
    the reference's own answers (`assert 'Fizz' == 'Fuzz'`): a second try that read them
    needed to test nothing to have its values right."""

    def how(result: CaseResult) -> str:
        if result.status is CaseStatus.NO_RESULT:
            return "it did not run to a result (it did not build, import or end)"
        found = _ERROR_TYPE.search(result.detail)
        if found is None or found.group(1) == "AssertionError":
            return "an assertion failed"
        return f"it raised {found.group(1)}"

    return "These tests fail on a correct implementation:\n" + "\n".join(
        f"- {result.id}: {how(result)}" for result in wrong[:10]
    )
