"""A cancellation ends a wait at once, whatever the waited-on work is doing."""

from __future__ import annotations

import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from types import FrameType

import pytest

from tdd_sandbox.vocabulary.cancel import Cancelled, CancelToken, result_of


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


def test_a_stop_signal_a_worker_s_thread_takes_reaches_the_main_thread_waiting_on_it() -> None:
    # `future.result()` blocked the main thread until the work ended, and with it the
    # handler of a signal that the worker's thread took (see `HEED_S`).
    stopped = threading.Event()

    def work() -> str:
        time.sleep(0.5)  # the main thread waits on it by now
        signal.pthread_kill(threading.get_ident(), signal.SIGUSR2)
        return "ended on its own" if not stopped.wait(15) else "stopped"

    def stop(signum: int, frame: FrameType | None) -> None:
        stopped.set()
        raise InterruptedError

    previous = signal.signal(signal.SIGUSR2, stop)
    try:
        with ThreadPoolExecutor(max_workers=1) as pool:
            future = pool.submit(work)
            with pytest.raises(InterruptedError):
                result_of(future)
    finally:
        signal.signal(signal.SIGUSR2, previous)
    assert future.result() == "stopped"
