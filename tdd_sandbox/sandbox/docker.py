"""The Docker backend: hardened containers on a local or remote engine (`DOCKER_HOST`), each
holding one snapshot (a tar on the stdin of `tar -x`: no host path is mounted), fresh per check
(`isolation: container`) or warm, each command in namespaces of its own (`namespaces.py`)."""

from __future__ import annotations

import functools
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from typing_extensions import override

from tdd_sandbox.errors import SandboxUnavailable
from tdd_sandbox.sandbox import client, mounts, namespaces, supervisor
from tdd_sandbox.sandbox.base import WORKDIR, ExecResult, Sandbox
from tdd_sandbox.sandbox.batch import BatchDeadline, Run, batch_results, exec_result
from tdd_sandbox.sandbox.client import ENGINE_ERRORS, feed, hijacked, short_error, wait_exit
from tdd_sandbox.sandbox.container import (
    GUARDED_SHELL,
    KEEPER_USER,
    SANDBOX_USER,
    SEALED_USER,
    ship,
)
from tdd_sandbox.sandbox.pool import Containers
from tdd_sandbox.sandbox.server import CommandServer, serve
from tdd_sandbox.sandbox.snapshot import Snapshot
from tdd_sandbox.sandbox.stream import CappedText, Ending, pump
from tdd_sandbox.settings import parse_memory

_T = TypeVar("_T")


class DockerSandbox(Sandbox):
    """One snapshot in one container. If a command wrecks the container (a fork bomb that
    leaves no room even to kill it), the container is replaced by a fresh one holding the
    same snapshot before the next command."""

    def __init__(self, provider: Containers, image: str, snapshot: Snapshot) -> None:
        self._provider = provider
        self._image = image
        self._archive = snapshot.to_tar()
        self._sealable = snapshot.sealable
        self._container: str | None = None
        self._closed = False
        self._shell = GUARDED_SHELL if provider.settings.runtime == "runc" else "sh"
        self._warm = provider.settings.isolation == "namespace"
        self._closing = threading.Lock()

    @property
    @override
    def sealable(self) -> frozenset[str]:
        return self._sealable

    @property
    def container_id(self) -> str | None:
        """The current container, for inspection in tests and diagnostics."""
        return self._container

    def start(self) -> None:
        """Take a container and ship the snapshot into it.

        Raises:
            SandboxUnavailable: no container could be started or the snapshot not unpacked.
        """
        for attempt in range(2):
            container = self._provider.take_container(self._image)
            try:
                if not self._warm:
                    ship(self._provider.client.api, container, self._archive,
                         self._provider.settings)  # fmt: skip
                elif not namespaces.ship(
                    self._provider, container, self._archive, last=attempt > 0
                ):
                    self._provider.destroy(container)  # not clean: never serves a check
                    continue
            except BaseException:
                self._provider.destroy(container)
                raise
            self._container = container
            return

    @override
    def exec(
        self,
        command: Sequence[str],
        *,
        timeout_s: float | None = None,
        env: Mapping[str, str] | None = None,
        collect: str | None = None,
        stdin: bytes | None = None,
        sealed: bool = False,
    ) -> ExecResult:
        nonce = secrets.token_hex(8)
        user = SEALED_USER if sealed else SANDBOX_USER
        # In a warm container every command of the check runs through the sandbox user's
        # server (`mounts.py`): a sealed one is sealed by its mounts, not its group.
        server = SANDBOX_USER if self._warm else user
        warm = self._provider.zygote(self._container, server)
        argv = supervisor.wrap(nonce, command, collect or "", shell=self._shell, warm=warm)
        hidden = sorted(self._sealable) if sealed else []
        run = self._run(self._fresh(nonce, argv, user, warm, sealed=hidden), timeout_s, env=env,
                        stdin=stdin, user=server)  # fmt: skip
        result, reported = exec_result(run, nonce)
        if not reported and run.ending is Ending.EOF:
            if self._warm and (refused := namespaces.refusal(run.err.text(), nonce)):
                raise SandboxUnavailable(refused)  # no code ran: not a verdict
            # The supervisor was killed (by the command or the OOM killer): sweep what it could not.
            self._stop_everything()
        return result

    @override
    def exec_each(
        self, commands: Sequence[Sequence[str]], *, timeout_s: float | None = None
    ) -> list[ExecResult]:
        """The commands in one run (`supervisor.BATCH`), each with its own report; a batch
        that does not end as planned is not taken: each then runs again on its own."""
        count = len(commands)
        if count < 2:
            return super().exec_each(commands, timeout_s=timeout_s)
        nonce, warm = secrets.token_hex(8), self._provider.zygote(self._container, SANDBOX_USER)
        argv = supervisor.wrap_batch(nonce, commands, shell=self._shell, warm=warm)
        run = self._run(self._fresh(nonce, argv, SANDBOX_USER, warm), timeout_s,
                        batch=(nonce, count))  # fmt: skip
        parts = batch_results(run, nonce, count, self._provider.settings)
        if parts is None:
            if run.ending is Ending.EOF:
                self._stop_everything()
            return super().exec_each(commands, timeout_s=timeout_s)
        return parts

    def _fresh(
        self, nonce: str, argv: list[str], user: str, warm: str = "", *, sealed: Sequence[str] = ()
    ) -> list[str]:
        """`argv` in namespaces of its own (`sealed` paths hidden) in a warm container."""
        if not self._warm:
            return argv
        runtime = self._provider.settings.runtime
        return namespaces.enter(nonce, argv, user, runtime, zygote=warm, sealed=sealed)

    def _run(
        self,
        argv: list[str],
        timeout_s: float | None,
        *,
        env: Mapping[str, str] | None = None,
        stdin: bytes | None = None,
        user: str = SANDBOX_USER,
        batch: tuple[str, int] | None = None,
    ) -> Run:
        """One exec of `argv`, read to its end, its deadline or its flood; what it runs is
        stopped unless it ended. A `batch` (its nonce, its number of commands) gets each
        command's output allowance, and each command its own time from its `begin` line
        (a command that prints the next one's gains at most the time the batch has).

        Raises:
            SandboxUnavailable: the sandbox cannot run commands.
        """
        if self._closed:
            raise SandboxUnavailable("the sandbox was closed")
        settings = self._provider.settings
        timeout = timeout_s if timeout_s is not None else settings.timeout_s
        share = batch[1] if batch is not None else 1
        out = CappedText(parse_memory(settings.output_limit) * share)
        err = CappedText(parse_memory(settings.output_limit) * share)
        api = self._provider.client.api
        started = time.monotonic()
        deadline: float | Callable[[], float] = started + timeout
        if batch is not None:
            deadline = BatchDeadline(out, batch[0], timeout)
        flood = parse_memory(settings.flood_limit) * share
        code: int | None = None
        try:
            if self._warm:
                by = functools.partial(self._server, user)
                served = serve(by, self._stop_everything, argv, out, err, env=env, stdin=stdin,
                               deadline=deadline, flood_limit=flood)  # fmt: skip
                ending, code = served.ending, served.code
            else:
                exec_id = self._create_exec(argv, env, user=user, attach_stdin=stdin is not None)
                with hijacked(api.exec_start(exec_id, socket=True)) as raw:
                    if stdin is not None:
                        feed(raw, stdin, deadline=started + timeout)
                    ending = pump(raw, out, err, deadline=deadline, flood_limit=flood)
            duration = time.monotonic() - started
            if ending is not Ending.EOF:
                self._stop_everything()
            elif not self._warm and self._container is not None:
                code = wait_exit(api, exec_id)
        except ENGINE_ERRORS as exc:
            raise SandboxUnavailable(f"the sandbox stopped answering: {short_error(exc)}") from None
        return Run(ending, out, err, code if ending is Ending.EOF else None, duration)

    def _server(self, user: str) -> CommandServer:
        """The container's server for `user`, nested in this check's namespaces and mounts
        (`mounts.py`; made at its first command, and again after a sweep), marked busy in
        step with `close` (from another thread: it either stops what the server runs, or
        comes first and nothing is sent)."""
        server = self._in_container(lambda box: mounts.nested(self._provider, box, user))
        with self._closing:
            if self._closed:
                raise SandboxUnavailable("the sandbox was closed")
            server.busy = True
        return server

    def _create_exec(
        self, argv: list[str], env: Mapping[str, str] | None, *, user: str, attach_stdin: bool
    ) -> str:
        """An exec of `argv` as `user` (see `_in_container`)."""
        api = self._provider.client.api
        return self._in_container(
            lambda box: str(
                api.exec_create(box, argv, user=user, workdir=WORKDIR,
                                environment=dict(env or {}), stdin=attach_stdin)["Id"]
            )
        )  # fmt: skip

    def _in_container(self, make: Callable[[str], _T]) -> _T:
        """`make` given the container; a container that can no longer start a process (it
        died, or every pid is held) is replaced by a fresh one with the same snapshot."""
        for attempt in range(2):
            if self._closed:
                raise SandboxUnavailable("the sandbox was closed")
            if self._container is None:
                self.start()
            assert self._container is not None
            try:
                return make(self._container)
            except ENGINE_ERRORS as exc:
                if attempt or not self._provider.engine_alive():
                    raise SandboxUnavailable(
                        f"the sandbox cannot run commands: {short_error(exc)}"
                    ) from None
                self._discard_container()
        raise AssertionError("unreachable")

    @override
    def read_file(self, path: str, *, max_bytes: int = 8 * 1024 * 1024) -> bytes | None:
        argv = ["head", "-c", str(max_bytes), "--", path]
        if self._warm:
            server = functools.partial(self._server, SANDBOX_USER)
            return mounts.read_back(server, self._stop_everything, argv, max_bytes)
        api = self._provider.client.api
        # Through `_in_container`: a sandbox closed meanwhile (a cancelled attempt) starts none.
        exec_id = self._in_container(
            lambda box: str(api.exec_create(box, argv, user=KEEPER_USER)["Id"])
        )
        try:
            stdout, _ = api.exec_start(exec_id, demux=True)
            code = wait_exit(api, exec_id)
        except ENGINE_ERRORS as exc:
            why = short_error(exc)
            raise SandboxUnavailable(f"could not read {path} in the sandbox: {why}") from None
        return (stdout or b"") if code == 0 else None

    def _stop_everything(self) -> None:
        """Kill every process of the sandbox user; failing that, or past SWEEP_S, the container."""
        api = self._provider.client.api
        if self._container is None:
            return  # closed meanwhile: its container was stopped or emptied then
        # The sweep kills the servers of that user too: the next command starts new ones.
        self._provider.drop_servers(self._container)
        try:
            exec_id = api.exec_create(self._container, supervisor.SWEEP, user=SANDBOX_USER)["Id"]
            if client.finished(api, exec_id, within_s=supervisor.SWEEP_S) == 0:
                return  # else the container goes, and every process with it
        except ENGINE_ERRORS:
            pass
        self._discard_container()

    def _discard_container(self) -> None:
        if self._container is not None:
            self._provider.destroy(self._container)
            self._container = None

    @override
    def close(self) -> None:
        with self._closing:
            if self._closed:
                return
            self._closed = True
            busy = self._container is not None and self._provider.busy(self._container)
        if self._container is not None and self._warm:
            if busy:  # a cancelled attempt's command: the wipe's new server kills it and its
                self._provider.drop_servers(self._container)  # server, off this path
            self._provider.release(self._image, self._container)
            self._container = None
            return
        if self._container is not None:
            self._provider.retire(self._container)
            self._container = None
        # Refill the pool only now: a container started while this sandbox's command ran
        # would compete with it for the CPU.
        if self._provider.settings.warm:
            self._provider.prewarm(self._image)
