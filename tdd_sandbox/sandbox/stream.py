"""Reading a command's output from the engine: capped, with a deadline and a flood stop.

Docker multiplexes stdout and stderr on one connection as frames with an 8-byte header
(stream id, three zero bytes, big-endian length). Reading it ourselves, with `select` and a
deadline, lets the caller stop a command that runs too long or prints without end.
"""

from __future__ import annotations

import enum
import select
import struct
import time
from collections import deque
from collections.abc import Callable
from typing import Protocol

_HEADER = struct.Struct(">BxxxL")
STDOUT, STDERR = 1, 2


class CappedText:
    """Keeps the head and the tail of a byte stream; the middle is cut with a marker."""

    def __init__(self, limit: int) -> None:
        self._head_limit = limit // 2
        self._tail_limit = limit - self._head_limit
        self._head = bytearray()
        self._tail: deque[bytes] = deque()
        self._tail_size = 0
        self.total = 0

    def add(self, data: bytes) -> None:
        """Append a chunk."""
        self.total += len(data)
        room = self._head_limit - len(self._head)
        if room > 0:
            self._head += data[:room]
            data = data[room:]
        if not data:
            return
        self._tail.append(data)
        self._tail_size += len(data)
        while self._tail_size - len(self._tail[0]) >= self._tail_limit:
            self._tail_size -= len(self._tail.popleft())

    def tail(self, size: int) -> bytes:
        """The last `size` bytes kept (fewer when fewer are), without joining the rest."""
        parts: list[bytes] = []
        got = 0
        for chunk in reversed(self._tail):
            parts.append(chunk)
            got += len(chunk)
            if got >= size:
                break
        data = b"".join(reversed(parts))
        if got < size:
            data = bytes(self._head) + data
        return data[-size:] if size else b""

    def endswith(self, suffix: bytes) -> bool:
        """Whether the stream so far ends with `suffix`."""
        return self.tail(len(suffix)) == suffix

    def trim(self, size: int) -> None:
        """Take the last `size` bytes off (a server's end line, which is not the command's)."""
        size = min(size, self.total)
        self.total -= size
        while size and self._tail:
            last = self._tail.pop()
            self._tail_size -= len(last)
            if len(last) > size:
                self._tail.append(last[:-size])
                self._tail_size += len(last) - size
                size = 0
            else:
                size -= len(last)
        if size:
            del self._head[-size:]

    @property
    def kept(self) -> int:
        """How many bytes `text` keeps."""
        return len(self._head) + min(self._tail_size, self._tail_limit)

    @property
    def truncated(self) -> bool:
        """Whether anything was cut."""
        return self.total > self.kept

    def text(self) -> str:
        """The kept output, decoded leniently, with a marker where the middle was cut."""
        tail = b"".join(self._tail)[-self._tail_limit :] if self._tail_limit else b""
        head = bytes(self._head).decode("utf-8", "replace")
        if not self.truncated:
            return head + tail.decode("utf-8", "replace")
        marker = f"\n[... {self.total - self.kept} bytes of output cut by tdd-sandbox ...]\n"
        return head + marker + tail.decode("utf-8", "replace")


class Ending(enum.Enum):
    """Why reading stopped."""

    EOF = "eof"
    TIMEOUT = "timeout"
    FLOOD = "flood"


class _Socket(Protocol):
    def recv(self, size: int, /) -> bytes: ...
    def fileno(self) -> int: ...
    def buffered(self) -> bool: ...


def pump(
    sock: _Socket,
    stdout: CappedText,
    stderr: CappedText,
    *,
    deadline: float | Callable[[], float],
    flood_limit: int,
    until: Callable[[], bool] | None = None,
) -> Ending:
    """Demultiplex frames from `sock` into the two buffers until EOF, the deadline (a time, or
    a function asked again as output comes) or a flood; or, for a stream that stays open,
    until `until()` says its writer is done (as EOF)."""
    pending = bytearray()
    while True:
        remaining = (deadline() if callable(deadline) else deadline) - time.monotonic()
        if remaining <= 0:
            return Ending.TIMEOUT
        if not sock.buffered() and not select.select([sock], [], [], remaining)[0]:
            return Ending.TIMEOUT
        try:
            chunk = sock.recv(65536)
        except (TimeoutError, ConnectionResetError):
            chunk = b""
        if not chunk:
            return Ending.EOF
        pending += chunk
        while len(pending) >= _HEADER.size:
            kind, size = _HEADER.unpack_from(pending)
            if len(pending) < _HEADER.size + size:
                break
            payload = bytes(pending[_HEADER.size : _HEADER.size + size])
            del pending[: _HEADER.size + size]
            (stderr if kind == STDERR else stdout).add(payload)
        if stdout.total + stderr.total > flood_limit:
            return Ending.FLOOD
        if until is not None and until():
            return Ending.EOF
