"""Removing containers from an engine that is slow, busy or refuses for a while.

Under load, and under gVisor most of all, the engine can answer a forced removal with an
error (its kill missed a deadline), go on with a removal after the client stopped waiting,
or create a container after the client gave up on its creation. `remove` retries one
container by its id; `sweep` removes by label whatever a provider made, known to it or not,
and is patient for as long as the engine keeps refusing; `remove_late` waits, by its name,
for a container whose creation the engine had not answered.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import docker.errors
from docker import APIClient

from tdd_sandbox.sandbox.client import ENGINE_ERRORS, timed_out

REMOVAL_PAUSES = (0.2, 0.5, 1.0)
"""The waits before each new try at a removal the engine refused (none after the last)."""
REMOVAL_WAIT_S = 30.0
"""How long a removal already under way may take before this one is tried again."""
SWEEP_WAIT_S = 180.0
"""How long a provider's closing sweep goes on while the engine refuses its removals. Each
refusal of a container still dying costs the engine's own ten seconds of waiting for the
kill: half a minute was one round of tries, and a container that took longer to die stood
exited, never tried again, for the rest of a CI run. gVisor has needed ~90 s to end a
starved sandbox (`container.SENTRY_MEMORY`); what outlasts this, `gc` or the next run's
start removes (`leftovers`)."""


def remove(api: APIClient, container: str) -> bool:
    """Remove `container` at once, killing what runs in it; whether it is gone. Never raises."""
    for pause in (0.0, *REMOVAL_PAUSES):
        time.sleep(pause)
        try:
            api.remove_container(container, force=True)
        except docker.errors.NotFound:
            return True  # gone, by this call or another
        except ENGINE_ERRORS as exc:
            # Another call's removal, or this one's, which the engine goes on with after the
            # client gave up waiting: gVisor under load takes seconds, and a busy engine
            # answered a fork bomb's removal after the tests' 10 s (CI).
            under_way = "already in progress" in str(exc) or timed_out(exc)
            if under_way and _removed(api, container):
                return True
            continue
        return True
    return False


def _removed(api: APIClient, container: str) -> bool:
    """Whether `container`, being removed by another call, is gone within a while."""
    deadline = time.monotonic() + REMOVAL_WAIT_S
    while time.monotonic() < deadline:
        try:
            api.inspect_container(container)
        except docker.errors.NotFound:
            return True
        except ENGINE_ERRORS as exc:
            if not timed_out(exc):
                return False  # a busy engine is asked again, a broken one is not
        time.sleep(0.1)
    return False


CREATION_WAIT_S = 60.0
"""How long after its creation call timed out a container may still appear: the engine goes
on with a creation its client stopped waiting for, and one it makes after a provider's
closing sweep is known to no one (its id never came back)."""


def remove_late(api: APIClient, unanswered: Sequence[tuple[str, float]]) -> bool:
    """Remove each container named in `unanswered` (its name, and when its creation call
    timed out) that the engine makes within `CREATION_WAIT_S` of that; whether none stands.
    Never raises."""
    removed = True
    for name, timed_out_at in unanswered:
        deadline = timed_out_at + CREATION_WAIT_S
        while time.monotonic() < deadline:
            try:
                api.inspect_container(name)
            except ENGINE_ERRORS:
                time.sleep(0.2)  # not made yet (NotFound), or a busy engine: asked again
                continue
            removed = remove(api, name) and removed
            break
    return removed


def sweep(api: APIClient, label: str) -> bool:
    """Remove every container carrying `label` (`key=value`) until the engine lists none, or
    `SWEEP_WAIT_S` passes; whether it lists none. Never raises."""
    deadline = time.monotonic() + SWEEP_WAIT_S
    while True:
        try:
            listed = [c["Id"] for c in api.containers(all=True, filters={"label": label})]
        except ENGINE_ERRORS:
            pass  # a busy engine is asked again, until the deadline
        else:
            if all([remove(api, container) for container in listed]):
                return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.5)
