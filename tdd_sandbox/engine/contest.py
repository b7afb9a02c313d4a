"""A phase played out: waves of racing attempts, each fed its own last error, until one is
green, the tester has nothing left to test, or the attempts run out."""

from __future__ import annotations

from functools import partial

from tdd_sandbox.agents.context import Exchange, carried
from tdd_sandbox.engine.attempt import UNCHANGED, Candidate, Task, attempt
from tdd_sandbox.engine.events import RaceEnded
from tdd_sandbox.engine.phases import Outcome
from tdd_sandbox.engine.race import AttemptStatus, Racer
from tdd_sandbox.engine.specs import PhaseSpec, Unchanged
from tdd_sandbox.engine.workshop import Workshop
from tdd_sandbox.llm.chat import InfrastructureError
from tdd_sandbox.vocabulary.failures import Failure
from tdd_sandbox.vocabulary.roles import Role


def contest(
    shop: Workshop, racer: Racer, spec: PhaseSpec, cycle: int, *, waves: int
) -> tuple[Candidate | None, Outcome]:
    """The winning candidate (or None) and how the phase went.

    Raises:
        InfrastructureError: a wave ended with no winner and an endpoint or sandbox failure.
    """
    count = spec.count
    errors = [spec.hint] * count
    # Each lane continues its own conversation: its last answer, then what was wrong with it.
    earlier: list[tuple[Exchange, ...]] = [()] * count
    outcome = Outcome()
    for wave in range(1, waves + 1):
        tasks = [
            Task(spec, cycle, wave, index, errors[index], earlier[index]) for index in range(count)
        ]
        race = racer.run([partial(attempt, shop, task) for task in tasks])
        outcome.attempts = (wave - 1) * count + len(race.results)
        if spec.raced:
            shop.emit(RaceEnded(
                cycle, spec.phase, wave, race.winner.index if race.winner else None,
                [(r.index, r.status.value, r.model) for r in race.results],
                round(race.cancel_seconds, 3), round(race.wall_seconds, 3),
            ))  # fmt: skip
        if race.winner is not None:
            outcome.attempts = (wave - 1) * count + race.winner.index + 1
            winner: Candidate = race.winner.payload
            return winner, outcome
        if any(r.status is AttemptStatus.DONE for r in race.results):
            outcome.done = True
            return None, outcome
        if failures := [r for r in race.results if r.status is AttemptStatus.ERROR]:
            raise InfrastructureError(failures[0].error)
        errors = [r.error for r in race.results]
        for result in race.results:
            if result.exchange is not None:
                earlier[result.index] = carried(earlier[result.index], result.exchange)
        outcome.error = next((e for e in errors if e and e != UNCHANGED), errors[0])
        if spec.role is not Role.TESTER and (
            mistake := next((r for r in race.results if r.kind is Failure.TEST_MISTAKE), None)
        ):
            # Another wave would fail alike: only the tester may touch the test.
            outcome.error, outcome.test_at_fault = mistake.error, True
            break
        if spec.unchanged is Unchanged.QUIET and UNCHANGED in errors:
            outcome.error = UNCHANGED  # the refactorer sees nothing worth changing
            break
    return None, outcome
