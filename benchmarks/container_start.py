"""Container start under each OCI runtime: a hardened sandbox container created and started
(as the warm pool does), and the same with the snapshot shipped and a first command run (what
a gate waits for when no warm container is ready). Median of N, each runtime in turn.

Usage: python benchmarks/container_start.py [--runs 10] [--runtimes runc,runsc]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tdd_sandbox.images.builder import ensure_image
from tdd_sandbox.sandbox.client import connect
from tdd_sandbox.sandbox.docker_provider import DockerSandboxProvider
from tdd_sandbox.sandbox.snapshot import Snapshot
from tdd_sandbox.settings import ImageSettings, SandboxSettings

SNAPSHOT = Snapshot({"kata.py": b"x = 1\n", "tests/test_kata.py": b"def test_x(): pass\n"})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--runtimes", default="runc,runsc")
    args = parser.parse_args()
    client = connect()
    image = ensure_image(client, "python", ImageSettings())
    runtimes = args.runtimes.split(",")
    started: dict[str, list[float]] = {name: [] for name in runtimes}
    first: dict[str, list[float]] = {name: [] for name in runtimes}
    providers = {
        name: DockerSandboxProvider(
            SandboxSettings(runtime=name, warm=0), run_id="bench-start", client=client
        )
        for name in runtimes
    }
    try:
        for _ in range(args.runs):
            for name, provider in providers.items():  # in turn: load weighs on both alike
                clock = time.perf_counter()
                container = provider.take_container(image)
                started[name].append(time.perf_counter() - clock)
                provider.destroy(container)
                clock = time.perf_counter()
                with provider.open(image, SNAPSHOT) as box:
                    assert box.exec(["true"]).exit_code == 0
                first[name].append(time.perf_counter() - clock)
    finally:
        for provider in providers.values():
            provider.close()
    print(f"container start, python image, median of {args.runs}")
    print(f"{'runtime':<8}{'start s':>9}{'+ snapshot + first exec s':>27}")
    for name in runtimes:
        print(
            f"{name:<8}{statistics.median(started[name]):>9.2f}"
            f"{statistics.median(first[name]):>27.2f}"
        )


if __name__ == "__main__":
    main()
