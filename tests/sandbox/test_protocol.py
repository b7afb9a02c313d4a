"""The command server's program (`sandbox/protocol.py`) run here, no engine: a nested server
takes the requests of one check in namespaces of its own, and gives them back when it leaves;
one that dies takes its parent with it, so no request meant for it runs outside them."""

from __future__ import annotations

import os
import re
import secrets
import select
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tdd_sandbox.sandbox.protocol import SERVER, request_bytes

_WORK = "chdir '/work'"


class _Server:
    """The server in a child process, its requests written and its streams read here."""

    def __init__(self, work: Path) -> None:
        assert _WORK in SERVER  # each command starts in the snapshot's folder: here, `work`
        program = SERVER.replace(_WORK, f"chdir '{work}'")
        self.program = program
        self.process = subprocess.Popen(
            ["perl", "-e", program, "hello"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        self.out = b""
        self.err = b""
        self.wait_for(rb"\n@@hello ready \d+ 0\n")

    def wait_for(self, pattern: bytes, *, on_stdout: bool = False) -> re.Match[bytes] | None:
        """The first match of `pattern` on stderr (or stdout); None at the end of the streams."""
        assert self.process.stdout is not None
        assert self.process.stderr is not None
        streams = {self.process.stdout.fileno(): "out", self.process.stderr.fileno(): "err"}
        deadline = time.monotonic() + 20
        while not (found := re.search(pattern, self.out if on_stdout else self.err)):
            ready, _, _ = select.select(list(streams), [], [], deadline - time.monotonic())
            assert ready, f"no {pattern!r} in {self.err!r}"
            for fd in ready:
                data = os.read(fd, 65536)
                if not data:
                    return None
                setattr(self, streams[fd], getattr(self, streams[fd]) + data)
        return found

    def send(self, argv: list[str], *, nest: bool = False) -> str:
        assert self.process.stdin is not None
        key = secrets.token_hex(8)
        self.process.stdin.write(request_bytes(key, argv, {}, b"", nest=nest))
        self.process.stdin.flush()
        return key

    def run(self, script: str) -> str:
        """What `sh -c script` printed, once the server said it ended with status 0."""
        self.out = self.err = b""
        key = self.send(["sh", "-c", script])
        assert self.wait_for(rb"\n@@" + key.encode() + rb" end rc=0\n")
        return self.out.decode().split("\n@@")[0]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[_Server]:
    started = _Server(tmp_path)
    yield started
    started.process.kill()
    started.process.wait()


def _nest(server: _Server, scratch: Path) -> str:
    """A nested server in new user and mount namespaces with a new tmpfs on `scratch`."""
    setup = f'mount -t tmpfs -o size=1m tdd-check {scratch} && exec "$@"'
    server.out = server.err = b""
    key = server.send(
        ["unshare", "--user", "--map-root-user", "--mount", "--propagation", "private",
         "sh", "-c", setup, "tdd-check", "perl", "-e", server.program, "nested"],
        nest=True,
    )  # fmt: skip
    assert server.wait_for(rb"\n@@nested ready \d+ 0\n")
    return key


LOOK = "readlink /proc/self/ns/mnt; ls -i {scratch}; touch {scratch}/made"


def test_a_nested_server_serves_a_check_in_its_own_mounts_until_it_leaves(
    server: _Server, tmp_path: Path
) -> None:
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    outside = server.run(LOOK.format(scratch=scratch))
    key = _nest(server, scratch)
    first = server.run(LOOK.format(scratch=scratch)).split("\n")
    second = server.run(LOOK.format(scratch=scratch)).split("\n")
    assert first[0] != outside.split("\n")[0]  # another mount namespace
    assert first[1] == ""  # a new tmpfs, the check's own
    assert second[1].endswith(" made")
    server.out = server.err = b""
    server.send([])  # leave
    assert server.wait_for(rb"\n@@" + key.encode() + rb" end rc=0\n")
    after = server.run(LOOK.format(scratch=scratch)).split("\n")
    assert after[0] == outside.split("\n")[0]
    assert "made" in after[1]  # the first `touch` outside, and nothing of the check's


def test_a_nested_server_that_dies_ends_its_parent_and_nothing_runs_outside(
    server: _Server, tmp_path: Path
) -> None:
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    _nest(server, scratch)
    pid = server.run("echo $PPID")  # the nested server
    os.kill(int(pid), 9)
    server.out = server.err = b""
    server.send(["sh", "-c", f"touch {tmp_path}/ran-outside"])
    assert server.wait_for(rb"@@never") is None  # the streams end: the parent is gone
    assert server.process.wait(timeout=10) == 0
    assert not (tmp_path / "ran-outside").exists()
