"""Fixtures the sandbox tests share."""

from __future__ import annotations

from typing import Any

import docker
import pytest


@pytest.fixture
def execs(docker_client: docker.DockerClient, monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The arguments of every exec the engine is asked to create from now on."""
    made: list[object] = []
    create = docker_client.api.exec_create

    def counted(*args: Any, **kwargs: Any) -> Any:
        made.append(args)
        return create(*args, **kwargs)

    monkeypatch.setattr(docker_client.api, "exec_create", counted)
    return made
