"""Attempt worktrees: outside the working tree, many at once, and gone without a trace."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tdd_sandbox.repo.worktrees import (
    create_worktree,
    list_tool_worktrees,
    remove_worktree,
    worktree_root,
)
from tests.helpers.git import committed_repo, git

RUN = "20261121-080000-abcdef"


def test_many_worktrees_at_once_outside_the_working_tree(tmp_path: Path) -> None:
    repo = committed_repo(tmp_path / "repo")
    with ThreadPoolExecutor(8) as pool:
        made = list(pool.map(lambda i: create_worktree(repo, RUN, 1, "green", i), range(8)))
    root = worktree_root(repo)
    for worktree in made:
        assert worktree.path.is_relative_to(root)
        assert (worktree.path / "a.py").read_text() == "a\n"
        assert worktree.branch.startswith(f"tdd/{RUN}/1/green-")
    assert git(tmp_path / "repo", "status", "--porcelain") == ""  # invisible to the repo
    assert len(list_tool_worktrees(repo)) == 8
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda w: remove_worktree(repo, w), made))
    assert list_tool_worktrees(repo) == []
    assert git(tmp_path / "repo", "branch", "--list", "tdd/*") == ""
    assert not (root / RUN).exists()


def test_the_users_branches_and_worktrees_are_not_listed(tmp_path: Path) -> None:
    repo_dir = tmp_path / "repo"
    repo = committed_repo(repo_dir)
    git(repo_dir, "branch", "feature")
    git(repo_dir, "branch", "tdd/my-own-branch")
    git(repo_dir, "worktree", "add", "-q", str(tmp_path / "mine"), "feature")
    ours = create_worktree(repo, RUN, 2, "refactor", 0)
    listed = list_tool_worktrees(repo)
    assert [item.branch for item in listed if item.run_id == RUN] == [ours.branch]
    assert all(item.path is None or item.path != tmp_path / "mine" for item in listed)
