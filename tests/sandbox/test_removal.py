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
    monkeypatch.setattr(removal, "REMOVAL_WAIT_S", 0.05)
    monkeypatch.setattr(removal, "REMOVAL_PAUSES", (0.01, 0.01, 0.01))
    api = _BusyApi(busy_calls=10**9)
    provider = _provider(api)
    provider.destroy(CONTAINER)
    assert CONTAINER in provider._live


class _Clock:
    """Time as the sweep reads it, moved on by its sleeps and by the engine's slow answers."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


class _DyingApi:
    """A container that dies `dies_at` seconds in: until then each forced removal waits out
    the engine's ten seconds for the kill's exit event and is refused, as dockerd answers a
    container whose processes take long to die (a fork bomb, a starved gVisor Sentry)."""

    def __init__(self, clock: _Clock, dies_at: float) -> None:
        self.clock = clock
        self.dies_at = dies_at
        self.gone = False

    def containers(self, all: bool, filters: dict[str, str]) -> list[dict[str, str]]:
        return [] if self.gone else [{"Id": CONTAINER}]

    def remove_container(self, container: str, force: bool) -> None:
        if self.gone:
            raise docker.errors.NotFound("no such container")
        if self.clock.now < self.dies_at:
            self.clock.sleep(10.0)
            raise docker.errors.APIError(
                "cannot remove container: could not kill: tried to kill container, but did "
                "not receive an exit event"
            )
        self.gone = True


def test_a_container_that_takes_a_minute_and_a_half_to_die_is_removed_by_the_sweep(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # CI of 9798130: a provider closed, its sweep gave up after one round of refused
    # removals (half a minute), and the container, dead soon after, stood exited for the
    # rest of the run: nothing tried it again.
    clock = _Clock()
    monkeypatch.setattr(removal, "time", clock)
    api = _DyingApi(clock, dies_at=90.0)
    assert removal.sweep(api, "tdd-sandbox.provider=p")  # type: ignore[arg-type]
    assert api.gone


def test_a_sweep_that_the_engine_keeps_refusing_ends_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = _Clock()
    monkeypatch.setattr(removal, "time", clock)
    api = _DyingApi(clock, dies_at=float("inf"))
    assert not removal.sweep(api, "tdd-sandbox.provider=p")  # type: ignore[arg-type]
    assert clock.now <= removal.SWEEP_WAIT_S + 60.0  # the last round's tries, no more


class _LateApi:
    """An engine that makes a container `made_at` seconds in, its creation call long timed
    out by then (None: never)."""

    def __init__(self, clock: _Clock, made_at: float | None) -> None:
        self.clock = clock
        self.made_at = made_at
        self.removed: list[str] = []

    def inspect_container(self, container: str) -> dict[str, Any]:
        if self.made_at is None or self.clock.now < self.made_at or self.removed:
            raise docker.errors.NotFound("no such container")
        return {"Name": container}

    def remove_container(self, container: str, force: bool) -> None:
        self.removed.append(container)


@pytest.mark.parametrize(("made_at", "removed", "waited"), [
    (5.0, ["tdd-sandbox-p-1"], 5.0),  # made while the provider closes: removed
    (None, [], removal.CREATION_WAIT_S),  # never made: waited for no longer than that
])  # fmt: skip
def test_a_container_whose_creation_timed_out_is_removed_by_name_once_made(
    monkeypatch: pytest.MonkeyPatch, made_at: float | None, removed: list[str], waited: float
) -> None:
    clock = _Clock()
    monkeypatch.setattr(removal, "time", clock)
    api = _LateApi(clock, made_at)
    assert removal.remove_late(api, [("tdd-sandbox-p-1", 0.0)])  # type: ignore[arg-type]
    assert api.removed == removed
    assert waited <= clock.now <= waited + 0.5


def test_a_creation_that_timed_out_long_before_is_not_waited_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = _Clock()
    clock.now = 1000.0
    monkeypatch.setattr(removal, "time", clock)
    assert removal.remove_late(_LateApi(clock, None), [("tdd-sandbox-p-1", 10.0)])  # type: ignore[arg-type]
    assert clock.now == 1000.0
