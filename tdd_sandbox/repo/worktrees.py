"""One git worktree and branch per attempt, kept outside the user's working tree.

Worktrees live under `<git dir>/tdd-worktrees/<run>/`, where nothing scanning the repository
(pytest, editors, grep) looks, on branches `tdd/<run>/<cycle>/<phase>-<n>`. Creating and
removing them is serialised inside this process and retried across processes, so many at
once never trip over git's lock files.
"""

from __future__ import annotations

import contextlib
import shutil
import threading
from dataclasses import dataclass
from pathlib import Path

import git.exc
from tenacity import Retrying, retry_if_exception, stop_after_attempt, wait_random

from tdd_sandbox.repo.hardened import HardenedRepo

BRANCH_PREFIX = "tdd/"
WORKTREE_DIR = "tdd-worktrees"
_LOCK = threading.Lock()


@dataclass(frozen=True)
class Worktree:
    """An attempt's checkout."""

    path: Path
    branch: str
    run_id: str


def _locked(exc: BaseException) -> bool:
    text = str(exc)
    return isinstance(exc, git.exc.GitCommandError) and (
        ".lock" in text or "could not lock" in text or "Unable to create" in text
    )


def _retrying() -> Retrying:
    return Retrying(
        stop=stop_after_attempt(8),
        wait=wait_random(0.02, 0.2),
        retry=retry_if_exception(_locked),
        reraise=True,
    )


def worktree_root(repo: HardenedRepo) -> Path:
    """Where the tool's worktrees of `repo` live."""
    return Path(repo.repo.common_dir) / WORKTREE_DIR


def branch_name(run_id: str, cycle: int, phase: str, index: int) -> str:
    """`tdd/<run>/<cycle>/<phase>-<n>`."""
    return f"{BRANCH_PREFIX}{run_id}/{cycle}/{phase}-{index}"


def create_worktree(
    repo: HardenedRepo, run_id: str, cycle: int, phase: str, index: int
) -> Worktree:
    """A new worktree at HEAD on its own branch.

    Raises:
        git.exc.GitCommandError: git failed for a reason other than a busy lock.
    """
    branch = branch_name(run_id, cycle, phase, index)
    path = worktree_root(repo) / run_id / f"{cycle}-{phase}-{index}"
    path.parent.mkdir(parents=True, exist_ok=True)
    for attempt in _retrying():
        with attempt, _LOCK:
            repo.run("worktree", "add", "--quiet", "-b", branch, str(path), "HEAD")
    return Worktree(path, branch, run_id)


def remove_worktree(repo: HardenedRepo, worktree: Worktree) -> None:
    """Remove the worktree and its branch. Never raises for what is already gone."""
    with _LOCK:
        try:
            repo.run("worktree", "remove", "--force", "--force", str(worktree.path))
        except git.exc.GitCommandError:
            shutil.rmtree(worktree.path, ignore_errors=True)
            repo.run("worktree", "prune")
        with contextlib.suppress(git.exc.GitCommandError):  # never made, or already gone
            repo.run("branch", "-D", "--quiet", worktree.branch)
    with contextlib.suppress(OSError):  # the run's folder, once its last worktree is gone
        worktree.path.parent.rmdir()


@dataclass(frozen=True)
class Leftover:
    """A worktree or branch of the tool's, as `gc` finds it."""

    run_id: str
    branch: str
    path: Path | None


def list_tool_worktrees(repo: HardenedRepo) -> list[Leftover]:
    """Every worktree and branch the tool made in `repo` (by path and branch prefix)."""
    root = worktree_root(repo).resolve()
    found: dict[str, Leftover] = {}
    listing = repo.run("worktree", "list", "--porcelain")
    for block in listing.strip().split("\n\n"):
        fields = dict(line.split(" ", 1) for line in block.splitlines() if " " in line)
        path = Path(fields.get("worktree", ""))
        branch = fields.get("branch", "").removeprefix("refs/heads/")
        if branch.startswith(BRANCH_PREFIX) and path.resolve().is_relative_to(root):
            found[branch] = Leftover(branch.split("/")[1], branch, path)
    refs = repo.run("for-each-ref", "--format=%(refname:short)", f"refs/heads/{BRANCH_PREFIX}")
    for branch in refs.split():
        found.setdefault(branch, Leftover(branch.split("/")[1], branch, None))
    return sorted(found.values(), key=lambda item: item.branch)
