from __future__ import annotations

import socket
import struct
import threading
import time

from tdd_sandbox.sandbox.client import Attached
from tdd_sandbox.sandbox.stream import CappedText, Ending, pump


def test_capped_text_keeps_head_and_tail_with_marker() -> None:
    buffer = CappedText(10)
    buffer.add(b"0123456789abcdefghij")
    assert buffer.truncated
    text = buffer.text()
    assert text.startswith("01234")
    assert text.endswith("fghij")
    assert "10 bytes of output cut" in text


def test_capped_text_under_limit_is_untouched() -> None:
    buffer = CappedText(100)
    for chunk in (b"hello ", b"world"):
        buffer.add(chunk)
    assert not buffer.truncated
    assert buffer.text() == "hello world"


def test_capped_text_many_small_chunks() -> None:
    buffer = CappedText(8)
    for index in range(1000):
        buffer.add(str(index % 10).encode())
    assert buffer.total == 1000
    assert buffer.kept == 8
    assert buffer.text().endswith("6789")


def _frame(kind: int, data: bytes) -> bytes:
    return struct.pack(">BxxxL", kind, len(data)) + data


def test_pump_demultiplexes_until_eof() -> None:
    left, right = socket.socketpair()
    right.sendall(_frame(1, b"out") + _frame(2, b"err") + _frame(1, b"put"))
    right.close()
    out, err = CappedText(100), CappedText(100)
    ending = pump(Attached(left), out, err, deadline=time.monotonic() + 5, flood_limit=1000)
    assert ending is Ending.EOF
    assert (out.text(), err.text()) == ("output", "err")


def test_pump_stops_at_deadline() -> None:
    left, right = socket.socketpair()
    started = time.monotonic()
    ending = pump(
        Attached(left), CappedText(10), CappedText(10), deadline=started + 0.2, flood_limit=1000
    )
    assert ending is Ending.TIMEOUT
    assert time.monotonic() - started < 2
    right.close()


def test_pump_stops_a_flood() -> None:
    left, right = socket.socketpair()
    stop = threading.Event()

    def flood() -> None:
        while not stop.is_set():
            try:
                right.sendall(_frame(1, b"y" * 4096))
            except OSError:
                return

    writer = threading.Thread(target=flood)
    writer.start()
    out = CappedText(100)
    ending = pump(
        Attached(left), out, CappedText(100), deadline=time.monotonic() + 10, flood_limit=100_000
    )
    stop.set()
    left.close()
    writer.join()
    right.close()
    assert ending is Ending.FLOOD
    assert out.truncated


def test_capped_text_reads_and_trims_its_end_across_chunks_and_the_cut() -> None:
    text = CappedText(8)
    for chunk in (b"ab", b"cd", b"ef", b"gh", b"ij"):
        text.add(chunk)
    assert text.tail(3) == b"hij"
    assert text.endswith(b"ij")
    assert not text.endswith(b"xj")
    text.trim(3)
    assert text.total == 7
    assert text.tail(1) == b"g"
    assert text.text().endswith("g")
    small = CappedText(100)
    small.add(b"hello\n@@k end\n")
    small.trim(len(b"\n@@k end\n"))
    assert small.text() == "hello"
    assert not small.truncated
