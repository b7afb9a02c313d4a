from __future__ import annotations

import io
import os
import tarfile
import time
from pathlib import Path

import pytest

from tdd_sandbox.errors import UsageError
from tdd_sandbox.sandbox.snapshot import Snapshot


def test_reads_files_and_skips_caches_and_git(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src/a.py").write_text("a")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git/config").write_text("x")
    (tmp_path / "target").mkdir()
    (tmp_path / "target/stale").write_text("x")
    snapshot = Snapshot.from_directory(tmp_path)
    assert dict(snapshot.files) == {"src/a.py": b"a"}


def test_never_follows_symlinks(tmp_path: Path) -> None:
    secret = tmp_path / "outside-secret"
    secret.write_text("host secret")
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "link").symlink_to(secret)
    (repo / "dirlink").symlink_to(tmp_path)
    snapshot = Snapshot.from_directory(repo)
    assert snapshot.files == {}
    assert set(snapshot.skipped) == {"link", "dirlink"}


def test_special_files_are_skipped(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")
    assert Snapshot.from_directory(tmp_path).skipped == ("fifo",)


def test_not_a_directory(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="is not a directory"):
        Snapshot.from_directory(tmp_path / "missing")


def test_oversize_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "big.bin").write_bytes(b"x" * (4 * 1024 * 1024 + 1))
    with pytest.raises(UsageError, match=r"big\.bin .* over the"):
        Snapshot.from_directory(tmp_path)


def test_tar_is_root_owned_read_only_and_stamped_now() -> None:
    before = time.time()
    snapshot = Snapshot({"a/b.py": b"x", "run.sh": b"#!/bin/sh"}, frozenset({"run.sh"}))
    with tarfile.open(fileobj=io.BytesIO(snapshot.to_tar())) as tar:
        members = {m.name: m for m in tar.getmembers()}
    assert set(members) == {"a", "a/b.py", "run.sh"}
    assert members["a/b.py"].mode == 0o644
    assert members["run.sh"].mode == 0o755
    assert all(m.uid == 0 and m.gid == 0 for m in members.values())
    # A commit date in the past must never reach an mtime-judging build cache.
    assert all(m.mtime >= int(before) for m in members.values())
