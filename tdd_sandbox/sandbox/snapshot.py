"""An immutable copy of a repository's files, shipped into a sandbox as a tar archive.

Shipping bytes instead of bind-mounting a host path means nothing in the sandbox can ever
write back to the host, and a remote engine (`DOCKER_HOST`) works the same as a local one.
"""

from __future__ import annotations

import io
import os
import stat
import tarfile
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from tdd_sandbox.errors import UsageError

# Caches and tool state that never belong in a snapshot: shipping them could hand a gate a
# stale verdict (a cargo target dir judges freshness by mtime) and only costs time.
SKIPPED_DIRS = frozenset(
    {
        ".git",
        ".tdd",
        "target",
        "__pycache__",
        ".pytest_cache",
        ".mypy_cache",
        ".ruff_cache",
        ".venv",
        "venv",
        "node_modules",
    }
)

MAX_FILES = 5_000
MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_TOTAL_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class Snapshot:
    """Files by POSIX path relative to the repository root."""

    files: Mapping[str, bytes]
    executable: frozenset[str] = frozenset()
    skipped: tuple[str, ...] = field(default=(), compare=False)
    """Entries left out on purpose (symlinks, special files), for the user's information."""
    sealable: frozenset[str] = frozenset()
    """Files that a sandbox's sealed commands cannot read (`Sandbox.exec(sealed=True)`)."""

    @classmethod
    def from_directory(cls, root: Path) -> Snapshot:
        """Read every regular file under `root`, never following a symlink.

        Raises:
            UsageError: `root` is not a directory, or holds more than the limits allow.
        """
        if not root.is_dir():
            raise UsageError(f"{root} is not a directory: pass the path of a kata repository")
        files: dict[str, bytes] = {}
        executable: set[str] = set()
        skipped: list[str] = []
        total = 0
        for rel, entry in _walk(root, ""):
            info = entry.stat(follow_symlinks=False)
            if not stat.S_ISREG(info.st_mode):
                skipped.append(rel)
                continue
            if info.st_size > MAX_FILE_BYTES:
                raise UsageError(
                    f"{rel} is {info.st_size} bytes, over the {MAX_FILE_BYTES}-byte limit "
                    "for a file in a kata repo: remove it or add it to .gitignore"
                )
            files[rel] = _read_no_follow(Path(entry.path))
            total += len(files[rel])
            if info.st_mode & stat.S_IXUSR:
                executable.add(rel)
            if len(files) > MAX_FILES or total > MAX_TOTAL_BYTES:
                raise UsageError(
                    f"{root} holds more than {MAX_FILES} files or {MAX_TOTAL_BYTES} bytes: "
                    "point at the kata repository itself, not a parent folder"
                )
        return cls(files=files, executable=frozenset(executable), skipped=tuple(skipped))

    def to_tar(self) -> bytes:
        """An uncompressed tar of the files, owned by root, read-only for anyone else but
        the sealable files, which only their owner and group may read.

        Every entry gets the current time: a copy is new, whatever its commit date says,
        so no mtime-based build cache can take it for something it already built.
        """
        now = time.time()
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
            for directory in sorted(self._directories()):
                tar.addfile(_entry(directory, tarfile.DIRTYPE, 0o755, 0, now))
            for path in sorted(self.files):
                data = self.files[path]
                mode = 0o755 if path in self.executable else 0o644
                if path in self.sealable:
                    mode &= 0o750
                tar.addfile(_entry(path, tarfile.REGTYPE, mode, len(data), now), io.BytesIO(data))
        return buffer.getvalue()

    def _directories(self) -> set[str]:
        dirs: set[str] = set()
        for path in self.files:
            parts = path.split("/")[:-1]
            for depth in range(1, len(parts) + 1):
                dirs.add("/".join(parts[:depth]))
        return dirs


def _entry(name: str, kind: bytes, mode: int, size: int, mtime: float) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.mode = mode
    info.size = size
    info.mtime = mtime
    info.uid = info.gid = 0
    info.uname = info.gname = "root"
    return info


def _walk(root: Path, prefix: str) -> Iterator[tuple[str, os.DirEntry[str]]]:
    with os.scandir(root) as entries:
        for entry in sorted(entries, key=lambda e: e.name):
            rel = f"{prefix}{entry.name}"
            if entry.is_dir(follow_symlinks=False):
                if entry.name not in SKIPPED_DIRS:
                    yield from _walk(Path(entry.path), rel + "/")
            elif entry.name != ".git":  # in a linked worktree, .git is a file
                yield rel, entry


def _read_no_follow(path: Path) -> bytes:
    # O_NOFOLLOW: a file swapped for a symlink between scandir and open is refused.
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    with os.fdopen(fd, "rb") as handle:
        return handle.read()
