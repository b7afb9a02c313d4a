"""Counters: what a check can read of how many checks its container served before.

A warm container serves check after check (`isolation: namespace`). What one check leaves
is wiped (`test_residue.py`); but a counter that only grows would still tell a later check
from an earlier one, and so a test from its reference's runs from its mutants' (#76). Each
counter here is read by the first check and by the second in the same container, and must
read the same. Before each check got a tmpfs of its own (`mounts.py`), the inode numbers of
the snapshot's files and of a new file in /tmp moved (3 to 6, 4 to 5, on both runtimes): the
container's tmpfs hands them out in order, and a wipe never gives them back.

What moves with the clock is another matter: the files the engine made as it started the
container date it, and so tell a check how long its container has served. Those are listed
(`DATING`), open.
"""

from __future__ import annotations

import datetime
import json
import time

import pytest

from tdd_sandbox.sandbox.docker_provider import DockerSandboxProvider
from tdd_sandbox.sandbox.snapshot import Snapshot
from tdd_sandbox.settings.sandbox import OciRuntime
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
    moved = {name: (first[name], second[name]) for name in first if first[name] != second[name]}
    assert moved == {}


AGES = r"""
import json, os, time
now = time.time()
ages = {}
paths = ["/", "/dev", "/etc/hostname", "/etc/hosts", "/etc/resolv.conf", "/work", "/tmp",
         "/proc/1", *(entry.path for entry in os.scandir("/dev"))]
for path in paths:
    try:
        found = os.lstat(path)
    except OSError:
        continue
    ages[f"mtime of {path}"] = now - found.st_mtime
    ages[f"ctime of {path}"] = now - found.st_ctime
ages["uptime"] = float(open("/proc/uptime").read().split()[0])
boot = [l for l in open("/proc/stat") if l.startswith("btime")]
if boot:
    ages["boot time"] = now - int(boot[0].split()[1])
print(json.dumps(ages))
"""
"""How long ago each thing a check can date was made: the files the engine made as the
container started, the boot the kernel reports."""


def _age_of(provider: DockerSandboxProvider, container: str) -> float:
    """Seconds since the engine started `container`, as the host's clock says."""
    started = provider.client.api.inspect_container(container)["State"]["StartedAt"]
    stamp = datetime.datetime.fromisoformat(started[:26].rstrip("Z") + "+00:00")
    return time.time() - stamp.timestamp()


def _made(*paths: str) -> set[str]:
    return {f"{time} of {path}" for time in ("mtime", "ctime") for path in paths}


_DEVICES = ("fd", "full", "null", "ptmx", "pts", "random", "stderr", "stdin", "stdout", "tty",
            "urandom", "zero")  # fmt: skip
_ENGINE_MADE = _made(
    "/", "/dev", "/etc/hostname", "/etc/hosts", "/etc/resolv.conf",
    *(f"/dev/{name}" for name in _DEVICES),
)  # fmt: skip
DATING = {
    "runc": _ENGINE_MADE | _made("/dev/mqueue"),
    "runsc": _ENGINE_MADE | _made("/dev/fuse", "/dev/net") | {"boot time", "uptime"},
}
"""What still dates a warm container to a check in it, by runtime: the times (modified and
changed) of the folders, files and device nodes the engine made as it started the container,
and under gVisor the boot of its kernel, which is the container's. A check can tell from
them how long its container has served, not how many checks it served (no score depends on
order: `tests/bench/test_mutation.py`). A namespace can give a check new copies of files
and folders, not of device nodes, so this stays; the day one is hidden, or one more found,
this test fails."""


@pytest.mark.parametrize("sandbox_isolation", ["namespace"], indirect=True)
def test_what_dates_the_container_to_a_check_is_known(
    provider: DockerSandboxProvider, images: dict[str, str], sandbox_runtime: OciRuntime
) -> None:
    """Whatever a check can date as old as the container it runs in (what the host made
    before it, its boot and the image, are older and the same for every container)."""
    for _ in range(2):
        with provider.open(images["python"], SNAPSHOT) as box:
            assert box.container_id is not None
            ran = box.exec(["python3", "-c", AGES])
            assert ran.exit_code == 0, ran.stderr[-500:]
            ages, container = json.loads(ran.stdout), _age_of(provider, box.container_id)
        time.sleep(4)
    # The second check's container served one before: what dates it is seconds older than
    # what the check made (gVisor's boot time is in whole seconds, and precedes the start).
    assert container > 4
    dating = {name for name, age in ages.items() if abs(age - container) < 1.5}
    assert dating == DATING[sandbox_runtime], f"{container:.1f} s old: " + ", ".join(sorted(dating))
