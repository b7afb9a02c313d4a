"""Cancelling one attempt: what a lost racer must tear down, registered as it goes."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable


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
