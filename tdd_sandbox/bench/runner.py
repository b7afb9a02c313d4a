"""Running one bench job in its own repo, and scoring it; `bench.pool` runs many.

A job lost to infrastructure (Docker, an endpoint down or rate-limited past its retries, a
missing transcript) is recorded as `infrastructure`, never as a model failure, and is run
again by `--resume`; a harness bug in one job is recorded as `harness_error` and never stops
the others.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tdd_sandbox.acceptance.scorer import score_kata
from tdd_sandbox.acceptance.suite import case_names, has_reference
from tdd_sandbox.bench.conditions import conditions
from tdd_sandbox.bench.implement import implement_kata
from tdd_sandbox.bench.jobs import Job, model_settings
from tdd_sandbox.bench.metrics import run_metrics
from tdd_sandbox.bench.mode import Mode
from tdd_sandbox.bench.mutation import kill_mutants
from tdd_sandbox.bench.tester_mode import score_tests
from tdd_sandbox.engine.session import run_kata
from tdd_sandbox.errors import ImageBuildError, PrerequisiteError, SandboxUnavailable
from tdd_sandbox.execution.checkers import open_checker
from tdd_sandbox.katas.impossible import impossible_case
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.llm.chat import InfrastructureError
from tdd_sandbox.repo.hardened import HardenedRepo
from tdd_sandbox.repo.history import head_files
from tdd_sandbox.repo.scaffolding import starting_files
from tdd_sandbox.settings import Settings
from tdd_sandbox.vocabulary.cancel import Cancelled, CancelToken
from tdd_sandbox.vocabulary.files import write_atomic

INFRASTRUCTURE = "infrastructure"
HARNESS_ERROR = "harness_error"
INTERRUPTED = "interrupted"
RERUN = frozenset({INFRASTRUCTURE, HARNESS_ERROR, INTERRUPTED})
INFRA_ERRORS = (InfrastructureError, SandboxUnavailable, PrerequisiteError, ImageBuildError)


@dataclass(frozen=True)
class JobOptions:
    """How every job of a bench runs."""

    out: Path
    record: bool = False
    replay: Path | None = None
    """A previous bench's output folder whose per-job transcripts answer instead of models."""
    stop: CancelToken = field(default_factory=CancelToken)
    """Cancelled on Ctrl-C (or SIGTERM, SIGHUP): running jobs end at once, whatever they
    wait on, and none starts."""


def job_settings(settings: Settings, job: Job) -> Settings:
    """The run settings of one job: its models, its language, its repeat's seed."""
    seeded = {} if settings.bench.seed is None else {"seed": settings.bench.seed + job.repeat - 1}
    return model_settings(settings, job.model, **seeded).model_copy(
        update={"language": job.language}
    )


def run_job(job: Job, settings: Settings, options: JobOptions) -> dict[str, Any]:
    """Run, score and record one job; never raises for what happens inside it."""
    job_dir = options.out / "jobs" / job.id
    repo = job_dir / "repo"
    shutil.rmtree(repo, ignore_errors=True)  # a previous, unfinished try starts over
    job_dir.mkdir(parents=True, exist_ok=True)
    base = {**_identity(job), "conditions": conditions(job, settings)}
    result: dict[str, Any]
    try:
        result = {**base, **_run_and_score(job, job_settings(settings, job), options, job_dir)}
    except INFRA_ERRORS as exc:
        result = {**base, "status": INFRASTRUCTURE, "reason": str(exc)[:500]}
    except (KeyboardInterrupt, Cancelled):
        result = {**base, "status": INTERRUPTED}
    except Exception as exc:  # noqa: BLE001 - one job's bug must not end the bench
        result = {**base, "status": HARNESS_ERROR, "reason": f"{type(exc).__name__}: {exc}"[:500]}
    if options.stop.cancelled and result["status"] in RERUN:
        # Ctrl-C reached the job's git and model calls too: however it failed, it was stopped.
        result = {**base, "status": INTERRUPTED}
    if result["status"] == INTERRUPTED:
        result["reason"] = _STOPPED
    result.setdefault("acceptance_pass_rate", None)
    write_atomic(job_dir / "result.json", json.dumps(result, indent=2, sort_keys=True))
    return result


_STOPPED = "the bench was interrupted: --resume runs this job again"


def _identity(job: Job) -> dict[str, Any]:
    return {
        "id": job.id, "model": job.model.name, "models": dict(job.model.roles),
        "edit_format": job.model.edit_format or "auto",
        "kata": job.kata.name, "language": job.language, "repeat": job.repeat,
        "mode": job.mode.value, "impossible": impossible_case(job.kata) is not None,
    }  # fmt: skip


def lost_result(job: Job, status: str, reason: str) -> dict[str, Any]:
    """The record of a job that never finished where it ran (`INFRASTRUCTURE`,
    `INTERRUPTED`): `--resume` runs it again, and it is never scored."""
    said = _STOPPED if status == INTERRUPTED else reason[:500]
    return {**_identity(job), "status": status, "reason": said, "acceptance_pass_rate": None}


def _run_and_score(
    job: Job, settings: Settings, options: JobOptions, job_dir: Path
) -> dict[str, Any]:
    replay = None
    if options.replay is not None:
        replay = options.replay / "jobs" / job.id / "transcript.jsonl"
        if not replay.is_file():
            raise InfrastructureError(f"no recorded transcript for {job.id} in {options.replay}")
    record = job_dir / "transcript.jsonl" if options.record else None
    if job.mode is Mode.TEST:
        return score_tests(
            job.kata, job.language, settings, run_id=f"{job.id}-test", record=record,
            replay=replay, stop=options.stop,
        )  # fmt: skip
    if job.mode is Mode.IMPLEMENT:
        return implement_kata(
            job.kata, job.language, settings, run_id=f"{job.id}-implement", record=record,
            replay=replay, stop=options.stop, keep=job_dir / "code",
        )  # fmt: skip
    summary = run_kata(
        job.kata / "kata.md", settings, repo_dir=job_dir / "repo", record=record, replay=replay,
        stop=options.stop,
    )  # fmt: skip
    if summary.status == INTERRUPTED:
        raise KeyboardInterrupt  # stopped between phases: nothing to score
    if summary.status == "error":
        raise InfrastructureError(summary.reason)
    summary_doc = summary.to_json()
    metrics = run_metrics(job_dir / "repo" / ".tdd" / "runs" / summary.run_id, summary_doc)
    language = get_language(job.language)
    repo = HardenedRepo(job_dir / "repo")
    try:
        files = head_files(repo)
    finally:
        repo.close()
    mutation: dict[str, Any] = {}
    with open_checker(
        settings, for_scores="the bench", run_id=f"{summary.run_id}-score"
    ) as checker:
        score = score_kata(checker, language, files, job.kata)
        if has_reference(job.kata, job.language):
            # The tester's final suite, measured as test mode measures one: what it catches.
            start = starting_files(language, job.kata)
            tests = {
                p: d for p, d in files.items()
                if language.is_test_path(p) and start.get(p, "").encode() != d
            }  # fmt: skip
            mutation = kill_mutants(checker, language, job.kata, tests)
    return {
        **mutation,
        "status": summary.status,
        "reason": summary.reason,
        "acceptance_pass_rate": round(score.rate, 4),
        "judged": score.judged.value,
        "acceptance": {
            "passed": score.passed,
            "total": score.total,
            "why": score.why(case_names(job.kata, job.language)),
            "probed": score.probed,
        },
        **metrics,
    }
