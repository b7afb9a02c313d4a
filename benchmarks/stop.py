"""How soon a signal stops a run, wherever it is blocked (issue 27's target: 2 s).

For each place a run can be blocked in (a model request, a gate, a race of three implementers
two of which hang in their test gate) and each signal (SIGINT, SIGTERM, SIGHUP): a real
`tdd-sandbox run` against a scripted endpoint on a real socket, real Docker, the signal sent
once the run is blocked there; the seconds from the signal to the process's end, its exit code
and the containers it left. Measure on a quiet machine: the figure is the code's only then.

Usage: python benchmarks/stop.py [--repeats 3] [--places model,gate,race]
"""

from __future__ import annotations

import argparse
import signal
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tdd_sandbox.sandbox.client import connect  # noqa: E402
from tests.helpers.stops import PLACES, stop_blocked_run  # noqa: E402

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
TARGET_S = 2.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--places", default=",".join(PLACES))
    args = parser.parse_args()
    client = connect()
    print(f"{'place':<6} {'signal':<8} {'min s':>6} {'median s':>9} {'max s':>6}  exit, left")
    for place in args.places.split(","):
        for signum in SIGNALS:
            taken, ends = [], set()
            for _ in range(args.repeats):
                with tempfile.TemporaryDirectory() as scratch:
                    code, took, left, _ = stop_blocked_run(
                        place, signum, Path(scratch) / "kata", client
                    )
                taken.append(took)
                ends.add(f"{code}, {len(left)}")
            name = signal.Signals(signum).name
            print(f"{place:<6} {name:<8} {min(taken):>6.2f} {statistics.median(taken):>9.2f} "
                  f"{max(taken):>6.2f}  {' / '.join(sorted(ends))}")  # fmt: skip
    print(f"target: every median at most {TARGET_S} s, exit 130, 0 containers left")


if __name__ == "__main__":
    main()
