"""Counters: nothing a check can read tells it how many checks its container served before.

A warm container serves check after check (`isolation: namespace`). What one check leaves
is wiped (`test_residue.py`); but a counter that only grows would still tell a later check
from an earlier one, and so a test from its reference's runs from its mutants' (#76). Each
counter here is read by the first check and by the second in the same container, and must
read the same.

Three still move: the inode numbers of the snapshot's files and of a new file in /tmp, both
mounts the container's own, whose counters a wipe does not give back. They are listed, so
that this test fails the day one more moves and the day these stop (#76: a new tmpfs per
check; the reference's re-runs at random places among the mutants are what keeps test mode
from telling them apart meanwhile).
"""

from __future__ import annotations

import json

import pytest

from tdd_sandbox.sandbox.docker_provider import DockerSandboxProvider
from tdd_sandbox.sandbox.snapshot import Snapshot
from tests.conftest import ON_EVERY_RUNTIME

pytestmark = [pytest.mark.docker, ON_EVERY_RUNTIME]

SNAPSHOT = Snapshot({"kata.py": b"x = 1\n", "tests/test_kata.py": b"import kata\n"})

PROBE = r"""
import json, os
seen = {}
for mount in ("/work", "/tmp", "/dev/shm"):
    fs = os.statvfs(mount)
    seen[f"free blocks of {mount}"] = fs.f_bfree
    seen[f"free inodes of {mount}"] = fs.f_ffree
for path in ("/work/kata.py", "/work/tests/test_kata.py", "/work", "/tmp"):
    seen[f"inode of {path}"] = os.stat(path).st_ino
for folder in ("/tmp", "/dev/shm"):
    with open(f"{folder}/counter-probe", "w"):
        pass
    seen[f"inode of a new file in {folder}"] = os.stat(f"{folder}/counter-probe").st_ino
seen["pid"] = os.getpid()
child = os.fork()
if child == 0:
    os._exit(0)
os.waitpid(child, 0)
seen["a child's pid"] = child
seen["last pid of /proc/loadavg"] = open("/proc/loadavg").read().split()[4]
print(json.dumps(seen))
"""
"""Every counter a check reads that does not move with the clock: free space and inodes of
its mounts, the inode numbers of the snapshot's files and of files it makes, its pids."""


MOVING = frozenset(
    {"inode of /work/kata.py", "inode of /work/tests/test_kata.py", "inode of a new file in /tmp"}
)
"""The counters a second check still reads otherwise than the first, on runc and runsc."""


def _counters(provider: DockerSandboxProvider, image: str) -> tuple[str | None, dict[str, object]]:
    with provider.open(image, SNAPSHOT) as box:
        ran = box.exec(["python3", "-c", PROBE])
        assert ran.exit_code == 0, ran.stderr[-500:]
        return box.container_id, json.loads(ran.stdout)


@pytest.mark.parametrize("sandbox_isolation", ["namespace"], indirect=True)
def test_a_second_check_reads_every_counter_as_the_first(
    provider: DockerSandboxProvider, images: dict[str, str]
) -> None:
    used, first = _counters(provider, images["python"])
    again, second = _counters(provider, images["python"])
    assert again == used  # the same container served both
    moved = {name for name in first if first[name] != second[name]}
    assert moved == MOVING, {name: (first[name], second[name]) for name in moved ^ MOVING}
