"""One run per repository; the lock dies with its holder, however it dies."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tdd_sandbox.errors import UsageError
from tdd_sandbox.repo.hardened import HardenedRepo, init_repository
from tdd_sandbox.repo.lock import hold_lock, run_is_live

HOLDER = """
import sys, time
from pathlib import Path
from tdd_sandbox.repo.hardened import HardenedRepo
from tdd_sandbox.repo.lock import hold_lock
with hold_lock(HardenedRepo(Path(sys.argv[1])), "other-run"):
    print("held", flush=True)
    time.sleep(60)
"""


def test_a_second_holder_is_refused_with_the_first_named(tmp_path: Path) -> None:
    init_repository(tmp_path)
    repo = HardenedRepo(tmp_path)
    with hold_lock(repo, "first-run"):
        assert run_is_live(repo) == "first-run"
        second = hold_lock(HardenedRepo(tmp_path), "second-run", wait_s=0.2)
        with pytest.raises(UsageError, match="another tdd-sandbox run \\(first-run"):
            second.__enter__()
    assert run_is_live(repo) is None


def test_the_lock_is_released_when_its_holder_is_killed(tmp_path: Path) -> None:
    init_repository(tmp_path)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(tmp_path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "held"
        repo = HardenedRepo(tmp_path)
        assert run_is_live(repo) == "other-run"
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait(timeout=10)
        deadline = time.monotonic() + 5
        while run_is_live(repo) is not None and time.monotonic() < deadline:
            time.sleep(0.05)
        with hold_lock(repo, "next-run", wait_s=1):
            assert run_is_live(repo) == "next-run"
    finally:
        holder.kill()
