"""Attempt worktrees: outside the working tree, many at once, and gone without a trace."""

from __future__ import annotations

import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tdd_sandbox.repo.hardened import HardenedRepo, init_repository
from tdd_sandbox.repo.history import commit_paths
from tdd_sandbox.repo.worktrees import (
    create_worktree,
    list_tool_worktrees,
    remove_worktree,
    worktree_root,
)
from tdd_sandbox.settings import CommitSettings

RUN = "20261121-080000-abcdef"


def _repo(tmp_path: Path) -> HardenedRepo:
    init_repository(tmp_path)
    (tmp_path / "a.py").write_text("a\n")
    repo = HardenedRepo(tmp_path)
    commit_paths(repo, ["a.py"], "chore: first\n", CommitSettings())
    return repo


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True
    ).stdout


def test_many_worktrees_at_once_outside_the_working_tree(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    with ThreadPoolExecutor(8) as pool:
        made = list(pool.map(lambda i: create_worktree(repo, RUN, 1, "green", i), range(8)))
    root = worktree_root(repo)
    for worktree in made:
        assert worktree.path.is_relative_to(root)
        assert (worktree.path / "a.py").read_text() == "a\n"
        assert worktree.branch.startswith(f"tdd/{RUN}/1/green-")
    assert _git(tmp_path / "repo", "status", "--porcelain") == ""  # invisible to the repo
    assert len(list_tool_worktrees(repo)) == 8
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda w: remove_worktree(repo, w), made))
    assert list_tool_worktrees(repo) == []
    assert _git(tmp_path / "repo", "branch", "--list", "tdd/*") == ""
    assert not (root / RUN).exists()


def test_the_users_branches_and_worktrees_are_not_listed(tmp_path: Path) -> None:
    repo_dir = tmp_path / "repo"
    repo = _repo(repo_dir)
    _git(repo_dir, "branch", "feature")
    _git(repo_dir, "branch", "tdd/my-own-branch")
    _git(repo_dir, "worktree", "add", "-q", str(tmp_path / "mine"), "feature")
    ours = create_worktree(repo, RUN, 2, "refactor", 0)
    listed = list_tool_worktrees(repo)
    assert [item.branch for item in listed if item.run_id == RUN] == [ours.branch]
    assert all(item.path is None or item.path != tmp_path / "mine" for item in listed)
