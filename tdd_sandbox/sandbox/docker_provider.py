"""The Docker backend's provider: it starts, hands out and destroys containers, and keeps a
warm pool started ahead of need. A used container is removed, or, under namespace isolation,
emptied (`namespaces.WIPE`) and checked clean before it holds a second snapshot."""

from __future__ import annotations

import contextlib
import itertools
import threading
import time
import uuid
from concurrent.futures import Future, ThreadPoolExecutor

import docker
import docker.errors
from typing_extensions import override

from tdd_sandbox.errors import SandboxUnavailable
from tdd_sandbox.sandbox import namespaces, removal, zygote
from tdd_sandbox.sandbox.base import SandboxProvider
from tdd_sandbox.sandbox.client import ENGINE_ERRORS, connect, short_error, timed_out
from tdd_sandbox.sandbox.container import (
    SANDBOX_USER,
    container_options,
    create_container,
)
from tdd_sandbox.sandbox.docker import DockerSandbox
from tdd_sandbox.sandbox.labels import PROVIDER_LABEL
from tdd_sandbox.sandbox.server import CommandServer
from tdd_sandbox.sandbox.snapshot import Snapshot
from tdd_sandbox.settings import SandboxSettings


class DockerSandboxProvider(SandboxProvider):
    """Starts, hands out and destroys containers; keeps `settings.warm` of them ready."""

    def __init__(
        self,
        settings: SandboxSettings,
        *,
        run_id: str = "adhoc",
        client: docker.DockerClient | None = None,
    ) -> None:
        self.settings = settings
        self.run_id = run_id
        self.provider_id = uuid.uuid4().hex
        self.client = client if client is not None else connect()
        self._lock = threading.Lock()
        self._ready: dict[str, list[Future[str]]] = {}
        self._live: set[str] = set()
        # Each warm container's command servers, by user: they live as long as it does.
        self._servers: dict[str, dict[str, CommandServer]] = {}
        # What each image's warm interpreters import (`zygote.py`), each container's image, and
        # the containers whose servers start them (`_warm_up`).
        self._preload: dict[str, tuple[str, ...]] = {}
        self._images: dict[str, str] = {}
        self._warmed: set[str] = set()
        self._starter = ThreadPoolExecutor(max_workers=2, thread_name_prefix="tdd-warm")
        # Removing a used container takes the engine tens of milliseconds: done off the path
        # of the check that used it (nothing can reach it any more in the meantime).
        self._reaper = ThreadPoolExecutor(max_workers=2, thread_name_prefix="tdd-reap")
        self._closed = False
        # Each container is named (`_start_container`), so that one whose creation call timed
        # out can be found by its name once the engine makes it: name, when it timed out.
        self._serial = itertools.count(1)
        self._unanswered: list[tuple[str, float]] = []

    @override
    def open(self, image: str, snapshot: Snapshot) -> DockerSandbox:
        sandbox = DockerSandbox(self, image, snapshot)
        sandbox.start()
        return sandbox

    @override
    def prewarm(self, image: str, *, preload: tuple[str, ...] = ()) -> None:
        """Start warm containers of `image`; with `preload` (first call only), each warm
        container's sandbox users get a warm interpreter that imports those modules."""
        with self._lock:
            self._preload.setdefault(image, preload)
            queue = self._ready.setdefault(image, [])
            while len(queue) < self.settings.warm and not self._closed:
                queue.append(self._starter.submit(self._start_container, image, warm=True))

    def take_container(self, image: str) -> str:
        """A started container of `image`: a warm one if ready, else a new one. The pool is
        refilled when a sandbox closes, off the critical path of its commands.

        Raises:
            SandboxUnavailable: the engine could not start one.
        """
        with self._lock:
            queue = self._ready.get(image, [])
            future = queue.pop(0) if queue else None
        if future is not None:
            try:
                return future.result()
            except SandboxUnavailable:
                pass  # a warm start failed; try once more in the foreground
        return self._start_container(image)

    def _start_container(self, image: str, *, warm: bool = False) -> str:
        options = container_options(
            image, self.settings, run_id=self.run_id, provider=self.provider_id
        )
        name = options["name"] = f"tdd-sandbox-{self.provider_id[:12]}-{next(self._serial)}"
        container: str | None = None
        try:
            container = create_container(self.client, options, self.settings)
            with self._lock:
                self._live.add(container)
                self._images[container] = image
            self.client.api.start(container)
        except ENGINE_ERRORS as exc:
            if container is not None:
                self.destroy(container)
            elif timed_out(exc):
                with self._lock:
                    self._unanswered.append((name, time.monotonic()))
            raise SandboxUnavailable(
                f"could not start a sandbox from {image}: {short_error(exc)}"
            ) from None
        if warm:
            with contextlib.suppress(*ENGINE_ERRORS):  # failing, the check starts its servers
                self._warm_up(container)
        return container

    def server(self, container: str, user: str) -> CommandServer:
        """The command server of `container` that runs commands as `user`, started if it has
        none that is alive.

        Raises:
            docker.errors.APIError, OSError: the engine could not start one.
        """
        with self._lock:
            found = self._servers.get(container, {}).get(user)
        if found is not None and found.alive:
            return found
        if found is not None:
            found.close()
        with self._lock:
            preload = self._preload.get(self._images.get(container, ""), ())
            warmed = container in self._warmed
        group = user.split(":")[1]
        # Only the sandbox user's server runs a warm check's commands, sealed ones too (sealed by
        # their mounts: `mounts.py`), so only it gets a warm interpreter.
        wanted = preload and warmed and user == SANDBOX_USER  # `_warm_up` checked
        warm = zygote.start(group, preload) if wanted else ()
        started = CommandServer(self.client.api, container, user, zygote=warm)
        with self._lock:
            self._servers.setdefault(container, {})[user] = started
        return started

    def _warm_interpreters(self) -> bool:
        # A warm interpreter joins a check's namespaces with setns, which gVisor's kernel
        # does not do for user namespaces (EINVAL): under runsc every command starts its own.
        return self.settings.isolation == "namespace" and self.settings.runtime == "runc"

    def spared(self, container: str) -> list[int]:
        """The pids of `container`'s live servers that run as the sandbox user: the only
        processes of that user a clean container holds."""
        with self._lock:
            servers = list(self._servers.get(container, {}).values())
        # The sealed user is the sandbox user in another group: one uid names both.
        uid = SANDBOX_USER.split(":")[0]
        alive = [s for s in servers if s.alive and s.user.split(":")[0] == uid]
        return [pid for s in alive for pid in (s.pid, s.zygote) if pid is not None]

    def zygote(self, container: str | None, user: str) -> str:
        """The socket name of the warm interpreter that serves `user` in `container`, or ""
        when it has none (yet)."""
        with self._lock:
            found = self._servers.get(container or "", {}).get(user)
        return zygote.name(user.split(":")[1]) if found and found.zygote and found.alive else ""

    def busy(self, container: str) -> bool:
        """Whether a command is running on one of `container`'s servers."""
        with self._lock:
            servers = list(self._servers.get(container, {}).values())
        return any(server.alive and server.busy for server in servers)

    def drop_servers(self, container: str) -> None:
        """Forget `container`'s servers (they were killed, or it goes), closing their streams."""
        with self._lock:
            servers = self._servers.pop(container, {})
        for server in servers.values():
            server.close()

    def destroy(self, container: str) -> None:
        """Remove a container at once (killing what runs in it). Never raises.

        A removal the engine refuses is tried again: under gVisor, a container busy with a
        flood can miss the engine's kill deadline once. One that still stands stays listed, so
        that `close` tries it again (and `gc` finds it by its labels after that)."""
        self.drop_servers(container)
        if not removal.remove(self.client.api, container):
            return
        with self._lock:
            self._live.discard(container)
            self._images.pop(container, None)
            self._warmed.discard(container)

    def retire(self, container: str) -> None:
        """Remove a used container in the background (at once once the provider closes).
        Never raises."""
        with self._lock:
            if not self._closed:
                self._reaper.submit(self.destroy, container)
                return
        self.destroy(container)

    def release(self, image: str, container: str) -> None:
        """Empty a used container in the background (`namespaces.WIPE`) and hand it to the
        next check of `image`, which waits for the wipe rather than start a container; one
        that cannot be emptied, or that the pool has no room for, is removed. Never raises."""
        with self._lock:
            queue = self._ready.setdefault(image, [])
            if not self._closed and len(queue) < max(self.settings.warm, 1):
                wiped: Future[str] = Future()
                queue.append(wiped)
                self._reaper.submit(self._wipe, container, wiped)
                return
            if not self._closed:
                self._reaper.submit(self.destroy, container)
                return
        self.destroy(container)

    def _wipe(self, container: str, wiped: Future[str]) -> None:
        try:
            self._warm_up(container)
            self.server(container, SANDBOX_USER).leave()  # the check's mounts go with it
            clean = namespaces.wipe(self.server(container, SANDBOX_USER), self.spared(container))
        except ENGINE_ERRORS:
            clean = False
        if clean:
            wiped.set_result(container)
            return
        self.destroy(container)
        wiped.set_exception(SandboxUnavailable("a used sandbox could not be emptied"))

    def _warm_up(self, container: str) -> None:
        """A container's sandbox users' servers, with warm interpreters: as a container of the
        pool starts, off the path of any check; for one started for a check that found none
        ready, only before its second (the old servers replaced, the wipe kills them), as the
        imports cost more CPU (0.2 s each) than one check's commands save."""
        with self._lock:
            image = self._images.get(container, "")
            if container in self._warmed or not self._preload.get(image):
                return
            if not self._warm_interpreters():
                return
            self._warmed.add(container)
            servers = self._servers.get(container, {})
            old = servers.pop(SANDBOX_USER, None)
        if old is not None:
            old.close()
        self.server(container, SANDBOX_USER)

    def engine_alive(self) -> bool:
        """Whether the engine still answers."""
        try:
            return bool(self.client.ping())
        except ENGINE_ERRORS:
            return False

    @override
    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._ready.clear()
        # Every container ever created is in _live until destroyed, warm or in use alike.
        self._starter.shutdown(wait=True, cancel_futures=True)
        self._reaper.shutdown(wait=True)
        with self._lock:
            leftovers = list(self._live)
        # All at once: a run stopped by a signal has two seconds, and each removal under load
        # takes a few tenths of one.
        with ThreadPoolExecutor(max_workers=4, thread_name_prefix="tdd-remove") as removing:
            list(removing.map(self.destroy, leftovers))
        # A container whose creation call timed out is known by its name alone, and the
        # engine may make it yet: nothing else removes one by name, so one not there now is
        # waited for (then the sweep could miss it).
        with self._lock:
            unanswered = list(self._unanswered)
        removal.remove_late(self.client.api, unanswered)
        # Then by label: one whose removals were all refused is tried until gone.
        removal.sweep(self.client.api, f"{PROVIDER_LABEL}={self.provider_id}")
