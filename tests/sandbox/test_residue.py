"""Residue: nothing one check leaves behind reaches the next.

Each attack plants something where a check can write (a file in /tmp or /dev/shm, a cache
under the home folder, a System V shared memory segment, the cgroup's CPU counter, a process
left running) and a later check looks for it. Reusing one container for both, as a naive
warm pool would, lets each plant through (the test shows it first, so every attack is real);
the provider's next sandbox must show none of it, on both runtimes. A process left running
is killed before its command's result comes back, whatever reuses the container (issue #48).
"""

from __future__ import annotations

import pytest

from tdd_sandbox.sandbox import namespaces
from tdd_sandbox.sandbox.base import Sandbox
from tdd_sandbox.sandbox.docker_provider import DockerSandboxProvider
from tdd_sandbox.sandbox.snapshot import Snapshot
from tdd_sandbox.settings.sandbox import Isolation
from tests.conftest import ON_EVERY_ISOLATION, ON_EVERY_RUNTIME

pytestmark = [pytest.mark.docker, ON_EVERY_RUNTIME]

SNAPSHOT = Snapshot({"kata.py": b"x = 1\n"})
_KEY = 0x7E5D
_CPU_S = 1.5
"""CPU seconds the counter attack burns: its look reports residue past two thirds of it."""

# cgroup v1 (cpuacct.usage, ns) or v2 (cpu.stat's usage_usec): the sandbox's own CPU time.
_CPU_SECONDS = (
    "import pathlib\n"
    "v1 = pathlib.Path('/sys/fs/cgroup/cpuacct/cpuacct.usage')\n"
    "v2 = pathlib.Path('/sys/fs/cgroup/cpu.stat')\n"
    "if v1.exists():\n"
    "    used = int(v1.read_text()) / 1e9\n"
    "else:\n"
    "    stat = dict(line.split() for line in v2.read_text().splitlines())\n"
    "    used = int(stat['usage_usec']) / 1e6\n"
)

_SHMGET = "python3 -c 'import ctypes, sys; sys.exit(ctypes.CDLL(None).shmget({}) < 0)'"

PLANT = {
    "tmp": "echo planted > /tmp/.residue",
    # A tool's cache under the home folder (pip's, cargo's, go's build cache).
    "home_cache": 'mkdir -p "$HOME/.cache" && echo planted > "$HOME/.cache/residue"',
    "dev_shm": "echo planted > /dev/shm/.residue",
    # IPC_CREAT (0o1000) with mode 0o600: a segment that outlives its process.
    "sysv_shm": _SHMGET.format(f"{_KEY}, 4096, 0o1600"),
    "cgroup_counter": (
        "python3 -c 'import time\nend = time.process_time() + "
        f"{_CPU_S}\nwhile time.process_time() < end: pass'"
    ),
    "process": "setsid sleep 300 < /dev/null > /dev/null 2>&1 &",
}
"""Each attack's command: it must succeed, and leave its residue if the container lives on."""

LOOK = {
    "tmp": "test -e /tmp/.residue",
    "home_cache": 'test -e "$HOME/.cache/residue"',
    "dev_shm": "test -e /dev/shm/.residue",
    "sysv_shm": _SHMGET.format(f"{_KEY}, 0, 0"),
    "cgroup_counter": (f'python3 -c "{_CPU_SECONDS}import sys; sys.exit(used < {_CPU_S * 2 / 3})"'),
    "process": "pgrep -f 'sleep 30[0]' > /dev/null",  # [0]: not its own shell's line
}
"""Each attack's look: exits 0 when it finds the residue."""

SWEPT = frozenset({"process"})
"""Residue the sandbox removes after every command, even in the same container."""


def _found(box: Sandbox, attacks: list[str]) -> set[str]:
    return {name for name in attacks if box.exec(["sh", "-c", LOOK[name]]).exit_code == 0}


def _plant(box: Sandbox, attacks: list[str]) -> None:
    for name in attacks:
        planted = box.exec(["sh", "-c", PLANT[name]])
        assert planted.exit_code == 0, (name, planted.stderr[-500:])
        if name in SWEPT:
            assert planted.leftover_processes, name  # found and killed


@pytest.mark.parametrize("sandbox_isolation", ["container"], indirect=True)
def test_every_attack_reaches_a_naive_reuse(
    provider: DockerSandboxProvider, images: dict[str, str]
) -> None:
    """The same container, its commands in no namespaces of their own: every plant but the
    swept ones is still there for the next command, so each attack below is real."""
    attacks = sorted(PLANT)
    with provider.open(images["python"], SNAPSHOT) as reused:
        _plant(reused, attacks)
        assert _found(reused, attacks) == set(attacks) - SWEPT
        for name in SWEPT:  # whose look does find them while their command runs
            during = reused.exec(["sh", "-c", f"{PLANT[name]}\nsleep 0.2\n{LOOK[name]}"])
            assert during.exit_code == 0, name


@ON_EVERY_ISOLATION
def test_nothing_a_check_leaves_reaches_the_next(
    provider: DockerSandboxProvider, images: dict[str, str], sandbox_isolation: Isolation
) -> None:
    attacks = sorted(PLANT)
    with provider.open(images["python"], SNAPSHOT) as first:
        _plant(first, attacks)
        used = first.container_id
        if sandbox_isolation == "namespace":
            # Each command has namespaces of its own: only files reach the next command.
            assert _found(first, attacks) == {"tmp", "home_cache"}
    with provider.open(images["python"], SNAPSHOT) as second:
        if sandbox_isolation == "namespace":
            assert second.container_id == used  # the same container serves the next check
        assert _found(second, attacks) == set()


@pytest.mark.parametrize("sandbox_isolation", ["namespace"], indirect=True)
@pytest.mark.parametrize("residue", ["echo x > /tmp/late", "setsid sleep 300 &"])
def test_a_container_left_unclean_serves_no_check(
    provider: DockerSandboxProvider, images: dict[str, str], residue: str
) -> None:
    """What a wipe missed (put there behind its back, as a process that outlived it would)
    keeps the container from taking the next snapshot."""
    image = images["python"]
    with provider.open(image, SNAPSHOT) as first:
        used = first.container_id
    assert provider.take_container(image) == used  # wiped, and handed back
    api = provider.client.api
    api.exec_start(api.exec_create(used, ["sh", "-c", residue], user="10001")["Id"])
    assert not namespaces.ship(provider, used, SNAPSHOT.to_tar(), last=False)
    provider.destroy(used)
