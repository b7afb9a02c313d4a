"""An attached stream's first bytes, when they come in the same read as the engine's answer.

The engine answers an exec's start (and a container's attach) with `101 UPGRADED`, then the
command's output on the same connection. The HTTP client reads that answer through a buffer,
and a read of the headers takes whatever else has come: on a loaded machine, where the
client reads late, that was the command's first output. Read from the socket beneath, it was
never seen: a command server's ready line was lost, and the server "did not start" after
30 s of silence (CI, `katas import`). The engine here is a real HTTP server on a Unix socket
that writes its answer and the first frame in one send, as a late reader finds them.
"""

from __future__ import annotations

import json
import socket
import struct
import threading
import time
from pathlib import Path

import docker

from tdd_sandbox.sandbox.client import hijacked
from tdd_sandbox.sandbox.stream import CappedText, Ending, pump

_UPGRADED = (
    b"HTTP/1.1 101 UPGRADED\r\nContent-Type: application/vnd.docker.multiplexed-stream\r\n"
    b"Connection: Upgrade\r\nUpgrade: tcp\r\n\r\n"
)


def _frame(kind: int, data: bytes) -> bytes:
    return struct.pack(">BxxxL", kind, len(data)) + data


class _Engine:
    """Answers an exec's creation, and its start (or a container's attach) with the upgrade
    and `first` in one send; then `rest`, once the client has sent `size` bytes of stdin."""

    def __init__(self, path: Path, first: bytes, rest: bytes = b"", size: int = 0) -> None:
        self.first, self.rest, self.size = first, rest, size
        self.stdin = bytearray()
        self._listener = socket.socket(socket.AF_UNIX)
        self._listener.bind(str(path))
        self._listener.listen()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self._listener.accept()
            except OSError:
                return
            threading.Thread(target=self._answer, args=(conn,), daemon=True).start()

    def _answer(self, conn: socket.socket) -> None:
        data = b""
        with conn:
            while True:
                while b"\r\n\r\n" not in data:
                    chunk = conn.recv(65536)
                    if not chunk:
                        return
                    data += chunk
                head, _, data = data.partition(b"\r\n\r\n")
                lines = head.decode().split("\r\n")
                length = next(
                    (int(v) for k, _, v in (line.partition(": ") for line in lines[1:])
                     if k.lower() == "content-length"), 0,
                )  # fmt: skip
                while len(data) < length:
                    data += conn.recv(65536)
                data = data[length:]
                target = lines[0].split(" ")[1].split("?")[0]
                if target.endswith("/exec"):
                    body = json.dumps({"Id": "e" * 64}).encode()
                    conn.sendall(b"HTTP/1.1 201 Created\r\nContent-Type: application/json\r\n"
                                 b"Content-Length: %d\r\n\r\n%b" % (len(body), body))  # fmt: skip
                    continue
                conn.sendall(_UPGRADED + self.first)
                self.stdin += data
                while len(self.stdin) < self.size:
                    chunk = conn.recv(65536)
                    if not chunk:
                        return
                    self.stdin += chunk
                conn.sendall(self.rest)
                time.sleep(0.5)
                return

    def close(self) -> None:
        self._listener.close()


def _api(path: Path) -> docker.APIClient:
    return docker.APIClient(base_url=f"unix://{path}", version="1.41", timeout=10)


def test_output_that_came_with_the_engines_answer_is_read_first(tmp_path: Path) -> None:
    engine_path = tmp_path / "engine.sock"
    engine = _Engine(engine_path, _frame(2, b"ready\n") + _frame(1, b"out"))
    try:
        api = _api(engine_path)
        exec_id = api.exec_create("c", ["true"], stdin=True)["Id"]
        out, err = CappedText(100), CappedText(100)
        with hijacked(api.exec_start(exec_id, socket=True)) as raw:
            ending = pump(raw, out, err, deadline=time.monotonic() + 5, flood_limit=1000)
    finally:
        engine.close()
    assert ending is Ending.EOF
    assert (err.text(), out.text()) == ("ready\n", "out")


def test_a_frame_split_across_the_answer_and_the_stream_is_whole(tmp_path: Path) -> None:
    engine_path = tmp_path / "engine.sock"
    # The buffer can end anywhere: the rest of a frame comes after the client has written.
    frame = _frame(1, b"0123456789")
    engine = _Engine(engine_path, frame[:11], rest=frame[11:] + _frame(2, b"end\n"), size=3)
    try:
        api = _api(engine_path)
        sock = api.attach_socket("c", params={"stdin": 1, "stdout": 1, "stream": 1})
        out, err = CappedText(100), CappedText(100)
        with hijacked(sock) as raw:
            raw.sendall(b"tar")
            ending = pump(raw, out, err, deadline=time.monotonic() + 5, flood_limit=1000,
                          until=lambda: err.text() == "end\n")  # fmt: skip
    finally:
        engine.close()
    assert ending is Ending.EOF
    assert bytes(engine.stdin) == b"tar"
    assert out.text() == "0123456789"
