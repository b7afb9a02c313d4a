"""Parallel attempts: run N at once, the first green one wins, the rest are cancelled.

Each attempt registers what must be torn down if it loses (its sandbox, its HTTP client) with
its `CancelToken`. When a winner is known, every other token is cancelled at once, from the
calling thread: their containers are gone before the winner is even committed. A lost
attempt's thread may still be waiting on a model; it notices the cancellation when the wait
ends and cleans up its worktree, and `Racer.close` waits for such stragglers.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tdd_sandbox.errors import Interrupted
from tdd_sandbox.vocabulary.cancel import CancelToken, first_done
from tdd_sandbox.vocabulary.failures import Failure

if TYPE_CHECKING:  # the status command imports races without the agents (and git)
    from tdd_sandbox.agents.context import Exchange


class AttemptStatus(enum.StrEnum):
    """How one attempt ended."""

    GREEN = "green"
    FAILED = "failed"
    LOST = "lost"
    """Cancelled because another attempt won (or was green later than the winner)."""
    ERROR = "error"
    """The model endpoint failed: infrastructure, not the model."""
    UNCHANGED = "unchanged"
    """A refactorer that found nothing worth changing: not a failure."""
    DONE = "done"
    """The tester found nothing left to test: the run is complete."""


@dataclass
class AttemptResult:
    """One attempt's end. `payload` carries what the winner needs to land."""

    index: int
    status: AttemptStatus
    model: str = ""
    error: str = ""
    seconds: float = 0.0
    payload: Any = None
    exchange: Exchange | None = None
    """Its ask and the model's answer (None when no answer came): the next wave's attempt
    in its lane continues from it."""
    kind: Failure | None = None
    """Why it failed, where it did."""


Attempt = Callable[[CancelToken], AttemptResult]


@dataclass
class RaceResult:
    """A race's winner (if any), every attempt's result, and how long cancelling took."""

    winner: AttemptResult | None
    results: list[AttemptResult]
    cancel_seconds: float = 0.0
    wall_seconds: float = 0.0


@dataclass
class Racer:
    """Runs races; keeps lost attempts' threads until `close`."""

    stop: CancelToken | None = None
    """A stop from outside (a signal, a stopped bench): it cancels every attempt under way,
    and the race ends `Interrupted`."""
    _pools: list[ThreadPoolExecutor] = field(default_factory=list)

    def run(self, attempts: Sequence[Attempt]) -> RaceResult:
        """Start every attempt at once and return as soon as one is green (or all ended)."""
        started = time.monotonic()
        stop = self.stop or CancelToken()
        tokens = [stop.child() for _ in attempts]
        pool = ThreadPoolExecutor(max_workers=len(attempts), thread_name_prefix="tdd-attempt")
        self._pools.append(pool)
        futures: dict[Future[AttemptResult], int] = {
            pool.submit(attempt, token): index
            for index, (attempt, token) in enumerate(zip(attempts, tokens, strict=True))
        }
        results: dict[int, AttemptResult] = {}
        winner: AttemptResult | None = None
        cancel_seconds = 0.0
        pending = set(futures)
        try:
            while pending and winner is None:
                done, pending = first_done(pending)
                for future in done:
                    result = future.result()
                    results[futures[future]] = result
                    if result.status is AttemptStatus.GREEN and winner is None:
                        winner = result
        except BaseException:
            # Ctrl-C or a bug: nothing of any attempt may outlive the race.
            for token in tokens:
                token.cancel()
            raise
        finally:
            for token in tokens:
                stop.release(token)
        if stop.cancelled:
            # Stopped (which cancelled every attempt's token): nothing of this race lands.
            pool.shutdown(wait=False)
            raise Interrupted
        if winner is not None:
            cancelling = time.monotonic()
            for index, token in enumerate(tokens):
                if index != winner.index:
                    token.cancel()
            cancel_seconds = time.monotonic() - cancelling
            for future in pending:
                results[futures[future]] = AttemptResult(futures[future], AttemptStatus.LOST)
            for index, result in results.items():
                if index != winner.index and result.status is AttemptStatus.GREEN:
                    result.status = AttemptStatus.LOST
        pool.shutdown(wait=False)
        ordered = [results[index] for index in sorted(results)]
        return RaceResult(winner, ordered, cancel_seconds, time.monotonic() - started)

    def close(self) -> None:
        """Wait for every attempt thread still winding down."""
        for pool in self._pools:
            pool.shutdown(wait=True)
        self._pools.clear()
