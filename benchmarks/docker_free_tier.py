"""The Docker-free test tier's time, as CI runs it, and where it goes.

Runs the tier as `scripts/test.sh` does (parallel workers, no engine reachable) `--repeats`
times and prints the wall time of each and their median against the 30 s target; then, from
one more run with `--durations=0`, the time collection took (its own run), the sum of every
test's time (setup, call, teardown: what the workers share), and the slowest tests and test
modules. Measure on a quiet machine: a model or a Docker test beside it doubles everything.

Usage: python benchmarks/docker_free_tier.py [--repeats 3] [--top 15] [--workers auto]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_S = 30.0
TIER = ["-m", "not docker and not real_model", "-p", "no:cacheprovider", "-q"]
ENV = {**os.environ, "DOCKER_HOST": "unix:///nonexistent/docker.sock"}
_DURATION = re.compile(r"^(\d+\.\d+)s (setup|call|teardown)\s+(\S+)$", re.MULTILINE)


def pytest(*args: str) -> tuple[float, str]:
    """Seconds `python -m pytest` took with `args` over the tier, and what it printed."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", *TIER, *args],
        cwd=ROOT, env=ENV, capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        sys.exit(f"the tier failed (exit {done.returncode}):\n{done.stdout[-2000:]}")
    return time.perf_counter() - started, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--workers", default="auto", help="pytest-xdist's -n (CI: auto)")
    args = parser.parse_args()
    walls = [pytest("-n", args.workers)[0] for _ in range(args.repeats)]
    print("wall:", ", ".join(f"{wall:.1f} s" for wall in walls))
    median = statistics.median(walls)
    print(f"median {median:.1f} s against a target of {TARGET_S:.0f} s")
    collected, _ = pytest("--collect-only")
    print(f"collection alone, one process: {collected:.1f} s")
    _, out = pytest("-n", args.workers, "--durations=0", "--durations-min=0")
    per_test: dict[str, float] = defaultdict(float)
    for seconds, _phase, test in _DURATION.findall(out):
        per_test[test] += float(seconds)
    total = sum(per_test.values())
    print(f"tests: {len(per_test)}, {total:.1f} s of them between the workers")
    per_module: dict[str, float] = defaultdict(float)
    for test, seconds in per_test.items():
        per_module[test.split("::")[0]] += seconds
    for title, table in (("tests", per_test), ("modules", per_module)):
        print(f"slowest {title}:")
        for name, seconds in sorted(table.items(), key=lambda kv: -kv[1])[: args.top]:
            print(f"  {seconds:6.2f} s  {name}")


if __name__ == "__main__":
    main()
