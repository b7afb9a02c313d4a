"""Stopping a command that ran past its time: the sweep that kills what it left, bounded.

Under gVisor a fork bomb's sweep took 20 to 55 s in about one stop in three (the sweep's exec
waited for a pid, its looks read /proc of every bomb process), past the conformance suite's
15 s (CI of 425e20f), where replacing the container takes under half a second."""

from __future__ import annotations

import time

import pytest

from tdd_sandbox.sandbox import supervisor
from tdd_sandbox.sandbox.docker_provider import DockerSandboxProvider
from tdd_sandbox.sandbox.snapshot import Snapshot
from tests.conftest import ON_EVERY_ISOLATION, ON_EVERY_RUNTIME

pytestmark = [pytest.mark.docker, ON_EVERY_RUNTIME, ON_EVERY_ISOLATION]

SNAPSHOT = Snapshot({"hello.txt": b"hello\n"})


def test_a_sweep_that_outlasts_its_bound_replaces_the_container(
    provider: DockerSandboxProvider, images: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(supervisor, "SWEEP", ["sh", "-c", "sleep 120"])
    with provider.open(images["python"], SNAPSHOT) as box:
        assert box.exec(["true"]).ok
        used = box.container_id
        started = time.monotonic()
        stopped = box.exec(["sleep", "100"], timeout_s=1)
        took = time.monotonic() - started
        assert stopped.timed_out
        assert took < 1 + supervisor.SWEEP_S + 5, f"the stop took {took:.1f} s"
        assert box.exec(["cat", "hello.txt"]).stdout == "hello\n"
        assert box.container_id not in (None, used)
