"""A command server: one exec that stays in a warm container and starts command after command.

Every exec costs the engine a runtime process (about 85 ms on runc, more on gVisor), and a
check under `isolation: namespace` ran three or four of them. So each warm container gets,
per user that runs commands there, one long exec of `SERVER` (a Perl loop: `perl-base` is in
every Debian image), and each command after that is a request on its stdin: its argv, its
environment, its stdin. The server forks, the child runs the argv exactly as an exec would
(same user, same container, `/work`, the container's environment plus the request's), and
when it has exited the server prints an end line on both streams, tagged with a key the
request carried. The command's output goes straight to the exec's streams, read by the host
as an exec's (`stream.pump`): capped, with its deadline and its flood stop.

Why a command cannot forge the end: its key is a fresh secret per request, written only to
the server's stdin, which no command can read (each gets a pipe of its own input instead),
and every command that runs code runs in its own pid namespace (`namespaces.ENTER`), so it can
see neither the server nor its memory. Its processes are gone when the server's line comes
(the kernel kills a pid namespace with its first process), so nothing of it can print after.
A command that runs past its deadline or floods is stopped as any exec is, by killing every
process of its user, the server with it: the next command starts a new one.
"""

from __future__ import annotations

import contextlib
import re
import secrets
import socket
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from docker import APIClient

from tdd_sandbox.sandbox.base import WORKDIR
from tdd_sandbox.sandbox.client import hijacked
from tdd_sandbox.sandbox.protocol import SERVER, request_bytes
from tdd_sandbox.sandbox.stream import CappedText, Ending, pump

_START_S = 30.0
"""How long a server may take to say it is ready (gVisor under load)."""


@dataclass(frozen=True)
class Served:
    """How one command went: why reading stopped, and its exit status (None unless it ended
    by itself)."""

    ending: Ending
    code: int | None


class CommandServer:
    """One server exec in a container, as one user; runs one command at a time."""

    def __init__(
        self, api: APIClient, container: str, user: str, *, zygote: Sequence[str] = ()
    ) -> None:
        """Start the server, and with it the warm interpreter `zygote` (an argv) if any.

        Raises:
            docker.errors.APIError, OSError: the engine could not start it, or it did not
                say it was ready (the caller treats that as any failed exec).
        """
        self.user = user
        # A close from another thread while a command's output is read only shuts the stream
        # down (which wakes the reader); the reader closes it. Closing a descriptor another
        # thread is about to wait on frees its number for the next socket opened, and the wait
        # then went to that socket: a stopped race's reader waited out a 900 s deadline.
        self._closing = threading.Lock()
        self._reading = False
        self._closed = False
        hello = secrets.token_hex(8)
        argv = ["perl", "-e", SERVER, hello, *zygote]
        exec_id = api.exec_create(container, argv, user=user, workdir=WORKDIR, stdin=True)["Id"]
        self._hijacked = hijacked(api.exec_start(exec_id, socket=True))
        self._raw: Any = self._hijacked.__enter__()
        out, err = CappedText(4096), CappedText(4096)
        ready = re.compile(rf"\n@@{hello} ready (\d+) (\d+)\n")
        pump(self._raw, out, err, deadline=time.monotonic() + _START_S, flood_limit=1 << 16,
             until=lambda: ready.search(err.text()) is not None)  # fmt: skip
        found = ready.search(err.text())
        if found is None:
            self.close()
            raise OSError(f"the command server did not start: {err.text()[-200:]!r}")
        self.pid = int(found.group(1))
        self.zygote = int(found.group(2)) or None
        """The warm interpreter's pid (None without one): it lives as long as the server."""
        self.alive = True
        self.busy = False
        """Whether a command of its is running (the caller is reading its output)."""
        self._nest: str | None = None
        """The key of the request that started the nested server, while one serves."""

    def run(
        self,
        argv: Sequence[str],
        out: CappedText,
        err: CappedText,
        *,
        env: Mapping[str, str] | None,
        stdin: bytes | None,
        deadline: float | Callable[[], float],
        flood_limit: int,
    ) -> Served:
        """Run `argv` to its end, its deadline or its flood, its output into `out` and `err`
        (the server's end lines taken off). A command that did not end leaves the server
        busy: the caller must stop it (and with it this server), and then `close` it.

        Raises:
            OSError: the request could not be sent (the server or its container is gone).
        """
        key = secrets.token_hex(16)
        self.busy = True
        end_out = f"\n@@{key} end\n".encode()
        end_err = re.compile(rb"\n@@" + key.encode() + rb" end rc=(\d+)\n\Z")

        def ended() -> bool:
            return out.endswith(end_out) and end_err.search(err.tail(64)) is not None

        request = request_bytes(key, argv, env or {}, stdin or b"")
        ending = self._exchange(request, out, err, deadline=deadline, flood_limit=flood_limit,
                                until=ended)  # fmt: skip
        if ending is not Ending.EOF or not ended():
            self.alive = False
            return Served(Ending.EOF if ending is Ending.EOF else ending, None)
        self.busy = False
        found = end_err.search(err.tail(64))
        assert found is not None
        out.trim(len(end_out))
        err.trim(len(found.group(0)))
        return Served(Ending.EOF, int(found.group(1)))

    @property
    def nested(self) -> bool:
        """Whether a nested server (`nest`) takes the requests."""
        return self._nest is not None

    def nest(self, argv: Sequence[str]) -> None:
        """Start a second server through `argv`, which must end by running its last
        arguments (the server's own); it takes every request after this, on this server's
        streams, until `leave`: the commands of one check, in what `argv` made for it.

        Raises:
            OSError: it did not say it was ready (this server is gone then too; the message
                holds the end of what `argv` printed).
        """
        hello, key = secrets.token_hex(8), secrets.token_hex(16)
        out, err = CappedText(4096), CappedText(4096)
        ready = re.compile(rf"\n@@{hello} ready \d+ \d+\n")
        failed = re.compile(rf"\n@@{key} end rc=\d+\n")

        def said() -> bool:
            return bool(ready.search(err.text()) or failed.search(err.text()))

        request = request_bytes(key, [*argv, "perl", "-e", SERVER, hello], {}, b"", nest=True)
        self._exchange(request, out, err, deadline=time.monotonic() + _START_S,
                       flood_limit=1 << 16, until=said)  # fmt: skip
        if ready.search(err.text()) is None:
            self.alive = False
            self.close()
            raise OSError(f"the check's server did not start:\n{err.text()[-300:]}")
        self._nest = key

    def leave(self) -> None:
        """End the nested server (`nest`): this one takes the requests again. One that does
        not leave in time is closed, this server with it. Never raises."""
        key, self._nest = self._nest, None
        if key is None or not self.alive:
            return
        out, err = CappedText(4096), CappedText(4096)
        end_out = f"\n@@{key} end\n".encode()
        left = re.compile(rb"\n@@" + key.encode() + rb" end rc=0\n\Z")

        def ended() -> bool:
            return out.endswith(end_out) and left.search(err.tail(64)) is not None

        with contextlib.suppress(OSError):
            self._exchange(request_bytes(secrets.token_hex(16), [], {}, b""), out, err,
                           deadline=time.monotonic() + _START_S, flood_limit=1 << 16,
                           until=ended)  # fmt: skip
        if not ended():
            self.alive = False
            self.close()

    def _exchange(
        self,
        request: bytes,
        out: CappedText,
        err: CappedText,
        *,
        deadline: float | Callable[[], float],
        flood_limit: int,
        until: Callable[[], bool],
    ) -> Ending:
        """Send `request`, then read the streams until `until`, their end, the deadline or
        a flood.

        Raises:
            OSError: the request could not be sent (the server or its container is gone).
        """
        with self._closing:
            if self._closed:
                raise OSError("the command server was closed")
            # Two readers of one stream each take bytes the other waits for: the second to
            # wake waited on the socket for ever. A second asker is refused, as a gone server.
            if self._reading:
                raise OSError("the command server is serving another request")
            self._reading = True
        try:
            # The server reads a whole request before it starts the command: only a server
            # that no longer reads (its container frozen) makes this wait, and not for ever.
            self._raw.settimeout(_START_S)
            try:
                self._raw.sendall(request)
            finally:
                self._raw.settimeout(None)
            return pump(self._raw, out, err, deadline=deadline, flood_limit=flood_limit,
                        until=until)  # fmt: skip
        finally:
            with self._closing:
                self._reading = False
                closed = self._closed
            if closed:
                self._release()

    def close(self) -> None:
        """End the server's stream (the server exits at the end of its input). Called from
        another thread while a command runs, it wakes that command's reader, which ends as at
        the end of the stream and closes it."""
        self.alive = False
        with self._closing:
            self._closed = True
            reading = self._reading
        if reading:
            with contextlib.suppress(OSError):
                self._raw.shutdown(socket.SHUT_RDWR)
            return
        self._release()

    def _release(self) -> None:
        with contextlib.suppress(OSError):
            self._hijacked.__exit__(None, None, None)


def serve(
    server: Callable[[], CommandServer],
    forget: Callable[[], None],
    argv: Sequence[str],
    out: CappedText,
    err: CappedText,
    *,
    env: Mapping[str, str] | None,
    stdin: bytes | None,
    deadline: float | Callable[[], float],
    flood_limit: int,
) -> Served:
    """`argv` run by `server()` (see `CommandServer.run`); a server found gone before the
    command began (killed while it idled, as an OOM kill in a check beside it may do: the
    request could not be sent, or its stream ended with nothing of the command on it) is
    forgotten and the command sent once more to a new one. Nothing ran: no verdict is lost.

    Raises:
        OSError: the new server could not be reached either.
    """
    for attempt in range(2):
        try:
            served = server().run(argv, out, err, env=env, stdin=stdin, deadline=deadline,
                                  flood_limit=flood_limit)  # fmt: skip
        except OSError:
            if attempt:
                raise
        else:
            began = served.code is not None or served.ending is not Ending.EOF
            if began or out.total or err.total or attempt:
                return served
        forget()
    raise AssertionError("unreachable")
