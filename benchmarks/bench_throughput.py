"""Bench throughput: jobs per minute and peak memory at --jobs 1, 2 and 4.

Eight identical FizzBuzz jobs (Python) with an instant scripted model, so the figures are
the harness and the sandbox alone. Peak memory is sampled twice a second: the machine's
memory in use (sandboxes included) above what it used before, and this process's peak RSS.
`--runtime runsc` runs the sandboxes under gVisor; `--ray N` runs the jobs as tasks on a
real Ray cluster started here (a head and N nodes offering one `docker` slot each), so
`--jobs-list 2` against `--ray 2` compares local and cluster at the same concurrency.

Usage: python benchmarks/bench_throughput.py [--jobs-list 1,2,4] [--count 8]
           [--runtime runc|runsc] [--ray NODES]
"""

from __future__ import annotations

import argparse
import resource
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tdd_sandbox.bench.pipeline import BenchOptions, run_bench  # noqa: E402
from tdd_sandbox.settings import load_settings  # noqa: E402
from tests.helpers.bench_scripts import kata_answers  # noqa: E402
from tests.helpers.fake_llm import Answer, FakeLLM  # noqa: E402


def used_memory() -> int:
    """Bytes in use on the machine (total minus available)."""
    fields = {}
    for line in Path("/proc/meminfo").read_text().splitlines():
        name, value = line.split(":", 1)
        fields[name] = int(value.split()[0]) * 1024
    return fields["MemTotal"] - fields["MemAvailable"]


def measure(jobs: int, count: int, extra: dict[str, Any]) -> tuple[float, int]:
    """Jobs per minute and the peak extra memory of one bench."""
    baseline = used_memory()
    peak = baseline
    stop = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not stop.wait(0.5):
            peak = max(peak, used_memory())

    sampler = threading.Thread(target=sample, daemon=True)
    tester, implementer, refactorer = kata_answers("fizzbuzz", good=True)

    def tests_or_done(body: dict[str, Any]) -> Answer:
        # Jobs run at once and their requests interleave: answer from what the request shows.
        written = "tests/test_fizzbuzz.py" in body["messages"][1]["content"]
        return tester[1] if written else tester[0]

    responders = {
        "fast-tester": tests_or_done,
        "fast-impl": lambda _: implementer[0],
        "fast-ref": lambda _: refactorer[0],
    }
    with tempfile.TemporaryDirectory() as scratch, FakeLLM({}, responders) as fake:
        katas = Path(scratch) / "katas"
        shutil.copytree(ROOT / "katas" / "fizzbuzz", katas / "fizzbuzz")
        roles = {"tester": "tester", "implementer": "impl", "refactorer": "ref"}
        models = {"fast": {role: f"custom:fast-{short}" for role, short in roles.items()}}
        overrides: dict[str, Any] = {"llm": {"base_url": fake.base_url}, **extra}
        overrides["bench"] = {**extra.get("bench", {}), "models": models}
        settings = load_settings(overrides=overrides)
        options = BenchOptions(
            models=["fast"], katas=[katas], languages=["python"], repeats=count,
            out=Path(scratch) / "out", jobs=jobs,
        )  # fmt: skip
        sampler.start()
        started = time.perf_counter()
        summary = run_bench(options, settings)
        elapsed = time.perf_counter() - started
        stop.set()
        sampler.join()
    assert summary["models"][0]["scored_jobs"] == count, summary
    return count / (elapsed / 60), peak - baseline


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs-list", default="1,2,4")
    parser.add_argument("--count", type=int, default=8)
    parser.add_argument("--runtime", choices=["runc", "runsc"], default="runc")
    parser.add_argument("--ray", type=int, default=0, metavar="NODES")
    args = parser.parse_args()
    extra: dict[str, Any] = {"sandbox": {"runtime": args.runtime}}
    cluster = None
    where = "this machine"
    if args.ray:
        import ray
        from ray.cluster_utils import Cluster

        cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
        for _ in range(args.ray):
            cluster.add_node(num_cpus=1, resources={"docker": 1})
        cluster.wait_for_nodes()
        ray.init(address=cluster.address, log_to_driver=False)
        extra["bench"] = {"executor": "ray", "ray_address": cluster.address}
        where = f"a Ray cluster of {args.ray} nodes"
    print(f"bench throughput: {args.count} FizzBuzz jobs, instant scripted model, "
          f"{args.runtime}, on {where}")  # fmt: skip
    print(f"{'jobs':>5}{'jobs/min':>10}{'peak extra MiB':>16}")
    try:
        for jobs in (int(item) for item in args.jobs_list.split(",")):
            rate, more = measure(jobs, args.count, extra)
            print(f"{jobs:>5}{rate:>10.1f}{more / 1024**2:>16.0f}")
    finally:
        if cluster is not None:
            ray.shutdown()
            cluster.shutdown()  # type: ignore[no-untyped-call]
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"tool process peak RSS: {rss:.0f} MiB")


if __name__ == "__main__":
    main()
