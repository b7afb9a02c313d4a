"""The race itself, with plain functions as attempts: first green wins, the rest are torn down."""

from __future__ import annotations

import threading
import time

import pytest

from tdd_sandbox.engine.race import Attempt, AttemptResult, AttemptStatus, Racer
from tdd_sandbox.vocabulary.cancel import CancelToken


def _attempt(index: int, delay: float, status: AttemptStatus, torn: list[int]) -> Attempt:
    def run(token: CancelToken) -> AttemptResult:
        token.register(lambda: torn.append(index))
        deadline = time.monotonic() + delay
        while time.monotonic() < deadline:
            if token.cancelled:
                return AttemptResult(index, AttemptStatus.LOST)
            time.sleep(0.01)
        return AttemptResult(index, status)

    return run


def test_the_fastest_green_wins_and_the_others_are_torn_down_at_once() -> None:
    torn: list[int] = []
    racer = Racer()
    started = time.monotonic()
    race = racer.run(
        [
            _attempt(0, 2.0, AttemptStatus.GREEN, torn),
            _attempt(1, 0.2, AttemptStatus.FAILED, torn),
            _attempt(2, 0.4, AttemptStatus.GREEN, torn),
        ]
    )
    assert race.winner is not None
    assert race.winner.index == 2
    assert time.monotonic() - started < 1.5  # not waiting for the slow one
    assert sorted(torn) == [0, 1]  # the loser still running, and the failed one's leftovers
    assert [r.status for r in race.results] == [
        AttemptStatus.LOST,
        AttemptStatus.FAILED,
        AttemptStatus.GREEN,
    ]
    racer.close()


def test_no_winner_when_every_attempt_fails() -> None:
    torn: list[int] = []
    race = Racer().run([_attempt(i, 0.05, AttemptStatus.FAILED, torn) for i in range(3)])
    assert race.winner is None
    assert [r.status for r in race.results] == [AttemptStatus.FAILED] * 3


def test_a_closer_registered_after_cancellation_runs_at_once() -> None:
    token = CancelToken()
    token.cancel()
    closed = threading.Event()
    assert token.register(closed.set) is False
    assert closed.is_set()


def test_an_interrupt_tears_down_every_attempt() -> None:
    torn: list[int] = []

    def boom(token: CancelToken) -> AttemptResult:
        raise KeyboardInterrupt

    racer = Racer()
    with pytest.raises(KeyboardInterrupt):
        racer.run([_attempt(0, 1.0, AttemptStatus.GREEN, torn), boom])
    assert torn == [0]
    racer.close()
