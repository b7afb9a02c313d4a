"""A container's removal when the engine is slower than the client's patience.

Under load (a fork bomb being killed under gVisor beside another test module) the engine went
on removing a container after the client's call had timed out, and its inspections timed out
too: each was taken as a refusal, the four tries were spent in two seconds, and the container
was "left behind" (CI). The engine here is a stand-in at that edge: its calls time out as a
busy one's do, and it finishes the removal a few calls later.
"""

from __future__ import annotations

from typing import Any

import docker.errors
import pytest
import requests.exceptions

from tdd_sandbox.sandbox import removal
from tdd_sandbox.sandbox.docker_provider import DockerSandboxProvider
from tdd_sandbox.settings import SandboxSettings

CONTAINER = "c" * 64


class _BusyApi:
    """A removal that the engine carries out after its caller gave up, over `busy_calls` of
    its later calls, each of which times out meanwhile."""

    def __init__(self, busy_calls: int) -> None:
        self.busy_calls = busy_calls
        self.removing = False
        self.gone = False

    def _busy(self) -> None:
        if self.busy_calls > 0:
            self.busy_calls -= 1
            raise requests.exceptions.ReadTimeout("Read timed out. (read timeout=10)")
        self.gone = True

    def remove_container(self, container: str, force: bool) -> None:
        if self.gone:
            raise docker.errors.NotFound("no such container")
        if self.removing:
            self._busy()
            raise docker.errors.APIError(
                "409 Conflict: removal of container is already in progress"
            )
        self.removing = True
        raise requests.exceptions.ReadTimeout("Read timed out. (read timeout=10)")

    def inspect_container(self, container: str) -> dict[str, Any]:
        self._busy()
        raise docker.errors.NotFound("no such container")


class _Client:
    def __init__(self, api: _BusyApi) -> None:
        self.api = api


def _provider(api: _BusyApi) -> DockerSandboxProvider:
    provider = DockerSandboxProvider(SandboxSettings(warm=0), client=_Client(api))  # type: ignore[arg-type]
    provider._live.add(CONTAINER)  # as _start_container records it
    return provider


def test_a_removal_the_engine_finishes_after_the_call_timed_out_is_waited_for() -> None:
    api = _BusyApi(busy_calls=6)
    provider = _provider(api)
    provider.destroy(CONTAINER)
    assert api.gone
    assert CONTAINER not in provider._live  # nothing left for close, gc or the test to find


def test_an_engine_that_never_finishes_leaves_the_container_listed_for_close(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(removal, "REMOVAL_WAIT_S", 0.3)
    api = _BusyApi(busy_calls=10**9)
    provider = _provider(api)
    provider.destroy(CONTAINER)
    assert CONTAINER in provider._live
