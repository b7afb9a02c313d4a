"""Pushing a run's branch to a real bare remote."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tdd_sandbox.forge.client import ForgeError
from tdd_sandbox.forge.push import push_branch, remote_url
from tests.helpers.git import git


@pytest.fixture
def repos(tmp_path: Path) -> tuple[Path, Path]:
    """A working repository on `main` with one commit, its branch `tdd/run-1` two green
    commits ahead, and a bare remote `origin` that has `main` only."""
    remote, work = tmp_path / "remote.git", tmp_path / "work"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    subprocess.run(["git", "init", "-q", "-b", "main", str(work)], check=True)
    git(work, "config", "user.email", "t@example.com")
    git(work, "config", "user.name", "t")
    (work / "kata.md").write_text("# FizzBuzz\n")
    git(work, "add", "kata.md")
    git(work, "commit", "-q", "-m", "kata")
    git(work, "remote", "add", "origin", str(remote))
    git(work, "push", "-q", "origin", "main")
    git(work, "switch", "-q", "-c", "tdd/run-1")
    for n in (1, 2):
        (work / f"step{n}.py").write_text(f"{n}\n")
        git(work, "add", f"step{n}.py")
        git(work, "commit", "-q", "-m", f"feat: step {n}")
    git(work, "switch", "-q", "main")
    return work, remote


def test_the_remote_gets_the_run_s_commits_and_nothing_else_moves(
    repos: tuple[Path, Path],
) -> None:
    work, remote = repos
    main_before = git(remote, "rev-parse", "main")
    push_branch(work, "origin", "tdd/run-1")
    assert git(remote, "rev-parse", "tdd/run-1") == git(work, "rev-parse", "tdd/run-1")
    assert git(remote, "log", "--format=%s", "main..tdd/run-1").splitlines() == [
        "feat: step 2", "feat: step 1",
    ]  # fmt: skip
    assert git(remote, "rev-parse", "main") == main_before
    assert git(work, "branch", "--show-current").strip() == "main"
    assert git(work, "rev-parse", "main") == main_before


def test_no_hook_of_the_repository_runs_on_a_push(repos: tuple[Path, Path]) -> None:
    work, _ = repos
    hook = work / ".git" / "hooks" / "pre-push"
    hook.write_text(f"#!/bin/sh\ntouch {work / 'hook-ran'}\nexit 1\n")
    hook.chmod(0o755)
    push_branch(work, "origin", "tdd/run-1")
    assert not (work / "hook-ran").exists()


def test_no_such_remote_is_named_with_the_fix(repos: tuple[Path, Path]) -> None:
    work, _ = repos
    with pytest.raises(ForgeError, match="has no remote 'upstream': add it"):
        push_branch(work, "upstream", "tdd/run-1")
    assert remote_url(work, "origin").endswith("remote.git")


def test_a_refused_push_keeps_the_commits_and_says_how_to_retry(
    repos: tuple[Path, Path],
) -> None:
    work, remote = repos
    refuse = remote / "hooks" / "pre-receive"
    refuse.write_text("#!/bin/sh\necho 'branch tdd/* is protected' >&2\nexit 1\n")
    refuse.chmod(0o755)
    with pytest.raises(ForgeError) as caught:
        push_branch(work, "origin", "tdd/run-1")
    message = str(caught.value)
    assert "was refused (remote: branch tdd/* is protected)" in message
    assert f"then `tdd-sandbox pr --repo {work}`" in message
    assert "\n" not in message
    assert len(git(work, "log", "--format=%s", "main..tdd/run-1").splitlines()) == 2


def test_a_remote_branch_that_moved_on_is_never_overwritten(repos: tuple[Path, Path]) -> None:
    work, remote = repos
    other = remote.parent / "other"
    subprocess.run(["git", "clone", "-q", str(remote), str(other)], check=True)
    git(other, "config", "user.email", "o@example.com")
    git(other, "config", "user.name", "o")
    git(other, "switch", "-q", "-c", "tdd/run-1")
    (other / "theirs.py").write_text("x\n")
    git(other, "add", "theirs.py")
    git(other, "commit", "-q", "-m", "someone else's")
    git(other, "push", "-q", "origin", "tdd/run-1")
    theirs = git(remote, "rev-parse", "tdd/run-1")
    with pytest.raises(ForgeError, match="was refused"):
        push_branch(work, "origin", "tdd/run-1")
    assert git(remote, "rev-parse", "tdd/run-1") == theirs


def test_a_stray_git_dir_in_the_environment_does_not_redirect_the_push(
    repos: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    work, remote = repos
    stray = tmp_path / "stray"
    subprocess.run(["git", "init", "-q", str(stray)], check=True)
    monkeypatch.setenv("GIT_DIR", str(stray / ".git"))
    push_branch(work, "origin", "tdd/run-1")
    monkeypatch.delenv("GIT_DIR")
    assert git(remote, "rev-parse", "tdd/run-1") == git(work, "rev-parse", "tdd/run-1")
