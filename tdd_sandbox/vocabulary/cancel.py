"""Cancelling one attempt (what a lost racer must tear down, registered as it goes), or a
whole run or bench (a token whose children are its attempts)."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, wait
from typing import TypeVar

T = TypeVar("T")

HEED_S = 0.2
"""The longest the main thread waits on other threads at a time. The kernel hands a process's
signal to any of its threads, and Python runs the handler only once the main thread runs
again: one blocked for good on its workers did not hear a SIGHUP that a worker's thread took
until the work ended by itself (issue 48: a stopped run's tests hung for their 300 s)."""


def first_done(futures: Iterable[Future[T]]) -> tuple[set[Future[T]], set[Future[T]]]:
    """`concurrent.futures.wait(futures, return_when=FIRST_COMPLETED)` for the main thread:
    waited for a slice (`HEED_S`) at a time, so that a stop signal is heard at once."""
    pending = set(futures)
    while True:
        done, pending = wait(pending, timeout=HEED_S, return_when=FIRST_COMPLETED)
        if done or not pending:
            return done, pending


def result_of(future: Future[T]) -> T:
    """`future.result()` for the main thread, waited for as `first_done` waits."""
    first_done([future])
    return future.result()


class Cancelled(Exception):
    """The token was cancelled while its holder waited."""


class CancelToken:
    """Cancellation for one attempt, with the teardown it registered."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._closers: list[Callable[[], None]] = []

    @property
    def cancelled(self) -> bool:
        """Whether the attempt lost."""
        return self._event.is_set()

    def register(self, closer: Callable[[], None]) -> bool:
        """Run `closer` on cancellation. False (and `closer` runs now) if already cancelled."""
        with self._lock:
            if not self._event.is_set():
                self._closers.append(closer)
                return True
        closer()
        return False

    def unregister(self, closer: Callable[[], None]) -> None:
        """Forget `closer` (its resource was released normally)."""
        with self._lock, contextlib.suppress(ValueError):
            self._closers.remove(closer)

    def cancel(self) -> None:
        """Mark the attempt lost and tear down what it registered."""
        with self._lock:
            self._event.set()
            closers, self._closers = self._closers, []
        for closer in closers:
            with contextlib.suppress(Exception):
                closer()

    def child(self) -> CancelToken:
        """A token cancelled with this one (at once if this one already is): a stopped bench
        or run cancels every attempt it has under way. `release` it when its work ends."""
        child = CancelToken()
        self.register(child.cancel)
        return child

    def release(self, child: CancelToken) -> None:
        """Forget `child`, whose work has ended."""
        self.unregister(child.cancel)

    def call(self, work: Callable[[], T]) -> T:
        """`work()`'s result, computed in a thread of its own so that a cancellation ends
        the wait at once: a model request may hang for minutes, and neither a lost attempt
        nor a stopped run waits for it (an abandoned call's result is dropped; its thread is
        a daemon, so it never holds the process open).

        Raises:
            Cancelled: the token was cancelled before `work` ended.
        """
        ended = threading.Event()
        results: list[T] = []
        errors: list[BaseException] = []

        def run() -> None:
            try:
                results.append(work())
            except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread
                errors.append(exc)
            finally:
                ended.set()

        if not self.register(ended.set):
            raise Cancelled
        try:
            threading.Thread(target=run, name="tdd-call", daemon=True).start()
            ended.wait()
        finally:
            self.unregister(ended.set)
        if errors:
            raise errors[0]
        if not results:
            raise Cancelled
        return results[0]
