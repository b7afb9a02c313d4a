"""A job's folder as it comes back from a node: unpacked inside its own folder only."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pytest

from tdd_sandbox.bench.cluster import _unpack


def _archive(*members: tarfile.TarInfo) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for member in members:
            data = b"planted\n" if member.isfile() else b""
            member.size = len(data)
            tar.addfile(member, io.BytesIO(data))
    return buffer.getvalue()


def _file(name: str) -> tarfile.TarInfo:
    return tarfile.TarInfo(name)


def _link(name: str, target: str) -> tarfile.TarInfo:
    member = tarfile.TarInfo(name)
    member.type, member.linkname = tarfile.SYMTYPE, target
    return member


@pytest.mark.parametrize(
    "members",
    [
        [_file("../outside.txt")],
        [_link("repo", "../.."), _file("repo/outside.txt")],
        [_link("escape", "/etc")],
    ],
    ids=["dot-dot", "through-a-link", "link-out"],
)
def test_an_archive_that_reaches_outside_its_folder_is_refused(
    tmp_path: Path, members: list[tarfile.TarInfo]
) -> None:
    into = tmp_path / "out" / "jobs" / "job"
    with pytest.raises(tarfile.FilterError):
        _unpack(_archive(*members), into)
    assert not (tmp_path / "out" / "outside.txt").exists()
    assert not (tmp_path / "outside.txt").exists()
    assert not (into / "escape").exists()


def test_an_absolute_name_lands_inside_the_folder(tmp_path: Path) -> None:
    planted = tmp_path / "absolute-planted.txt"
    _unpack(_archive(_file(str(planted))), tmp_path / "job")
    assert not planted.exists()
    assert (tmp_path / "job" / str(planted).lstrip("/")).is_file()


def test_a_job_folder_comes_back_as_it_was(tmp_path: Path) -> None:
    into = tmp_path / "job"
    _unpack(_archive(_file("result.json"), _file("repo/kata.py")), into)
    assert (into / "repo" / "kata.py").read_text() == "planted\n"
