"""One run per repository: an exclusive lock held for the whole run.

The lock is an `flock` on `<git dir>/tdd-sandbox.lock`, so the kernel releases it when the
holder dies, however it dies (SIGKILL included): a stale lock can never block the next run,
and `gc` can tell a live run from a dead one by trying the lock.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tdd_sandbox.errors import UsageError
from tdd_sandbox.repo.environment import git_environment
from tdd_sandbox.sandbox.labels import owner_id

if TYPE_CHECKING:  # gitpython is heavy, and `status` reads the lock at start-up
    from tdd_sandbox.repo.hardened import HardenedRepo

LOCK_FILE = "tdd-sandbox.lock"


def lock_path(repo: HardenedRepo) -> Path:
    """The lock file of `repo`."""
    return Path(repo.repo.common_dir) / LOCK_FILE


def _holder(path: Path) -> dict[str, Any]:
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8") or "{}")
    except (OSError, ValueError):
        return {}
    return data


@contextlib.contextmanager
def hold_lock(repo: HardenedRepo, run_id: str, *, wait_s: float = 3.0) -> Iterator[None]:
    """Hold the repository's run lock for the duration of the block.

    Raises:
        UsageError: another live run holds it; the message names it.
    """
    path = lock_path(repo)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = time.monotonic() + wait_s
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    holder = _holder(path)
                    raise UsageError(
                        f"another tdd-sandbox run ({holder.get('run_id', '?')}, owner "
                        f"{holder.get('owner', '?')}) is using this repository: wait for it "
                        "to end or stop it"
                    ) from None
                time.sleep(0.1)
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps({"run_id": run_id, "owner": owner_id()}).encode(), 0)
        yield
    finally:
        os.close(fd)  # closing releases the flock


def run_is_live(repo: HardenedRepo) -> str | None:
    """The run id holding the lock right now, or None when no run is live."""
    return _live(lock_path(repo))


def live_run(directory: Path) -> str | None:
    """`run_is_live` for a repository's folder, without opening it with gitpython (`status`
    reads this at start-up): the kernel holds the lock for exactly as long as its run's
    process lives, so a run whose process was killed is never taken for a live one."""
    env = git_environment({"GIT_CEILING_DIRECTORIES": str(directory.resolve().parent)})
    found = subprocess.run(
        ["git", "-C", str(directory), "rev-parse", "--git-common-dir"],
        env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    if found.returncode != 0:
        return None
    return _live(directory / found.stdout.strip() / LOCK_FILE)


def _live(path: Path) -> str | None:
    if not path.exists():
        return None
    fd = os.open(path, os.O_RDONLY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return str(_holder(path).get("run_id", "?"))
        return None
    finally:
        os.close(fd)
