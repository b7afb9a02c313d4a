"""The machine's CPU time, for benchmarks that report what work costs beside how long it took.

Busy time is read off /proc/stat for the whole machine, so it counts every process a step
sets going: the tool, the container engine, the runtime and the containers' own processes.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")


def busy_and_stolen() -> tuple[float, float]:
    """Seconds of CPU the machine has been busy (user, nice, system, irq, softirq) and
    seconds the hypervisor gave to other guests (steal), since boot, over all cores."""
    with Path("/proc/stat").open() as stat:
        fields = [int(x) for x in stat.readline().split()[1:]]
    # user nice system idle iowait irq softirq steal: idle, iowait and steal are not busy.
    return (sum(fields[:3]) + fields[5] + fields[6]) / TICK, fields[7] / TICK


class CpuMeter:
    """Samples `busy_and_stolen` every 20 ms with the wall clock (`time.time`, as the
    journal's timestamps), so that a span of a run can be read off it afterwards."""

    def __init__(self) -> None:
        self.samples: list[tuple[float, float, float]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self) -> CpuMeter:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _sample(self) -> None:
        while True:
            self.samples.append((time.time(), *busy_and_stolen()))
            if self._stop.wait(0.02):
                return

    def between(self, start: float, end: float) -> tuple[float, float]:
        """Busy and stolen CPU seconds between two wall-clock times."""
        inside = [s for s in self.samples if start <= s[0] <= end]
        if len(inside) < 2:
            return 0.0, 0.0
        return inside[-1][1] - inside[0][1], inside[-1][2] - inside[0][2]
