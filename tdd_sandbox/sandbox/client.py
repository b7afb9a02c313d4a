"""The Docker engine's client: connecting, the errors it raises, and the raw sockets of the
streams it attaches (a command's, or a container's main process's)."""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Iterator
from typing import Any

import docker
import docker.errors
import requests.exceptions

from tdd_sandbox.errors import PrerequisiteError
from tdd_sandbox.sandbox.stream import CappedText, Ending, pump

ENGINE_ERRORS = (docker.errors.DockerException, requests.exceptions.RequestException, OSError)


def connect(timeout_s: float = 30.0) -> docker.DockerClient:
    """A client for the engine named by `DOCKER_HOST` (or the local socket), checked with a ping.

    Raises:
        PrerequisiteError: no engine answers; the message says how to start one.
    """
    try:
        client = docker.from_env(timeout=int(timeout_s))
        client.ping()
    except ENGINE_ERRORS as exc:
        raise PrerequisiteError(
            f"Docker is not reachable ({short_error(exc)}): start the engine with `dockerd &` "
            "(or `systemctl start docker`), or point DOCKER_HOST at a running one"
        ) from None
    return client


def timed_out(exc: BaseException) -> bool:
    """Whether an engine call failed for the client's patience alone, not the engine's answer."""
    return isinstance(exc, requests.exceptions.Timeout)


def short_error(exc: BaseException) -> str:
    """The first line of an engine error, cut short for a one-line message."""
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:200]


def feed(raw: Any, data: bytes, *, deadline: float) -> None:
    """`data` to a command's standard input, then end of file. A command that stops reading
    is not waited for past its deadline: it is judged on what it did."""
    raw.settimeout(max(deadline - time.monotonic(), 0.001))
    try:
        raw.sendall(data)
        raw.shutdown(socket.SHUT_WR)
    except OSError:
        pass
    finally:
        raw.settimeout(None)


def _raw_socket(sock: Any) -> Any:
    # docker-py hands back a SocketIO wrapper for the hijacked connection; select() and
    # shutdown() need the socket inside it.
    return getattr(sock, "_sock", sock)


class Attached:
    """An attached stream's connection: its socket, and the bytes of the stream that the HTTP
    client had already read with the engine's answer.

    The client reads the `101 UPGRADED` answer through a buffer, which takes whatever else
    has come in the same read: on a loaded machine, the command's first output. Read from the
    socket beneath alone, those bytes were lost (a command server's ready line, the start of
    a frame). `recv` hands them out first; `buffered` says some are waiting, which `select`
    on the socket cannot see.
    """

    def __init__(self, sock: Any, early: bytes = b"") -> None:
        self.sock = sock
        self._early = early

    def buffered(self) -> bool:
        """Whether `recv` has bytes without reading the socket."""
        return bool(self._early)

    def recv(self, size: int) -> bytes:
        """Up to `size` bytes: those read with the answer first, then the socket's."""
        if self._early:
            chunk, self._early = self._early[:size], self._early[size:]
            return chunk
        data: bytes = self.sock.recv(size)
        return data

    def fileno(self) -> int:
        """The socket's descriptor (for `select`)."""
        number: int = self.sock.fileno()
        return number

    def sendall(self, data: bytes) -> None:
        """Write all of `data` (the command's stdin)."""
        self.sock.sendall(data)

    def shutdown(self, how: int) -> None:
        """Shut the socket down (`socket.SHUT_WR` ends the command's stdin)."""
        self.sock.shutdown(how)

    def settimeout(self, timeout: float | None) -> None:
        """The socket's timeout for `sendall` (None: blocking)."""
        self.sock.settimeout(timeout)


def _early(sock: Any, raw: Any) -> bytes:
    """What the response's buffer holds past the engine's answer, taken without waiting: one
    read at most, of what the buffer holds (at most its size) or else of what has come."""
    response = getattr(sock, "_response", None)
    buffer = getattr(getattr(getattr(response, "raw", None), "_fp", None), "fp", None)
    if buffer is None or not hasattr(buffer, "read1"):
        return b""
    timeout = raw.gettimeout()
    raw.setblocking(False)
    try:
        return bytes(buffer.read1(65536) or b"")
    except OSError:
        return b""
    finally:
        raw.settimeout(timeout)


@contextlib.contextmanager
def hijacked(sock: Any) -> Iterator[Attached]:
    """The connection of an attached exec or container (see `Attached`), shut down for good
    on exit.

    Closing only docker-py's wrapper can hand the still-attached connection back to the
    HTTP pool, where the next request would read the old command's output and hang.
    """
    raw = _raw_socket(sock)
    try:
        yield Attached(raw, _early(sock, raw))
    finally:
        with contextlib.suppress(OSError):
            raw.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(OSError):
            raw.close()
        with contextlib.suppress(OSError):
            sock.close()


def finished(api: Any, exec_id: str, *, within_s: float) -> int | None:
    """Start an exec that prints little and give its exit status; None when it has not ended
    within `within_s` (the caller stops it by other means: it runs on meanwhile)."""
    with hijacked(api.exec_start(exec_id, socket=True)) as raw:
        out, err = CappedText(4096), CappedText(4096)
        ending = pump(raw, out, err, deadline=time.monotonic() + within_s, flood_limit=1 << 16)
    return wait_exit(api, exec_id) if ending is Ending.EOF else None


def wait_exit(api: Any, exec_id: str, grace_s: float = 5.0) -> int | None:
    """An exec's exit status once its stream has ended (None if it has none `grace_s` on)."""
    deadline = time.monotonic() + grace_s
    while True:
        info = api.exec_inspect(exec_id)
        if not info["Running"] or time.monotonic() > deadline:
            code = info["ExitCode"]
            return int(code) if code is not None else None
        time.sleep(0.002)  # the stream has ended: the exit is a moment away at most
