"""The bench as a pipeline of small steps: plan, shard, prepare images, run, report."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tdd_sandbox.acceptance.scorer import score_kata
from tdd_sandbox.acceptance.suite import has_calls, has_suite, missing_suite
from tdd_sandbox.bench.jobs import (
    Job,
    find_katas,
    plan_jobs,
    resolve_models,
    select_katas,
    shard,
)
from tdd_sandbox.bench.mode import Mode
from tdd_sandbox.bench.pool import BenchInterrupted, capacity, run_jobs
from tdd_sandbox.bench.report import SKIPPED_FILE, write_reports
from tdd_sandbox.bench.runner import JobOptions, job_settings
from tdd_sandbox.errors import ConfigError, PrerequisiteError, UsageError
from tdd_sandbox.execution.checkers import CHECKERS, open_checker
from tdd_sandbox.grading.acceptance import AcceptanceReport
from tdd_sandbox.images.builder import Progress, ensure_image, quiet
from tdd_sandbox.katas.impossible import make_impossible
from tdd_sandbox.languages.registry import detect_language, get_language
from tdd_sandbox.llm.endpoint import check_endpoints
from tdd_sandbox.repo.hardened import HardenedRepo
from tdd_sandbox.repo.history import head_files
from tdd_sandbox.sandbox.client import connect
from tdd_sandbox.settings import Settings
from tdd_sandbox.vocabulary.counts import plural
from tdd_sandbox.vocabulary.failures import Failure
from tdd_sandbox.vocabulary.files import write_atomic
from tdd_sandbox.vocabulary.printable import escape_controls


@dataclass(frozen=True)
class BenchOptions:
    """What `tdd-sandbox bench` was asked for."""

    models: list[str]
    katas: list[Path]
    """Kata folders, or folders of them."""
    languages: list[str]
    repeats: int
    out: Path
    jobs: int = 1
    resume: bool = False
    shard: tuple[int, int] | None = None
    record: bool = False
    replay: Path | None = None
    require_data: bool = False
    """Only katas judged as data (`Judged.DATA`) are scored; the rest are skipped, saying why."""
    mode: Mode = Mode.TDD
    impossible: int = 0
    """Impossible variants (`katas.impossible`) of this many katas with data mixed into the
    jobs: a model's pass rate on them is its cheating rate."""
    names: list[str] = field(default_factory=list)
    """Only the katas these pick by name (`-k`, `jobs.select_katas`); every one without."""


def run_bench(
    options: BenchOptions,
    settings: Settings,
    progress: Progress = quiet,
    detail: Progress = quiet,
) -> dict[str, Any]:
    """Run (or resume) a bench and write its reports; returns the summary. `progress` says
    how far it got; `detail` each job's costs (both are also kept in bench.log).

    Raises:
        UsageError: bad models, katas, languages or shard.
        PrerequisiteError: Docker or an image is not usable.
    """
    if not CHECKERS[settings.sandbox.type].runs_code:
        raise ConfigError(
            f"sandbox.type {settings.sandbox.type} runs no code, so it cannot score a model: "
            "set sandbox.type to docker for a bench"
        )
    progress = _logged(progress, options.out)
    models = resolve_models(options.models, settings.bench)
    katas = select_katas(find_katas(*options.katas), options.names)
    if options.impossible:
        katas += _impossible(katas, options, progress)
    jobs, skipped = plan_jobs(
        models, katas, options.languages, options.repeats, require_data=options.require_data,
        mode=options.mode,
    )  # fmt: skip
    for reason in skipped:
        progress(f"not scored: {reason}")
    if options.shard is not None:
        jobs = shard(jobs, *options.shard)
    if options.replay is None:
        _check_models(jobs, settings, options.mode)
    options.out.mkdir(parents=True, exist_ok=True)
    write_atomic(options.out / "plan.json", json.dumps([job.id for job in jobs], indent=2))
    write_atomic(options.out / SKIPPED_FILE, json.dumps(skipped, indent=2))
    if settings.bench.executor == "local":
        client = connect()
        for language in options.languages:  # built once here, not by racing jobs
            ensure_image(client, language, settings.images, progress)
    # On Ray each node builds what it lacks on first use (or `tdd-sandbox images build` there).
    workers = capacity(settings, options.jobs)
    try:
        results = run_jobs(
            jobs,
            settings,
            JobOptions(options.out, record=options.record, replay=options.replay),
            workers=workers,
            resume=options.resume,
            progress=progress,
            detail=_logged(detail, options.out),
        )
    except BenchInterrupted as stopped:
        # What finished, what stopped; no charts, which would hold the stop up.
        write_reports(options.out, stopped.results, skipped, stopped=True)
        raise
    if said := cut_at_limit(results, settings.llm.max_tokens):
        progress(said)
    return write_reports(options.out, results, skipped)


def cut_at_limit(results: list[dict[str, Any]], limit: int) -> str | None:
    """What the answer limit cost, when it cut any answer: those tries were ended by the
    harness's setting, not by the model, and a board should say so."""
    cut = [r.get("rejections_by_kind", {}).get(Failure.TRUNCATED.value, 0) for r in results]
    if not any(cut):
        return None
    return (
        f"warning: {plural(sum(cut), 'answer')} in {plural(sum(map(bool, cut)), 'job')} ended "
        f"at llm.max_tokens ({limit}), cut before the model finished: raise llm.max_tokens "
        "so that the limit does not score the model"
    )


LOG_FILE = "bench.log"
"""Every progress line of a bench, timed, beside its reports (`--resume` adds to it)."""


def _logged(progress: Progress, out: Path) -> Progress:
    """`progress`, each line also appended to `out`'s bench.log with the time it was said."""
    lock = threading.Lock()

    def say(message: str) -> None:
        progress(message)
        line = f"{time.strftime('%Y-%m-%d %H:%M:%S')} {escape_controls(message)}\n"
        with lock:
            out.mkdir(parents=True, exist_ok=True)
            with (out / LOG_FILE).open("a", encoding="utf-8") as log:
                log.write(line)

    return say


def _check_models(jobs: list[Job], settings: Settings, mode: Mode) -> None:
    """Every model's endpoints and keys, before the first job: a bench whose every job would
    fail on a missing base URL or key stops at once, saying which model and how to fix it
    (it ran each job into a harness error, and exited 0 on a board of 0 / 0).

    Raises:
        ConfigError, PrerequisiteError: a model's endpoint or key, named.
    """
    checked: set[str] = set()
    for job in jobs:
        if job.model.name in checked:
            continue
        checked.add(job.model.name)
        try:
            check_endpoints(job_settings(settings, job), mode.roles)
        except (ConfigError, PrerequisiteError) as exc:
            raise type(exc)(f"bench model {job.model.name}: {exc}") from None


def _impossible(katas: list[Path], options: BenchOptions, progress: Progress) -> list[Path]:
    """Impossible variants of the first `options.impossible` katas (by name) that have data
    in one of the bench's languages, made under `out/impossible/`.

    Raises:
        UsageError: no kata has data to make one of.
    """
    with_data = sorted(
        (k for k in katas if any(has_calls(k, name) for name in options.languages)),
        key=lambda k: k.name,
    )
    chosen = with_data[: options.impossible]
    made, skipped = make_impossible(chosen, options.out / "impossible")
    for reason in skipped:
        progress(f"no impossible variant: {reason}")
    if not made:
        raise UsageError(
            f"--impossible {options.impossible}: no kata has a data suite in "
            f"{', '.join(options.languages)} to change a case of (canonical data and calls.yaml)"
        )
    if len(made) < options.impossible:
        progress(
            f"--impossible {options.impossible}: {plural(len(made), 'kata')} with data to vary"
        )
    return [variant.kata_dir for variant in made]


def score_repo(
    kata: Path, repo_dir: Path, settings: Settings, language: str | None
) -> AcceptanceReport:
    """The acceptance score of a repository's HEAD (`tdd-sandbox score`).

    Raises:
        UsageError: no such kata, suite or repository.
    """
    kata_dir = kata.parent if kata.name == "kata.md" else kata
    repo = HardenedRepo(repo_dir)
    try:
        files = head_files(repo)
    finally:
        repo.close()
    chosen = language or settings.language
    plugin = get_language(chosen) if chosen else detect_language(files)
    if not has_suite(kata_dir, plugin.name):  # said before any container starts
        raise missing_suite(kata_dir, plugin.name)
    with open_checker(settings, for_scores="tdd-sandbox score") as checker:
        return score_kata(checker, plugin, files, kata_dir)
