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


def test_a_sealed_file_stays_sealed_in_the_container_that_replaces_a_dead_one(
    provider: DockerSandboxProvider, images: dict[str, str], docker_client: docker.DockerClient
) -> None:
    with provider.open(images["python"], SNAPSHOT) as box:
        box.seal(["hello.txt"])
        assert box.exec(["cat", "hello.txt"]).exit_code != 0
        first = box.container_id
        assert first is not None
        docker_client.api.kill(first)
        replaced = box.exec(["cat", "hello.txt"])
        assert box.container_id not in (None, first)
        assert replaced.exit_code != 0, replaced.stdout
        assert "Permission denied" in replaced.stderr
        box.seal(["hello.txt"], sealed=False)
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
