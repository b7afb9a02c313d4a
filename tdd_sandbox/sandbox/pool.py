"""What a Docker sandbox asks of the provider that made it: the pool of containers."""

from __future__ import annotations

from typing import Protocol

import docker

from tdd_sandbox.sandbox.server import CommandServer
from tdd_sandbox.settings import SandboxSettings


class Containers(Protocol):
    """What a sandbox asks of the provider that made it (`docker_provider.py`): a fresh
    container to hold its snapshot, and its destruction."""

    client: docker.DockerClient
    settings: SandboxSettings

    def take_container(self, image: str) -> str:
        """A started container of `image`, for this sandbox alone."""
        ...

    def destroy(self, container: str) -> None:
        """Remove `container` and forget it."""
        ...

    def retire(self, container: str) -> None:
        """Remove a used `container` off the caller's path, and forget it."""
        ...

    def release(self, image: str, container: str) -> None:
        """Empty a used container of `image` off the caller's path and make it ready for the
        next check (`isolation: namespace`); one that cannot be emptied is removed."""
        ...

    def server(self, container: str, user: str) -> CommandServer:
        """`container`'s command server for `user`, started if it has no live one."""
        ...

    def spared(self, container: str) -> list[int]:
        """The pids of `container`'s servers that run as the sandbox user, and of their warm
        interpreters."""
        ...

    def zygote(self, container: str | None, user: str) -> str:
        """The socket name of `user`'s warm interpreter in `container` ("" for none)."""
        ...

    def busy(self, container: str) -> bool:
        """Whether a command is running on one of `container`'s servers."""
        ...

    def drop_servers(self, container: str) -> None:
        """Forget `container`'s servers (they were killed), closing their streams."""
        ...

    def engine_alive(self) -> bool:
        """Whether the engine still answers."""
        ...

    def prewarm(self, image: str) -> None:
        """Start a container of `image` ahead of need."""
        ...
