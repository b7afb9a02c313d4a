"""The CPU meter the benchmarks print a cycle's CPU cost with (`benchmarks/cpu.py`)."""

from __future__ import annotations

import time

from benchmarks.cpu import CpuMeter, busy_and_stolen


def test_busy_time_only_grows() -> None:
    first = busy_and_stolen()
    second = busy_and_stolen()
    assert second[0] >= first[0] >= 0
    assert second[1] >= first[1] >= 0


def test_a_span_holds_the_cpu_spent_in_it() -> None:
    with CpuMeter() as meter:
        time.sleep(0.1)
        start = time.time()
        spent = time.process_time()
        while time.process_time() - spent < 0.3:  # this process alone keeps a core busy
            pass
        end = time.time()
        time.sleep(0.1)
    busy, _ = meter.between(start, end)
    # The machine's busy time over the span holds at least what this process used, give or
    # take the 20 ms samples at either end and a clock tick.
    assert busy >= 0.3 - 0.1
    assert meter.between(end + 100, end + 200) == (0.0, 0.0)  # no samples: nothing read off
