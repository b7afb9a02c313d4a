"""Reading and extending a kata repo's history: the only state a run keeps besides `.tdd/`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import git

from tdd_sandbox.repo.hardened import HardenedRepo
from tdd_sandbox.settings import CommitSettings

_SYMLINK_MODE = 0o120000
_SUBMODULE_MODE = 0o160000


@dataclass(frozen=True)
class CommitInfo:
    """One commit as the next agent sees it."""

    sha: str
    message: str
    diff: str


def head_files(repo: HardenedRepo) -> dict[str, bytes]:
    """Every regular file at HEAD by path (symlinks and submodules are left out)."""
    if not repo.repo.head.is_valid():
        return {}
    return files_at(repo, "HEAD")


def files_at(repo: HardenedRepo, rev: str) -> dict[str, bytes]:
    """Every regular file of commit `rev` by path (symlinks and submodules left out)."""
    files: dict[str, bytes] = {}
    for blob in repo.repo.commit(rev).tree.traverse():
        if not isinstance(blob, git.Blob) or blob.mode in (_SYMLINK_MODE, _SUBMODULE_MODE):
            continue
        files[str(blob.path)] = blob.data_stream.read()
    return files


def dirty_paths(repo: HardenedRepo) -> list[str]:
    """Paths with uncommitted changes, untracked files included (ignored ones not)."""
    output = repo.run("status", "--porcelain=v1", "--untracked-files=all", "-z")
    return [entry[3:] for entry in output.split("\0") if entry]


def exclude_locally(repo: HardenedRepo, pattern: str) -> None:
    """Add `pattern` to `.git/info/exclude` (kept out of git without touching .gitignore)."""
    exclude = Path(repo.repo.git_dir) / "info" / "exclude"
    exclude.parent.mkdir(parents=True, exist_ok=True)
    current = exclude.read_text(encoding="utf-8") if exclude.exists() else ""
    if pattern not in current.splitlines():
        exclude.write_text(current.rstrip("\n") + ("\n" if current else "") + pattern + "\n")


def commit_paths(
    repo: HardenedRepo, paths: Sequence[str], message: str, author: CommitSettings
) -> str:
    """Stage `paths` (added, changed or deleted) and commit them; returns the new sha."""
    identity = {
        "GIT_AUTHOR_NAME": author.author_name,
        "GIT_AUTHOR_EMAIL": author.author_email,
        "GIT_COMMITTER_NAME": author.author_name,
        "GIT_COMMITTER_EMAIL": author.author_email,
    }
    repo.run("add", "--all", paths=list(paths))
    repo.run("commit", "--quiet", "--no-verify", "--allow-empty", "-m", message, env=identity)
    return repo.run("rev-parse", "HEAD").strip()


def last_commit(repo: HardenedRepo, *, max_diff_chars: int = 6000) -> CommitInfo | None:
    """HEAD's message and diff (truncated), or None in an empty repo. A root commit's diff
    is empty: it would only repeat every file, which the prompt shows anyway, and small
    models have little context to spare."""
    if not repo.repo.head.is_valid():
        return None
    head = repo.repo.head.commit
    if not head.parents:
        return CommitInfo(sha=head.hexsha, message=str(head.message), diff="")
    diff = repo.run(
        "diff-tree", "-p", "--no-ext-diff", "--no-textconv", "--no-color", "HEAD~1", "HEAD"
    )
    if len(diff) > max_diff_chars:
        diff = diff[:max_diff_chars] + "\n[... diff cut ...]\n"
    return CommitInfo(sha=head.hexsha, message=str(head.message), diff=diff)
