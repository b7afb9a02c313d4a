"""Git in tests: plain git to inspect a repo, and a repo with one commit."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tdd_sandbox.repo.hardened import HardenedRepo, init_repository
from tdd_sandbox.repo.history import commit_paths
from tdd_sandbox.settings import CommitSettings


def git(repo: Path, *args: str) -> str:
    """Run plain git in `repo`; its standard output."""
    return subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True
    ).stdout


def committed_repo(root: Path) -> HardenedRepo:
    """A repository at `root` with `a.py` committed."""
    init_repository(root)
    (root / "a.py").write_text("a\n")
    repo = HardenedRepo(root)
    commit_paths(repo, ["a.py"], "chore: first\n", CommitSettings())
    return repo
