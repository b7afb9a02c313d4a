"""Loop overhead: harness time per full red-green-refactor cycle with an instant model.

A scripted model on a local socket answers at once (the FizzBuzz script: four cycles, one
refactoring), so everything measured is the harness: prompts, edit checks, sandboxes,
gates, git. Prints, per language, the seconds per cycle, the gate seconds within it, and
prompt tokens per cycle against a context that sends every file of the repository.
Start-up (images, the scaffold, the first gate run on HEAD) is reported apart.

`1st s` is the first cycle and `later s` the median of the others: the first meets each
warm container's first check, before its warm interpreter (`sandbox/zygote.py`) is started,
and the later ones are what each more cycle of a longer run costs. `run s` is the whole run
as its user waits for it, start-up included.

`cpu s` is the machine's busy CPU time per cycle (all processes: the harness, the engine,
the containers; from /proc/stat), and `floor` that time over the cores: no scheduling of the
same work can make a cycle shorter than its floor on this machine. `steal` is the share of
the cycles' wall time the hypervisor gave to other guests. `boxes` and `execs` are the
containers and the commands' execs the engine was asked for per cycle: each costs a runtime
process (`benchmarks/container_start.py` prints their CPU cost).

Each language is measured once per `sandbox.isolation` (`container`: a container per check;
`namespace`: a warm container, each command in fresh namespaces), one after the other in the
same run. The `fake` row runs the same Python cycles on the fake checker (no container, no
gate run): the harness's own share of a cycle, apart from Docker.

Usage: python benchmarks/loop_overhead.py [--repeats 3] [--only fake]
    [--isolation container namespace]
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from docker.api.client import APIClient  # noqa: E402

from benchmarks.cpu import CpuMeter  # noqa: E402
from tdd_sandbox.agents import context  # noqa: E402
from tdd_sandbox.engine.session import run_kata  # noqa: E402
from tests.helpers.fake_llm import FakeLLM  # noqa: E402
from tests.helpers.katas import fake_fizzbuzz_script, fizzbuzz_script  # noqa: E402
from tests.helpers.runs import KATAS, scripted_settings  # noqa: E402

ROWS = ("python", "rust", "fake")


def one_run(row: str, *, every_file: bool, isolation: str = "container") -> dict[str, float]:
    """One scripted run's figures per cycle: seconds, gate seconds, prompt tokens, busy CPU
    seconds, the share of time stolen, containers and execs; and its start-up seconds."""
    language = "python" if row == "fake" else row
    script = fake_fizzbuzz_script() if row == "fake" else fizzbuzz_script(language)
    with FakeLLM(script) as fake, tempfile.TemporaryDirectory() as scratch:
        overrides: dict[str, Any] = (
            {"llm": {"base_url": fake.base_url, "context_chars": 10**9}} if every_file else {}
        )
        overrides["sandbox"] = {"type": "fake"} if row == "fake" else {"isolation": isolation}
        settings = scripted_settings(fake.base_url, language, **overrides)
        # The counterfactual: no file is left out of the prompt and nothing is cut.
        hidden = frozenset() if every_file else context._NOT_CONTEXT
        with mock.patch.object(context, "_NOT_CONTEXT", hidden):
            started = time.perf_counter()
            kata = KATAS / "fizzbuzz" / "kata.md"
            with CpuMeter() as meter, engine_calls() as calls:
                summary = run_kata(kata, settings, repo_dir=Path(scratch) / "k")
            wall = time.perf_counter() - started
        assert summary.status == "completed", summary.reason
        log = Path(summary.repo) / ".tdd" / "runs" / summary.run_id / "log.jsonl"
        events = [json.loads(line) for line in log.read_text().splitlines()]
        first_cycle = next(e["ts"] for e in events if e["event"] == "cycle")
        end = events[-1]["ts"]
        in_cycles = [e for e in events if e["event"] == "gates" and e["ts"] >= first_cycle]
        cycles = summary.cycles
        # The first cycle meets each warm container's first check (no warm interpreter yet:
        # `docker_provider`); the later ones are what a longer run costs per cycle.
        starts = [e["ts"] for e in events if e["event"] == "cycle" and e["ts"] >= first_cycle]
        spans = [b - a for a, b in itertools.pairwise([*starts, end])][:cycles]
        busy, stolen = meter.between(first_cycle, end)
        span = (first_cycle, end)
        return {
            "start_s": wall - (end - first_cycle),
            "cycle_s": (end - first_cycle) / cycles,
            "first_s": spans[0],
            "later_s": statistics.median(spans[1:]) if len(spans) > 1 else spans[0],
            "run_s": wall,
            "gates_s": sum(e["seconds"] for e in in_cycles) / cycles,
            "prompt_tokens": summary.tokens["prompt"] / cycles,
            "cpu_s": busy / cycles,
            "steal": stolen / (end - first_cycle) / (os.cpu_count() or 1),
            "containers": sum(span[0] <= t <= span[1] for t in calls["create_container"]) / cycles,
            "execs": sum(span[0] <= t <= span[1] for t in calls["exec_create"]) / cycles,
        }


@contextlib.contextmanager
def engine_calls() -> Iterator[dict[str, list[float]]]:
    """When the engine was asked to create a container or an exec (each costs a runtime
    process: `benchmarks/container_start.py` prints what one costs in CPU)."""
    calls: dict[str, list[float]] = {"create_container": [], "exec_create": []}
    patches = []
    for name, times in calls.items():
        original = getattr(APIClient, name)

        def counted(*args: Any, _original: Any = original, _times: list[float] = times,
                    **kwargs: Any) -> Any:  # fmt: skip
            _times.append(time.time())
            return _original(*args, **kwargs)

        patches.append(mock.patch.object(APIClient, name, counted))
    with contextlib.ExitStack() as stack:
        for patch in patches:
            stack.enter_context(patch)
        yield calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", choices=ROWS, help="measure one row")
    parser.add_argument(
        "--isolation", nargs="+", choices=("container", "namespace"),
        default=["container", "namespace"], help="the designs to measure, in this order",
    )  # fmt: skip
    args = parser.parse_args()
    print(f"loop overhead, instant scripted model, median of {args.repeats} runs")
    print(
        f"{'kata':<20}{'start s':>9}{'s/cycle':>9}{'1st s':>7}{'later s':>9}{'run s':>7}"
        f"{'gates s':>9}"
        f"{'tokens':>8}{'all-files':>11}{'ratio':>7}{'cpu s':>7}{'floor':>7}{'steal':>7}"
        f"{'boxes':>7}{'execs':>7}"
    )
    cores = os.cpu_count() or 1
    rows = [
        (language, isolation)
        for language in ([args.only] if args.only else ROWS)
        for isolation in (["-"] if language == "fake" else args.isolation)
    ]
    full: dict[str, float] = {}
    for language, isolation in rows:
        runs = [
            one_run(language, every_file=False, isolation=isolation) for _ in range(args.repeats)
        ]
        if isolation in ("-", args.isolation[0]):  # what a prompt holds: not the sandbox's
            full = one_run(language, every_file=True, isolation=isolation)
        start = statistics.median(r["start_s"] for r in runs)
        cycle = statistics.median(r["cycle_s"] for r in runs)
        first, later, whole = (statistics.median(r[k] for r in runs)
                               for k in ("first_s", "later_s", "run_s"))  # fmt: skip
        gates = statistics.median(r["gates_s"] for r in runs)
        tokens = statistics.median(r["prompt_tokens"] for r in runs)
        ratio = tokens / full["prompt_tokens"]
        cpu = statistics.median(r["cpu_s"] for r in runs)
        steal = statistics.median(r["steal"] for r in runs)
        box = statistics.median(r["containers"] for r in runs)
        execs = statistics.median(r["execs"] for r in runs)
        print(
            f"{language + ' ' + isolation:<20}{start:>9.2f}{cycle:>9.2f}{first:>7.2f}{later:>9.2f}"
            f"{whole:>7.2f}{gates:>9.2f}{tokens:>8.0f}"
            f"{full['prompt_tokens']:>11.0f}{ratio:>7.2f}{cpu:>7.2f}{cpu / cores:>7.2f}"
            f"{steal:>7.0%}{box:>7.1f}{execs:>7.1f}"
        )


if __name__ == "__main__":
    main()
