"""Bench jobs on a Ray cluster (`bench.executor: ray`).

Each job is one Ray task that needs one `docker` resource, so it is placed on a node whose
`ray start` offered one (a node with a Docker engine). The task gets everything the job
reads (the kata's files, a recorded transcript to replay) as bytes, since a node need not
share this machine's disk; it runs the job as a local bench would, in a folder of its own,
and hands back the job's result with its folder (repository, journal, transcript) as one
uncompressed tar, which is unpacked here into `--out/jobs/<id>/`. Only a finished task's
result is ever written: a job lost with its node is run again elsewhere by Ray
(`bench.ray_retries`), then recorded as lost to infrastructure, never scored.
"""

from __future__ import annotations

import contextlib
import io
import shutil
import tarfile
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from tdd_sandbox.bench.jobs import Job
from tdd_sandbox.bench.runner import INFRASTRUCTURE, INTERRUPTED, JobOptions, lost_result, run_job
from tdd_sandbox.errors import PrerequisiteError
from tdd_sandbox.settings import Settings
from tdd_sandbox.vocabulary.cancel import CancelToken
from tdd_sandbox.vocabulary.counts import plural

DOCKER_RESOURCE = "docker"
"""The custom resource a node offers per job it can run (`ray start --resources`)."""
_STOP_GRACE_S = 20.0
"""How long stopped tasks get to end as interrupted (and remove their containers) before
they are killed."""
_WATCH_S = 0.2
"""How often a task asks whether the bench was stopped."""

Shipped = tuple[dict[str, Any], bytes]
"""What a task hands back: the job's result and its folder as a tar."""


def run_on_ray(
    todo: list[Job],
    settings: Settings,
    out: Path,
    *,
    record: bool,
    replay: Path | None,
    stopped: Callable[[], bool],
    progress: Callable[[str], None],
) -> tuple[list[dict[str, Any]], bool]:
    """Run `todo` on the cluster at `bench.ray_address`; returns the results that came back
    (their folders unpacked under `out/jobs/`) and whether the bench was stopped.

    Raises:
        PrerequisiteError: Ray is not installed, or no cluster answers at the address.
    """
    ray = _connect(settings.bench.ray_address)
    task = ray.remote(_run_shipped).options(
        resources={DOCKER_RESOURCE: 1},
        num_cpus=0,  # a job waits on models and containers: the docker resource paces it
        max_retries=settings.bench.ray_retries,
        retry_exceptions=False,  # a job records its own failures; only lost workers rerun
    )
    # On the driver's own node: alive as long as the bench is, whichever nodes go.
    here = ray.util.scheduling_strategies.NodeAffinitySchedulingStrategy(
        ray.get_runtime_context().get_node_id(), soft=True
    )
    flag = (
        ray.remote(StopFlag)
        .options(num_cpus=0, scheduling_strategy=here, max_restarts=-1, max_task_retries=-1)
        .remote()
    )
    # Each kata and the settings go to the object store once, not once per job that uses them.
    katas = {kata: ray.put(_pack_kata(kata)) for kata in {job.kata for job in todo}}
    shared = ray.put(settings)
    refs = {
        task.remote(job, katas[job.kata], _transcript(replay, job), shared, record, flag): job
        for job in todo
    }
    pending = list(refs)
    results: list[dict[str, Any]] = []
    started = time.monotonic()
    progress(
        f"{plural(len(todo), 'job')} submitted to the Ray cluster at {settings.bench.ray_address}"
    )

    def collect(ready: list[Any]) -> None:
        for ref in ready:
            job = refs[ref]
            try:
                result, archive = ray.get(ref)
            except ray.exceptions.TaskCancelledError:
                result = lost_result(job, INTERRUPTED, "the bench was interrupted")
            except ray.exceptions.RayError as exc:
                reason = f"lost on the Ray cluster: {type(exc).__name__}: {exc}"
                result = lost_result(job, INFRASTRUCTURE, reason)
            else:
                _unpack(archive, out / "jobs" / job.id)
            results.append(result)
            progress(f"{job.id}: {result['status']} ({time.monotonic() - started:.0f}s)")

    was_stopped = False
    try:
        while pending:
            if stopped():
                was_stopped = True
                break
            ready, pending = ray.wait(pending, num_returns=1, timeout=0.2)
            collect(ready)
    except KeyboardInterrupt:
        was_stopped = True
    if was_stopped and pending:
        progress(f"interrupted: {len(pending)} jobs on the cluster stop now")
        try:
            ray.get(flag.set.remote(), timeout=_STOP_GRACE_S)  # each task cancels its token
        except ray.exceptions.RayError as exc:
            progress(f"could not reach the jobs' stop flag ({type(exc).__name__}): cancelling")
            for ref in pending:  # no flag to set: interrupt the tasks themselves
                ray.cancel(ref)
        ready, left = ray.wait(pending, num_returns=len(pending), timeout=_STOP_GRACE_S)
        collect(ready)
        for ref in left:
            ray.cancel(ref, force=True)
        collect(left)
    return results, was_stopped


def _connect(address: str) -> Any:
    try:
        import ray as module  # 2 s to load: only a bench on Ray pays it
    except ImportError:
        raise PrerequisiteError(
            "bench.executor is ray but Ray is not installed: pip install 'tdd-sandbox[ray]'"
        ) from None
    ray: Any = module  # Ray's own annotations are partial
    if not ray.is_initialized():
        try:
            ray.init(address=address, log_to_driver=False, logging_level="warning")
        except (ConnectionError, RuntimeError) as exc:
            raise PrerequisiteError(
                f"no Ray cluster answers at {address} ({str(exc).splitlines()[0][:200]}): start "
                "one with `ray start --head --resources '{\"docker\": 2}'`, or set "
                "bench.ray_address"
            ) from None
    if not ray.cluster_resources().get(DOCKER_RESOURCE):
        raise PrerequisiteError(
            f"the Ray cluster at {address} has no node offering a {DOCKER_RESOURCE} resource: "
            "start each node that has a Docker engine with "
            "`ray start ... --resources '{\"docker\": 2}'`"
        )
    return ray


def _pack_kata(kata: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(kata)): path.read_bytes()
        for path in sorted(kata.rglob("*"))
        if path.is_file() and not path.is_symlink()
    }


def _transcript(replay: Path | None, job: Job) -> bytes | None:
    if replay is None:
        return None
    path = replay / "jobs" / job.id / "transcript.jsonl"
    return path.read_bytes() if path.is_file() else None


class StopFlag:
    """Set by the driver when the bench is stopped; every task watches it (a Ray actor)."""

    def __init__(self) -> None:
        self._set = False

    def set(self) -> None:
        """Stop every job."""
        self._set = True

    def is_set(self) -> bool:
        """Whether the bench was stopped."""
        return self._set


def _watch(flag: Any, stop: CancelToken, finished: threading.Event) -> None:
    """Cancel `stop` once the driver sets `flag`: the job then ends as a stopped local job
    does, within a second or two, its containers removed. A flag that cannot answer (its
    node went; Ray restarts it) stops nothing: a driver that is gone has its tasks ended by
    Ray, and one that stops while the flag is away cancels the tasks itself."""
    import ray

    while not finished.wait(_WATCH_S):
        try:
            if ray.get(flag.is_set.remote(), timeout=10):
                stop.cancel()
                return
        except ray.exceptions.RayError:
            continue


def _run_shipped(
    job: Job,
    kata: dict[str, bytes],
    transcript: bytes | None,
    settings: Settings,
    record: bool,
    flag: Any,
) -> Shipped:
    """On a node: the job in a scratch folder, as a local bench runs it; its result and its
    folder come back, and the scratch folder goes."""
    _sweep_lost_jobs()
    scratch = Path(tempfile.mkdtemp(prefix="tdd-ray-job-"))
    stop, finished = CancelToken(), threading.Event()
    watcher = threading.Thread(target=_watch, args=(flag, stop, finished), daemon=True)
    watcher.start()
    try:
        kata_dir = scratch / "katas" / job.kata.name
        for relative, data in kata.items():
            (kata_dir / relative).parent.mkdir(parents=True, exist_ok=True)
            (kata_dir / relative).write_bytes(data)
        replay = None
        if transcript is not None:
            replay = scratch / "replay"
            (replay / "jobs" / job.id).mkdir(parents=True)
            (replay / "jobs" / job.id / "transcript.jsonl").write_bytes(transcript)
        options = JobOptions(scratch / "out", record=record, replay=replay, stop=stop)
        result = run_job(replace(job, kata=kata_dir), settings, options)
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w") as tar:
            tar.add(scratch / "out" / "jobs" / job.id, arcname=".")
        return result, buffer.getvalue()
    finally:
        finished.set()
        shutil.rmtree(scratch, ignore_errors=True)


def _sweep_lost_jobs() -> None:
    """Remove this node's containers whose owner is gone: a job killed with its worker (the
    node lost, the worker OOM-killed) could not remove its own; a live one's are kept."""
    from tdd_sandbox.errors import TddSandboxError
    from tdd_sandbox.sandbox.client import connect
    from tdd_sandbox.sandbox.leftovers import collect_containers
    from tdd_sandbox.vocabulary.cleanup import GcReport

    # No engine here: the job itself will say so.
    with contextlib.suppress(TddSandboxError), contextlib.closing(connect()) as client:
        collect_containers(client, GcReport(dry_run=False), older_than_s=None)


def _unpack(archive: bytes, into: Path) -> None:
    """A job's folder from its node, in place of whatever an earlier try left. The `data`
    filter refuses absolute paths, `..` and links that leave the folder."""
    shutil.rmtree(into, ignore_errors=True)
    into.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(archive), mode="r:") as tar:
        tar.extractall(into, filter="data")
