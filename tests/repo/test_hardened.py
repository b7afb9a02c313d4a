"""Host git stays hardened whatever the repository's config or the host environment say."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tdd_sandbox.errors import UsageError
from tdd_sandbox.repo.hardened import HardenedRepo
from tdd_sandbox.repo.history import (
    commit_paths,
    dirty_paths,
    exclude_locally,
    head_files,
    last_commit,
)
from tdd_sandbox.settings import CommitSettings
from tests.helpers.git import committed_repo


def test_hooks_fsmonitor_and_external_diff_never_run(tmp_path: Path) -> None:
    repo = committed_repo(tmp_path)
    marker = tmp_path.parent / f"{tmp_path.name}-pwned"
    hook = tmp_path / ".git" / "hooks" / "pre-commit"
    hook.write_text(f"#!/bin/sh\ntouch {marker}\n")
    hook.chmod(0o755)
    for key, value in (
        ("core.fsmonitor", f"touch {marker}; echo"),
        ("diff.external", f"sh -c 'touch {marker}'"),
        ("core.hooksPath", str(hook.parent)),
    ):
        subprocess.run(["git", "-C", str(tmp_path), "config", key, value], check=True)
    root = last_commit(repo)
    assert root is not None
    assert root.diff == ""  # the first commit's files are all in the prompt already
    (tmp_path / "a.py").write_text("b\n")
    assert dirty_paths(repo) == ["a.py"]
    commit_paths(repo, ["a.py"], "feat: change\n", CommitSettings())
    info = last_commit(repo)
    assert info is not None
    assert "-a" in info.diff
    assert not marker.exists()


def test_global_config_and_host_git_variables_are_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / ".gitconfig").write_text("[user]\n\tname = Global Person\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_DIR", str(tmp_path / "elsewhere"))
    monkeypatch.setenv("GIT_INDEX_FILE", str(tmp_path / "index"))
    repo_dir = tmp_path / "repo"
    repo_dir.mkdir()
    repo = committed_repo(repo_dir)
    assert "GIT_DIR" not in os.environ
    author = repo.run("log", "-1", "--format=%an").strip()
    assert author == CommitSettings().author_name
    assert head_files(repo) == {"a.py": b"a\n"}


def test_local_exclude(tmp_path: Path) -> None:
    repo = committed_repo(tmp_path)
    exclude_locally(repo, "/.tdd/")
    exclude_locally(repo, "/.tdd/")
    (tmp_path / ".tdd").mkdir()
    (tmp_path / ".tdd" / "log").write_text("x")
    assert dirty_paths(repo) == []
    exclude = (tmp_path / ".git" / "info" / "exclude").read_text()
    assert exclude.count("/.tdd/") == 1


def test_not_a_repository(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="not a git repository"):
        HardenedRepo(tmp_path)
