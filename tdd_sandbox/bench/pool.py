"""Where bench jobs run: a pool of threads on this machine, up to what it holds, or tasks on
a Ray cluster (`bench.cluster`); each job itself is `bench.runner`'s."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tdd_sandbox.bench.cluster import run_on_ray
from tdd_sandbox.bench.conditions import check_reused, conditions
from tdd_sandbox.bench.jobs import Job
from tdd_sandbox.bench.runner import RERUN, JobOptions, run_job
from tdd_sandbox.settings import Settings, parse_memory
from tdd_sandbox.vocabulary.cancel import result_of
from tdd_sandbox.vocabulary.counts import plural
from tdd_sandbox.vocabulary.files import write_atomic


class BenchInterrupted(KeyboardInterrupt):
    """The bench was stopped; `results` holds the jobs that finished or were stopped."""

    def __init__(self, results: list[dict[str, Any]]) -> None:
        super().__init__()
        self.results = results


def capacity(settings: Settings, requested: int) -> int:
    """Jobs the machine holds at once: memory for every container a job may run (racing
    attempts, the warm pool, the scorer) and two jobs per core, whichever is smaller."""
    per_container = parse_memory(settings.sandbox.memory)
    containers = max(settings.parallel, settings.parallel_refactor) + settings.sandbox.warm + 1
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    by_memory = int(total * 0.75) // (per_container * containers)
    by_cpu = 2 * (os.cpu_count() or 1)
    return max(1, min(requested, by_memory, by_cpu))


class Tally:
    """How far a bench has got, said on each finished job's line: how many of all, how many
    lost or broken, the mean acceptance so far, the time taken and the time left at this
    pace (a bench of many jobs was minutes of silence between lines that said none of it)."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.done = 0
        self.unscored = 0
        self.scores: list[float] = []
        self.started = time.monotonic()
        self._lock = threading.Lock()

    def elapsed(self) -> str:
        """The time since the first job started."""
        return clock(time.monotonic() - self.started)

    def add(self, result: dict[str, Any]) -> str:
        """Count a finished job; its line."""
        with self._lock:
            self.done += 1
            rate = result.get("acceptance_pass_rate")
            if result["status"] in RERUN or rate is None:
                self.unscored += 1
            else:
                self.scores.append(float(rate))
            taken = time.monotonic() - self.started
            left = taken / self.done * (self.total - self.done)
            mean = "-" if not self.scores else f"{sum(self.scores) / len(self.scores):.0%}"
            shown = "-" if rate is None else f"{rate:.0%}"
            return (
                f"[{self.done}/{self.total}] {result['id']}: {result['status']} (acceptance "
                f"{shown}); {self.unscored} not scored, mean {mean} so far, "
                f"{clock(taken)} taken, about {clock(left)} left"
            )


def costs(result: dict[str, Any]) -> str:
    """What a finished job cost and why it scored as it did, for `-v`."""
    tokens = result.get("tokens") or {}
    said = sum(int(v) for v in tokens.values() if isinstance(v, int | float))
    parts = [
        f"{result.get('tries', 0)} tries",
        f"{said} tokens",
        f"model {result.get('model_time_s', 0):.0f}s",
        f"gates {result.get('gate_time_s', 0):.0f}s",
        f"wall {result.get('wall_time_s', 0):.0f}s",
        f"tamper {result.get('tamper_events', 0)}",
    ]
    reason = str(result.get("reason") or "")
    return ", ".join(parts) + (f"; {reason}" if reason else "")


def clock(seconds: float) -> str:
    """A duration as a person reads it: 42s, 3m05s, 1h02m."""
    whole = int(seconds)
    if whole < 60:
        return f"{whole}s"
    if whole < 3600:
        return f"{whole // 60}m{whole % 60:02d}s"
    return f"{whole // 3600}h{whole % 3600 // 60:02d}m"


def run_jobs(
    jobs: list[Job],
    settings: Settings,
    options: JobOptions,
    *,
    workers: int,
    resume: bool,
    progress: Callable[[str], None],
    detail: Callable[[str], None] = lambda _: None,
) -> list[dict[str, Any]]:
    """Every job, `workers` at a time; finished ones are reused when resuming. `progress`
    gets a line per job started and finished, `detail` what each finished one cost."""
    results: dict[str, dict[str, Any]] = {}
    todo = []
    for job in jobs:
        done = options.out / "jobs" / job.id / "result.json"
        if resume and done.is_file():
            previous: dict[str, Any] = json.loads(done.read_text(encoding="utf-8"))
            if previous.get("status") not in RERUN:
                check_reused(job, previous, conditions(job, settings), options.out)
                results[job.id] = previous
                continue
        todo.append(job)
    if settings.bench.executor == "ray":
        progress(f"{plural(len(todo), 'job')} to run, {len(results)} reused")
        return _run_on_ray(jobs, todo, results, settings, options, progress)
    progress(f"{plural(len(todo), 'job')} to run, {len(results)} reused, {workers} at a time")
    tally = Tally(len(todo))

    def one(job: Job) -> dict[str, Any] | None:
        if options.stop.cancelled:  # a job queued before the stop never starts
            return None
        progress(f"{job.id}: started ({tally.elapsed()})")
        result = run_job(job, settings, options)
        progress(tally.add(result))
        detail(costs(result))
        return result

    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="tdd-bench")
    futures = [pool.submit(one, job) for job in todo]
    try:
        for future in futures:
            if (result := result_of(future)) is not None:
                results[result["id"]] = result
    except KeyboardInterrupt:
        options.stop.cancel()
        running = sum(future.running() for future in futures)
        progress(f"interrupted: {running} running jobs stop now; none starts")
        pool.shutdown(wait=True, cancel_futures=True)
        for future in futures:
            if not future.cancelled() and (result := future.result()) is not None:
                results[result["id"]] = result
        raise BenchInterrupted([results[job.id] for job in jobs if job.id in results]) from None
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return [results[job.id] for job in jobs]


def _run_on_ray(
    jobs: list[Job],
    todo: list[Job],
    results: dict[str, dict[str, Any]],
    settings: Settings,
    options: JobOptions,
    progress: Callable[[str], None],
) -> list[dict[str, Any]]:
    """`todo` on the Ray cluster (`bench/cluster.py`); each result is also written to
    `result.json`, as a local job writes its own, so that `--resume` reads it back."""
    finished, stopped = run_on_ray(
        todo, settings, options.out, record=options.record, replay=options.replay,
        stopped=lambda: options.stop.cancelled, progress=progress,
    )  # fmt: skip
    for result in finished:
        job_dir = options.out / "jobs" / result["id"]
        job_dir.mkdir(parents=True, exist_ok=True)
        write_atomic(job_dir / "result.json", json.dumps(result, indent=2, sort_keys=True))
        results[result["id"]] = result
    ordered = [results[job.id] for job in jobs if job.id in results]
    if stopped:
        raise BenchInterrupted(ordered)
    return ordered
