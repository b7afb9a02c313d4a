"""What each signal does to a run, with no engine: the fake checker and a model that takes
its time (tests/engine/test_stop.py has each signal in a model request, a gate and a race,
in Docker)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from tests.helpers.cli import PROMPTLY_S, as_from_a_terminal, wait_until
from tests.helpers.fake_llm import FakeLLM, plan
from tests.helpers.runs import KATAS, ROLES

SLOW = plan(("tests/test_fizzbuzz.py", "def test_one() -> None:\n    assert False\n"))
SLOW.delay_s = 600


def _run(repo: Path, fake: FakeLLM, preexec: Callable[[], None]) -> subprocess.Popen[str]:
    env = {
        **os.environ,
        "TDD_SANDBOX_SANDBOX__TYPE": "fake",
        "TDD_SANDBOX_LLM__BASE_URL": fake.base_url,
        "TDD_SANDBOX_LLM__TIMEOUT_S": "900",
        **{f"TDD_SANDBOX_ROLES__{r.upper()}__MODEL": f"custom:{r}" for r in ROLES},
    }
    return subprocess.Popen(
        [sys.executable, "-m", "tdd_sandbox", "run", str(KATAS / "fizzbuzz" / "kata.md"),
         "--repo", str(repo), "--language", "python", "--json"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=preexec,
    )  # fmt: skip


def _nohup() -> None:
    as_from_a_terminal()
    signal.signal(signal.SIGHUP, signal.SIG_IGN)


def test_a_run_waiting_on_its_model_stops_at_once_on_sigint(tmp_path: Path) -> None:
    with FakeLLM({"tester": [SLOW]}) as fake:
        run = _run(tmp_path / "kata", fake, as_from_a_terminal)
        try:
            wait_until(lambda: bool(fake.requests), run, timeout_s=60, settle_s=0.3)
            sent = time.monotonic()
            run.send_signal(signal.SIGINT)
            assert run.wait(timeout=60) == 130
            assert time.monotonic() - sent < PROMPTLY_S
        finally:
            run.kill()


def _ignored(pid: int, signum: int) -> bool:
    """Whether the kernel discards `signum` for `pid` (its `SigIgn` mask): a discarded
    signal never reaches the process, so no wait is needed to see it did nothing."""
    status = Path(f"/proc/{pid}/status").read_text()
    mask = next(line.split()[1] for line in status.splitlines() if line.startswith("SigIgn:"))
    return bool(int(mask, 16) >> (signum - 1) & 1)


def test_a_run_under_nohup_outlives_its_terminal(tmp_path: Path) -> None:
    # SIGHUP ignored from the start (nohup) stays ignored; a second signal is only noted.
    with FakeLLM({"tester": [SLOW]}) as fake:
        run = _run(tmp_path / "kata", fake, _nohup)
        try:
            wait_until(lambda: bool(fake.requests), run, timeout_s=60, settle_s=0.3)
            assert _ignored(run.pid, signal.SIGHUP)  # as the kernel holds it, not a handler
            run.send_signal(signal.SIGHUP)
            assert _ignored(run.pid, signal.SIGHUP)
            assert run.poll() is None
            run.send_signal(signal.SIGTERM)
            assert run.wait(timeout=60) == 130
        finally:
            run.kill()
    assert run.stderr is not None
    assert "interrupted" in run.stderr.read()


def test_sigusr1_prints_where_every_thread_is_and_the_run_goes_on(tmp_path: Path) -> None:
    # A run that seems to hang can be asked where it is: its threads' stacks on stderr,
    # and nothing of the run disturbed (the hung clean-up of issue 48 was found this way).
    with FakeLLM({"tester": [SLOW]}) as fake:
        run = _run(tmp_path / "kata", fake, as_from_a_terminal)
        said: list[str] = []
        stderr = run.stderr
        assert stderr is not None
        reader = threading.Thread(target=lambda: said.extend(iter(stderr.readline, "")))
        reader.start()
        try:
            wait_until(lambda: bool(fake.requests), run, timeout_s=60, settle_s=0.3)
            run.send_signal(signal.SIGUSR1)
            wait_until(lambda: "most recent call first" in "".join(said), run, settle_s=0)
            assert run.poll() is None
            run.send_signal(signal.SIGTERM)
            assert run.wait(timeout=60) == 130
        finally:
            run.kill()
            reader.join()
    assert "interrupted" in "".join(said)
