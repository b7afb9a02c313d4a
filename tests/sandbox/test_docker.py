"""Docker-specific behaviour beyond the conformance suite."""

from __future__ import annotations

import docker
import pytest

from tdd_sandbox.sandbox.docker_provider import DockerSandboxProvider
from tdd_sandbox.sandbox.labels import LABEL
from tdd_sandbox.sandbox.snapshot import Snapshot

pytestmark = pytest.mark.docker

SNAPSHOT = Snapshot({"hello.txt": b"hello\n"})


def test_a_dead_container_is_replaced_with_the_same_snapshot(
    provider: DockerSandboxProvider, images: dict[str, str], docker_client: docker.DockerClient
) -> None:
    with provider.open(images["python"], SNAPSHOT) as box:
        first = box.container_id
        assert first is not None
        docker_client.api.kill(first)
        result = box.exec(["cat", "hello.txt"])
        assert result.stdout == "hello\n"
        assert box.container_id not in (None, first)


def test_a_sealed_command_cannot_read_a_sealable_file_nor_give_itself_the_right(
    provider: DockerSandboxProvider, images: dict[str, str]
) -> None:
    snapshot = Snapshot(
        {"hello.txt": b"hello\n", "open.txt": b"open\n"}, sealable=frozenset({"hello.txt"})
    )
    with provider.open(images["python"], snapshot) as box:
        assert box.exec(["cat", "hello.txt"]).stdout == "hello\n"
        tries = (
            "cat hello.txt",
            "chmod o+r hello.txt",
            "cp hello.txt /tmp/x",
            "sg 10003 -c 'cat hello.txt'",
            "newgrp 10003 < /dev/null",
        )
        for attempt in tries:
            result = box.exec(["sh", "-c", f"{attempt} && cat hello.txt"], sealed=True)
            assert result.exit_code != 0, (attempt, result.stdout)
            assert "hello" not in result.stdout, attempt
        # What is not sealable stays readable, and sealing lasts one command.
        assert box.exec(["cat", "open.txt"], sealed=True).stdout == "open\n"
        assert box.exec(["cat", "hello.txt"]).stdout == "hello\n"


def test_a_sealable_file_is_sealable_in_the_container_that_replaces_a_dead_one(
    provider: DockerSandboxProvider, images: dict[str, str], docker_client: docker.DockerClient
) -> None:
    snapshot = Snapshot({"hello.txt": b"hello\n"}, sealable=frozenset({"hello.txt"}))
    with provider.open(images["python"], snapshot) as box:
        first = box.container_id
        assert first is not None
        docker_client.api.kill(first)
        replaced = box.exec(["cat", "hello.txt"], sealed=True)
        assert box.container_id not in (None, first)
        assert replaced.exit_code != 0, replaced.stdout
        assert "Permission denied" in replaced.stderr
        assert box.exec(["cat", "hello.txt"]).stdout == "hello\n"


def test_warm_pool_hands_out_fresh_containers_and_close_removes_all(
    docker_client: docker.DockerClient, images: dict[str, str]
) -> None:
    from tdd_sandbox.settings import SandboxSettings

    settings = SandboxSettings(warm=2)
    with DockerSandboxProvider(settings, run_id="pytest-warm", client=docker_client) as made:
        made.prewarm(images["python"])
        seen = set()
        for _ in range(3):
            with made.open(images["python"], SNAPSHOT) as box:
                assert box.exec(["cat", "hello.txt"]).stdout == "hello\n"
                seen.add(box.container_id)
        assert len(seen) == 3  # never reused across snapshots
    left = docker_client.containers.list(
        all=True, filters={"label": [LABEL, f"{LABEL}.run=pytest-warm"]}
    )
    assert left == []
