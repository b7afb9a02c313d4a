"""Writing a model's files on disk, without ever following a symlink.

Writes go through directory file descriptors opened with O_NOFOLLOW, so a symlink planted
anywhere on the way is refused rather than followed, and each file is replaced atomically.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Iterator, Mapping
from pathlib import Path

from tdd_sandbox.engine.edits import EditRejected, check_path
from tdd_sandbox.vocabulary.failures import Failure


def write_changes(root: Path, before: Mapping[str, bytes], after: Mapping[str, bytes]) -> list[str]:
    """Make the files under `root` go from `before` to `after`; returns the changed paths.

    Raises:
        EditRejected: a path on disk is a symlink or not a regular file.
    """
    changed = sorted(
        path for path in set(before) | set(after) if before.get(path) != after.get(path)
    )
    for path in changed:
        check_path(path)
    for path in changed:
        if path in after:
            _write_file(root, path, after[path])
        else:
            _delete_file(root, path)
    return changed


def check_on_disk(root: Path, before: Mapping[str, bytes], after: Mapping[str, bytes]) -> None:
    """Refuse a plan that would write through a symlink (or over anything but a regular file)
    in the working tree at `root`: the user's committed links are never followed.

    Raises:
        EditRejected: kind `path`; the message names the link.
    """
    for path in sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p)):
        parts = path.split("/")
        for depth in range(1, len(parts) + 1):
            here = root.joinpath(*parts[:depth])
            try:
                mode = here.lstat().st_mode
            except FileNotFoundError:
                break
            if stat.S_ISLNK(mode):
                raise EditRejected(
                    f"{path} goes through a symlink in the repository ({'/'.join(parts[:depth])})"
                    ": it is never written; put the code in another file",
                    Failure.PATH,
                )
            if depth == len(parts) and not stat.S_ISREG(mode):
                raise EditRejected(f"{path} is not a regular file in the repository", Failure.PATH)


@contextlib.contextmanager
def _parent_fd(root: Path, path: str, *, create: bool) -> Iterator[int | None]:
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
    fd = os.open(root, flags)
    try:
        for part in path.split("/")[:-1]:
            try:
                next_fd = os.open(part, flags, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    yield None
                    return
                os.mkdir(part, 0o755, dir_fd=fd)
                next_fd = os.open(part, flags, dir_fd=fd)
            except OSError as exc:
                raise EditRejected(
                    f"{path}: {part} is not a plain directory (symlink?)", Failure.PATH
                ) from exc
            os.close(fd)
            fd = next_fd
        yield fd
    finally:
        os.close(fd)


def _write_file(root: Path, path: str, data: bytes) -> None:
    name = path.rsplit("/", 1)[-1]
    with _parent_fd(root, path, create=True) as fd:
        assert fd is not None
        with contextlib.suppress(FileNotFoundError):
            mode = os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode
            if not stat.S_ISREG(mode):
                raise EditRejected(
                    f"{path} exists and is not a regular file; not replacing it", Failure.PATH
                )
        temp = f".{name}.tdd-{secrets.token_hex(4)}"
        out = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644, dir_fd=fd)
        try:
            with os.fdopen(out, "wb") as handle:
                handle.write(data)
            # Atomic: a reader (or a crash) sees the old file or the new one, never half.
            os.replace(temp, name, src_dir_fd=fd, dst_dir_fd=fd)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp, dir_fd=fd)
            raise


def _delete_file(root: Path, path: str) -> None:
    name = path.rsplit("/", 1)[-1]
    with _parent_fd(root, path, create=False) as fd:
        if fd is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(name, dir_fd=fd)
