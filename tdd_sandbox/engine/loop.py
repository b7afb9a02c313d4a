"""The red-green-refactor loop: one cycle after another until the tester says done.

Each phase gives its role up to `max_attempts_per_agent` attempts, feeding the last error
back each time. Candidates live in memory and in the sandbox; only a green state is ever
written to the working tree and committed, so the branch never sees a red commit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from tdd_sandbox.agents.context import Situation
from tdd_sandbox.agents.team import Team
from tdd_sandbox.engine import attempt as attempts
from tdd_sandbox.engine.attempt import UNCHANGED, Candidate, Task, Workshop
from tdd_sandbox.engine.commits import CommitFacts, compose, diff_summary
from tdd_sandbox.engine.edits import EditRejected, Role, apply_plan, check_on_disk, write_changes
from tdd_sandbox.engine.events import (
    AttemptStarted,
    Committed,
    CycleStarted,
    Event,
    RaceEnded,
    RedFound,
    Rejected,
    Reverted,
    SmallerStepAsked,
)
from tdd_sandbox.engine.journal import Journal
from tdd_sandbox.engine.phases import NotGreen, Outcome, Phase, Red, RunResult, RunStatus
from tdd_sandbox.engine.race import AttemptStatus, Racer
from tdd_sandbox.errors import Interrupted, TddSandboxError
from tdd_sandbox.execution.base import Runtime
from tdd_sandbox.grading.failures import Failure
from tdd_sandbox.grading.gates import GateReport
from tdd_sandbox.grading.verdicts import (
    Baseline,
    VerdictError,
    check_green,
    check_policy_of,
    check_red,
    check_refactor,
    failing_summary,
    passing_ids,
)
from tdd_sandbox.katas.kata import Kata
from tdd_sandbox.languages.base import GateKind, Language
from tdd_sandbox.llm.chat import InfrastructureError
from tdd_sandbox.protocol import EditPlan
from tdd_sandbox.repo.hardened import HardenedRepo
from tdd_sandbox.repo.history import (
    CommitInfo,
    commit_paths,
    dirty_paths,
    head_files,
    last_commit,
)
from tdd_sandbox.settings import Settings

RED_GATES = frozenset({GateKind.FORMAT, GateKind.TEST})
Observer = Callable[[Event], None]


class Loop:
    """Drives one kata repository through cycles."""

    def __init__(
        self,
        *,
        repo: HardenedRepo,
        kata: Kata,
        kata_path: str,
        language: Language,
        settings: Settings,
        runtime: Runtime,
        team: Team,
        journal: Journal,
        observer: Observer | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> None:
        self.repo = repo
        self.kata = kata
        self.kata_path = kata_path
        self.language = language
        self.settings = settings
        self.runtime = runtime
        self.team = team
        self.journal = journal
        self._observer = observer
        self._stop = stop
        self.commits: list[str] = []
        self.cycles_done = 0
        self._last_commit: tuple[str, CommitInfo | None] = ("", None)
        self.racer = Racer()
        self.shop = Workshop(
            repo=repo, language=language, runtime=runtime, settings=settings, team=team,
            journal=journal, emit=self.emit, run_id=journal.run_id, allow=kata.allowed_rules,
        )  # fmt: skip

    def close(self) -> None:
        """Wait for attempt threads still winding down after losing a race."""
        self.racer.close()

    # -- plumbing ---------------------------------------------------------------------------

    def check_stop(self) -> None:
        """End the run here if a stop was asked for from outside (between phases only, so
        nothing is ever left half-landed).

        Raises:
            Interrupted: a stop was asked for.
        """
        if self._stop is not None and self._stop():
            raise Interrupted

    def emit(self, event: Event) -> None:
        """Record an event in the run log and the state file; show it to the observer."""
        self.journal.event(event)
        if self._observer is not None:
            self._observer(event)

    def evaluate(self, files: Mapping[str, bytes], kinds: frozenset[GateKind] | None) -> GateReport:
        """Run gates on `files` in a fresh sandbox."""
        return self.shop.evaluate(files, kinds)

    @staticmethod
    def _tester_task(base: Baseline, test_path: str) -> str:
        if test_path not in base.files:
            return f"Create {test_path} with the imports it needs and one failing test."
        return (
            f"Write the next failing test in {test_path}: the whole file, with its imports "
            "and every test already in it, plus one new test."
        )

    def _situation(self, files: Mapping[str, bytes], task: str, **extra: Any) -> Situation:
        return Situation(
            kata_text=self.kata.text,
            kata_path=self.kata_path,
            files=files,
            language=self.language,
            task=task,
            last_commit=self._head_commit(),
            **extra,
        )

    def _head_commit(self) -> CommitInfo | None:
        # Every attempt of a wave shows the same last commit: read its diff once per HEAD.
        head = self.repo.repo.head.commit.hexsha if self.repo.repo.head.is_valid() else ""
        if head != self._last_commit[0] or not head:
            self._last_commit = (head, last_commit(self.repo))
        return self._last_commit[1]

    # -- the run ----------------------------------------------------------------------------

    def start(self) -> Baseline:
        """Check that HEAD is green; it is the first baseline.

        Raises:
            NotGreen: HEAD fails its gates.
        """
        files = head_files(self.repo)
        report = self.evaluate(files, None)
        if not report.ok:
            first_problem = failing_summary(report, limit=300).splitlines()[0]
            raise NotGreen(
                f"HEAD does not pass its own gates ({first_problem}), so no cycle can start "
                "from it: fix it or reset to a green commit"
            )
        return Baseline(files, self.language.expected_tests(files), passing_ids(report))

    def run(self, first_cycle: int, cycles: int) -> RunResult:
        """Up to `cycles` cycles, numbered from `first_cycle`."""
        base = self.start()
        for number in range(first_cycle, first_cycle + cycles):
            self.check_stop()
            self.emit(CycleStarted(number))
            status, base, reason = self.cycle(number, base)
            if status is not None:
                return RunResult(status, self.cycles_done, self.commits, reason)
            self.cycles_done += 1
        return RunResult(
            RunStatus.MAX_CYCLES, self.cycles_done, self.commits, f"{cycles} cycles done"
        )

    def cycle(self, number: int, base: Baseline) -> tuple[RunStatus | None, Baseline, str]:
        """One red-green-refactor cycle; a status when the run should end there."""
        hint = ""
        for second_try in (False, True):
            red, outcome = self.red(number, base, first_cycle=number == 1, hint=hint)
            if outcome.done:
                return RunStatus.COMPLETED, base, "the tester found nothing left to test"
            if red is None:
                return RunStatus.STUCK, base, f"no valid failing test: {outcome.error}"
            self.check_stop()
            green, green_outcome = self.green(number, base, red)
            if green is not None:
                after = self.land_green(number, base, red, green, green_outcome.attempts)
                self.check_stop()
                return None, self.refactor(number, after), ""
            if second_try:
                break
            # The supervisor's move: ask once for a smaller step before giving up.
            self.emit(SmallerStepAsked(number))
            hint = (
                f"The implementer could not make your test {red.new_test} pass in "
                f"{green_outcome.attempts} attempts (last error: {green_outcome.error[:600]}). "
                "Write a smaller, simpler test instead."
            )
        return RunStatus.STUCK, base, f"the implementer is stuck: {green_outcome.error}"

    def land_green(
        self, number: int, base: Baseline, red: Red, green: Candidate, attempts: int
    ) -> Baseline:
        """Commit a cycle's test and implementation; the new baseline."""
        files, report, plan = green.files, green.report, green.plan
        self.land(
            number, "feat", base.files, files, report, plan,
            rationale=f"Test: {red.plan.plan}\nImplementation: {plan.plan}",
            attempts={"tester": red.attempts, "implementer": attempts},
        )  # fmt: skip
        return Baseline(files, self.language.expected_tests(files), passing_ids(report))

    # -- phases -----------------------------------------------------------------------------

    def red(
        self, number: int, base: Baseline, *, first_cycle: bool, hint: str = ""
    ) -> tuple[Red | None, Outcome]:
        """The tester writes one failing test; the harness checks it is really red."""
        outcome = Outcome()
        error, kind = hint, Failure.OTHER
        scaffold = {path: text.encode() for path, text in self.language.scaffold().items()}
        kata_tests = base.expected - self.language.expected_tests(scaffold)
        test_path = self.language.suggest_paths(base.files, self.kata.slug)[0]
        task = self._tester_task(base, test_path)
        for attempt in range(1, self.settings.max_attempts_per_agent + 1):
            outcome.attempts = attempt
            step = f"cycle-{number:03d}-red-{attempt}"
            self.emit(AttemptStarted(number, Phase.RED, attempt))
            answer = self.team[Role.TESTER].propose(
                self._situation(base.files, task, previous_error=error, target=test_path)
            )
            record: dict[str, Any] = {"phase": "red", "cycle": number, "attempt": attempt}
            if answer.plan is None:
                error, kind = answer.error or "invalid answer", answer.kind
            elif answer.plan.done and not kata_tests:
                error, kind = (
                    "done before any test of the kata was written: write the first test",
                    Failure.PREMATURE_DONE,
                )
            elif answer.plan.done:
                self.journal.plan(step, answer.plan.plan)
                self.journal.step(step, {**record, "done": True})
                outcome.done = True
                return None, outcome
            else:
                self.journal.plan(step, answer.plan.plan)
                try:
                    files = apply_plan(
                        base.files, answer.plan, Role.TESTER, self.language, first_cycle=first_cycle
                    )
                    check_on_disk(self.repo.path, base.files, files)
                    check_policy_of(self.language, base.files, files, self.shop.allow)
                    files, report = self.shop.judge(base.files, files, RED_GATES)
                    [new_test] = check_red(base, files, report, self.language)
                except (EditRejected, VerdictError) as exc:
                    error, kind = str(exc), exc.kind
                else:
                    self.journal.step(step, {**record, "ok": True, "new_test": new_test})
                    self.emit(RedFound(number, new_test, attempt))
                    output = gate.output_tail if (gate := report.gate(GateKind.TEST)) else ""
                    return Red(files, new_test, output, answer.plan, attempt), outcome
            self.journal.step(step, {**record, "ok": False, "error": error, "kind": kind})
            self.emit(Rejected(number, Phase.RED, attempt, error[:300], kind))
        outcome.error = error
        return None, outcome

    def green(self, number: int, base: Baseline, red: Red) -> tuple[Candidate | None, Outcome]:
        """The implementer makes the new test pass; every gate must be green. With
        `parallel` > 1, that many attempts race in each wave."""
        expected = self.language.expected_tests(red.files)
        _, sources = self.language.suggest_paths(red.files, self.kata.slug)
        where = f" Write the code in {', '.join(sources)}." if sources else ""
        text = f"Make the failing test pass: {red.new_test}.{where} Change only non-test files."

        def situation(error: str) -> Situation:
            return self._situation(
                red.files, text, focus=[red.new_test.split("::")[0]],
                gate_output=red.test_output, previous_error=error,
                target=sources[0] if sources else "",
            )  # fmt: skip

        def check(files: Mapping[str, bytes], report: GateReport) -> None:
            check_green(expected, report)

        return self._contest(
            Phase.GREEN, Role.IMPLEMENTER, number, base.files, red.files,
            situation, check, self.settings.parallel,
        )  # fmt: skip

    def refactor(self, number: int, base: Baseline) -> Baseline:
        """The refactorer may improve structure; anything not exactly as green is dropped."""

        sources = self.language.suggest_paths(base.files, self.kata.slug)[1]

        def situation(error: str) -> Situation:
            text = "Refactor if it helps; keep behaviour."
            target = sources[0] if sources else ""
            return self._situation(base.files, text, previous_error=error, target=target)

        def check(files: Mapping[str, bytes], report: GateReport) -> None:
            check_refactor(base, report)

        candidate, outcome = self._contest(
            Phase.REFACTOR, Role.REFACTORER, number, base.files, base.files,
            situation, check, self.settings.parallel_refactor,
        )  # fmt: skip
        if candidate is None:
            if outcome.error != UNCHANGED:
                self.emit(Reverted(number, outcome.error[:300]))
            return base
        self.land(
            number, "refactor", base.files, candidate.files, candidate.report, candidate.plan,
            rationale=candidate.plan.plan, attempts={"refactorer": outcome.attempts},
        )  # fmt: skip
        return Baseline(candidate.files, base.expected, passing_ids(candidate.report))

    def _contest(
        self,
        phase: Phase,
        role: Role,
        number: int,
        head: Mapping[str, bytes],
        start: Mapping[str, bytes],
        situation: Callable[[str], Situation],
        check: Callable[[Mapping[str, bytes], GateReport], None],
        count: int,
    ) -> tuple[Candidate | None, Outcome]:
        """Waves of `count` racing attempts, each fed its own last error, until one is green.

        Raises:
            InfrastructureError: a wave ended with no winner and an endpoint failure.
        """
        errors = [""] * count
        outcome = Outcome()
        for wave in range(1, self.settings.max_attempts_per_agent + 1):
            tasks = [
                Task(phase, role, number, wave, index, count, head, start,
                     situation(errors[index]), check)
                for index in range(count)
            ]  # fmt: skip
            race = self.racer.run([partial(attempts.attempt, self.shop, task) for task in tasks])
            outcome.attempts = (wave - 1) * count + len(race.results)
            self.emit(RaceEnded(
                number, phase, wave, race.winner.index if race.winner else None,
                [(r.index, r.status.value, r.model) for r in race.results],
                round(race.cancel_seconds, 3), round(race.wall_seconds, 3),
            ))  # fmt: skip
            if race.winner is not None:
                outcome.attempts = (wave - 1) * count + race.winner.index + 1
                candidate: Candidate = race.winner.payload
                return candidate, outcome
            failures = [r for r in race.results if r.status is AttemptStatus.ERROR]
            if failures:
                raise InfrastructureError(failures[0].error)
            errors = [r.error for r in race.results]
            outcome.error = next((e for e in errors if e and e != UNCHANGED), errors[0])
            if phase is Phase.REFACTOR and UNCHANGED in errors:
                outcome.error = UNCHANGED  # the refactorer sees nothing worth changing
                break
        return None, outcome

    # -- landing ----------------------------------------------------------------------------

    def land(
        self,
        number: int,
        kind: str,
        before: Mapping[str, bytes],
        after: Mapping[str, bytes],
        report: GateReport,
        plan: EditPlan,
        *,
        rationale: str,
        attempts: dict[str, int],
    ) -> str:
        """Write a green state to the working tree and commit it.

        Raises:
            TddSandboxError: the working tree changed under the run.
        """
        if dirty := dirty_paths(self.repo):
            raise TddSandboxError(
                f"the working tree changed during the run ({', '.join(dirty[:3])}): "
                "commit or discard those changes, then run again"
            )
        if head_files(self.repo) != dict(before):
            raise TddSandboxError("HEAD moved during the run: run again to continue from it")
        changed = write_changes(self.repo.path, before, after)
        message = compose(
            CommitFacts(
                kind=kind,
                scope=self.kata.slug,
                model_message=plan.commit_message,
                kata_title=self.kata.title,
                cycle=number,
                run_id=self.journal.run_id,
                models=self.team.models(),
                attempts=attempts,
                rationale=rationale,
                diff_summary=diff_summary(before, after),
                report=report,
            )
        )
        sha = commit_paths(self.repo, changed, message, self.settings.commit)
        self.commits.append(sha)
        self.emit(Committed(number, kind, sha, message.splitlines()[0]))
        return sha
