"""Worktrees and branches that runs no longer alive left behind: the repository's own
clean-up. Only `tdd/<run>/...` branches of a run id the tool makes are considered, and never
those of the run holding the repository lock."""

from __future__ import annotations

import contextlib
import re
import time
from pathlib import Path

import git.exc

from tdd_sandbox.repo.hardened import HardenedRepo
from tdd_sandbox.repo.lock import run_is_live
from tdd_sandbox.repo.worktrees import Leftover, list_tool_worktrees, remove_worktree
from tdd_sandbox.repo.worktrees import Worktree as _Worktree
from tdd_sandbox.vocabulary.cleanup import GcReport, Item, dir_size

RUN_ID = re.compile(r"^\d{8}-\d{6}-[0-9a-f]{6}$")


def collect_worktrees(repo: HardenedRepo, report: GcReport, *, older_than_s: float | None) -> None:
    """Worktrees and branches of runs that do not hold the repository lock."""
    live = run_is_live(repo)
    now = time.time()
    for leftover in list_tool_worktrees(repo):
        if not RUN_ID.match(leftover.run_id):
            continue  # a `tdd/...` branch that is not of the tool's making
        label = leftover.branch
        if leftover.run_id == live:
            report.kept.append(Item("worktree", label, f"run {live} is alive"))
            continue
        if older_than_s is not None and _age(leftover, now) < older_than_s:
            report.kept.append(Item("worktree", label, "younger than --older-than"))
            continue
        size = dir_size(leftover.path) if leftover.path and leftover.path.exists() else 0
        if not report.dry_run:
            path = leftover.path or Path("/nonexistent")
            remove_worktree(repo, _Worktree(path, leftover.branch, leftover.run_id))
        kind = "worktree" if leftover.path else "branch"
        report.removed.append(Item(kind, label, f"run {leftover.run_id} is not alive", size))
    if not report.dry_run:
        with contextlib.suppress(git.exc.GitCommandError):
            repo.run("worktree", "prune")


def _age(leftover: Leftover, now: float) -> float:
    if leftover.path is not None and leftover.path.exists():
        return now - leftover.path.stat().st_mtime
    stamp = time.mktime(time.strptime(leftover.run_id[:15], "%Y%m%d-%H%M%S"))
    return now - stamp


def reclaim_worktrees(repo_dir: Path, report: GcReport) -> None:
    """Every leftover worktree and branch of a run in `repo_dir` that is not alive."""
    repo = HardenedRepo(repo_dir)
    try:
        collect_worktrees(repo, report, older_than_s=None)
    finally:
        repo.close()
