"""The red-green-refactor loop: one cycle after another until the tester says done.

The loop holds the policy of a cycle and nothing else: which phase comes next, when to ask
for a smaller test, when a run is stuck. What each phase asks and checks is a `PhaseSpec`
(`engine.specs`), one `attempt` runs any of them, `contest` races them in waves, and the
`Lander` is the only writer of the user's tree, so the branch never sees a red commit.
"""

from __future__ import annotations

from collections.abc import Callable

from tdd_sandbox.agents.team import Team
from tdd_sandbox.engine import specs
from tdd_sandbox.engine.attempt import UNCHANGED, Candidate
from tdd_sandbox.engine.contest import contest
from tdd_sandbox.engine.events import CycleStarted, Event, RedFound, Reverted, SmallerStepAsked
from tdd_sandbox.engine.journal import Journal
from tdd_sandbox.engine.landing import Lander, Landing
from tdd_sandbox.engine.phases import NotGreen, Outcome, Red, RunResult, RunStatus
from tdd_sandbox.engine.race import Racer
from tdd_sandbox.engine.specs import PhaseSpec
from tdd_sandbox.engine.workshop import Workshop
from tdd_sandbox.errors import Interrupted
from tdd_sandbox.execution.base import Checker
from tdd_sandbox.grading.verdicts import Baseline, failing_summary, passing_ids
from tdd_sandbox.katas.kata import Kata
from tdd_sandbox.languages.base import Language
from tdd_sandbox.repo.hardened import HardenedRepo
from tdd_sandbox.repo.history import CommitInfo, head_files, last_commit
from tdd_sandbox.settings import Settings
from tdd_sandbox.vocabulary.cancel import CancelToken
from tdd_sandbox.vocabulary.results import GateKind

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
        checker: Checker,
        team: Team,
        journal: Journal,
        observer: Observer | None = None,
        stop: CancelToken | None = None,
        interface: str = "",
    ) -> None:
        self.repo = repo
        self.kata = kata
        self.interface = interface
        self.kata_path = kata_path
        self.language = language
        self.settings = settings
        self.journal = journal
        self._observer = observer
        self._stop = stop
        self.cycles_done = 0
        self._last_commit: tuple[str, CommitInfo | None] = ("", None)
        self.racer = Racer(stop)
        self.shop = Workshop(
            repo=repo, language=language, checker=checker, settings=settings, team=team,
            journal=journal, emit=self.emit, run_id=journal.run_id,
            allow=kata.allowed_rules(language.name),
        )  # fmt: skip
        self.lander = Lander(repo, kata, team, journal.run_id, settings.commit, self.emit,
                             scripted=not checker.runs_code)  # fmt: skip

    @property
    def commits(self) -> list[str]:
        """The commits this run made, oldest first."""
        return self.lander.commits

    def close(self) -> None:
        """Wait for attempt threads still winding down after losing a race."""
        self.racer.close()

    def check_stop(self) -> None:
        """End the run here if a stop was asked for from outside (between phases only, so
        nothing is ever left half-landed).

        Raises:
            Interrupted: a stop was asked for.
        """
        if self._stop is not None and self._stop.cancelled:
            raise Interrupted

    def emit(self, event: Event) -> None:
        """Record an event in the run log and the state file; show it to the observer."""
        self.journal.event(event)
        if self._observer is not None:
            self._observer(event)

    def _brief(self) -> specs.Brief:
        # Every attempt of a wave shows the same last commit: read its diff once per HEAD.
        head = self.repo.repo.head.commit.hexsha if self.repo.repo.head.is_valid() else ""
        if head != self._last_commit[0] or not head:
            self._last_commit = (head, last_commit(self.repo))
        return specs.Brief(
            self.kata, self.kata_path, self.language, self._last_commit[1], self.interface
        )

    def _play(self, spec: PhaseSpec, cycle: int) -> tuple[Candidate | None, Outcome]:
        return contest(
            self.shop, self.racer, spec, cycle, waves=self.settings.max_attempts_per_agent
        )

    # -- the run ----------------------------------------------------------------------------

    def start(self) -> Baseline:
        """Check that HEAD is green; it is the first baseline.

        Raises:
            NotGreen: HEAD fails its gates.
        """
        files = head_files(self.repo)
        report = self.shop.evaluate(files)
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
            failing, outcome = self.red(number, base, first_cycle=number == 1, hint=hint)
            if outcome.done:
                return RunStatus.COMPLETED, base, "the tester found nothing left to test"
            if failing is None:
                return RunStatus.STUCK, base, f"no valid failing test: {outcome.error}"
            self.check_stop()
            passing, stuck = self.green(number, base, failing)
            if passing is not None:
                after = self.land_green(number, base, failing, passing, stuck.attempts)
                self.check_stop()
                return None, self.refactor(number, after), ""
            if second_try:
                break
            self.emit(SmallerStepAsked(number))
            if stuck.test_at_fault:
                hint = specs.ask_fixed_test(failing, stuck)
            else:
                hint = specs.ask_smaller_test(failing, stuck)
        return RunStatus.STUCK, base, f"the implementer is stuck: {stuck.error}"

    # -- phases -----------------------------------------------------------------------------

    def red(
        self, number: int, base: Baseline, *, first_cycle: bool, hint: str = ""
    ) -> tuple[Red | None, Outcome]:
        """The tester writes one failing test; the harness checks it is really red."""
        spec = specs.specify_red(self._brief(), base, first_cycle=first_cycle, hint=hint)
        found, outcome = self._play(spec, number)
        if found is None:
            return None, outcome
        self.emit(RedFound(number, found.new_test, outcome.attempts))
        gate = found.report.gate(GateKind.TEST)
        output = gate.output_tail if gate is not None else ""
        return Red(found.files, found.new_test, output, found.plan, outcome.attempts), outcome

    def green(self, number: int, base: Baseline, failing: Red) -> tuple[Candidate | None, Outcome]:
        """The implementer makes the new test pass; every gate must be green. With
        `parallel` > 1, that many attempts race in each wave."""
        spec = specs.specify_green(self._brief(), base, failing, count=self.settings.parallel)
        return self._play(spec, number)

    def land_green(
        self, number: int, base: Baseline, failing: Red, passing: Candidate, attempts: int
    ) -> Baseline:
        """Commit a cycle's test and implementation; the new baseline."""
        rationale = f"Test: {failing.plan.plan}\nImplementation: {passing.plan.plan}"
        tries = {"tester": failing.attempts, "implementer": attempts}
        landing = Landing(number, "feat", rationale, tries)
        self.lander.land(landing, base.files, passing.files, passing.report, passing.plan)
        files, report = passing.files, passing.report
        return Baseline(files, self.language.expected_tests(files), passing_ids(report))

    def refactor(self, number: int, base: Baseline) -> Baseline:
        """The refactorer may improve structure; anything not exactly as green is dropped."""
        count = self.settings.parallel_refactor
        better, outcome = self._play(
            specs.specify_refactor(self._brief(), base, count=count), number
        )
        if better is None:
            if outcome.error != UNCHANGED:
                self.emit(Reverted(number, outcome.error[:300]))
            return base
        landing = Landing(number, "refactor", better.plan.plan, {"refactorer": outcome.attempts})
        self.lander.land(landing, base.files, better.files, better.report, better.plan)
        return Baseline(better.files, base.expected, passing_ids(better.report))
