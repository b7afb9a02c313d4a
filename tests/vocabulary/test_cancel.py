"""A cancellation ends a wait at once, whatever the waited-on work is doing."""

from __future__ import annotations

import threading
import time

import pytest

from tdd_sandbox.vocabulary.cancel import Cancelled, CancelToken


def test_a_call_returns_its_result_and_raises_its_error() -> None:
    token = CancelToken()
    assert token.call(lambda: 42) == 42
    with pytest.raises(ZeroDivisionError):
        token.call(lambda: 1 / 0)


def test_a_cancellation_ends_the_wait_on_a_call_that_never_returns() -> None:
    token = CancelToken()
    release = threading.Event()
    threading.Timer(0.2, token.cancel).start()
    started = time.monotonic()
    with pytest.raises(Cancelled):
        token.call(release.wait)
    assert time.monotonic() - started < 5  # not the call's own end, which never comes
    release.set()


def test_a_cancelled_token_starts_no_call() -> None:
    token = CancelToken()
    token.cancel()
    ran: list[int] = []
    with pytest.raises(Cancelled):
        token.call(lambda: ran.append(1))
    assert ran == []
