"""A result is reused or merged only beside results of the same settings and kata: a board
never mixes answers cut at 1,024 tokens with answers given 2,048."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tdd_sandbox.bench.conditions import check_mergeable, conditions
from tdd_sandbox.bench.jobs import Job, ModelEntry
from tdd_sandbox.bench.mode import Mode
from tdd_sandbox.bench.pool import run_jobs
from tdd_sandbox.bench.report import merge, read_results
from tdd_sandbox.bench.runner import JobOptions
from tdd_sandbox.errors import UsageError
from tdd_sandbox.settings import Settings, load_settings

KATAS = Path(__file__).resolve().parents[2] / "katas"
MODEL = ModelEntry(
    "small", tuple((role, "custom:small") for role in ("tester", "implementer", "refactorer"))
)


def _settings(max_tokens: int) -> Settings:
    return load_settings(overrides={"llm": {"max_tokens": max_tokens}})


def _job(tmp_path: Path) -> Job:
    kata = tmp_path / "katas" / "fizzbuzz"
    if not kata.is_dir():
        shutil.copytree(KATAS / "fizzbuzz", kata)
    return Job(MODEL, kata, "python", 1, Mode.IMPLEMENT)


def _finished(out: Path, job: Job, **recorded: Any) -> dict[str, Any]:
    """A finished job's record, as `run_job` leaves it in `--out`."""
    result = {"id": job.id, "model": job.model.name, "kata": job.kata.name, "language": "python",
              "repeat": 1, "mode": "implement", "status": "completed",
              "acceptance_pass_rate": 0.25, **recorded}  # fmt: skip
    folder = out / "jobs" / job.id
    folder.mkdir(parents=True)
    (folder / "result.json").write_text(json.dumps(result))
    return result


def _resume(job: Job, settings: Settings, out: Path, said: list[str]) -> list[dict[str, Any]]:
    options = JobOptions(out=out)
    return run_jobs([job], settings, options, workers=1, resume=True, progress=said.append)


def test_resume_reuses_a_job_finished_under_the_same_settings(tmp_path: Path) -> None:
    job = _job(tmp_path)
    recorded = _finished(tmp_path / "out", job, conditions=conditions(job, _settings(1024)))
    said: list[str] = []
    assert _resume(job, _settings(1024), tmp_path / "out", said) == [recorded]
    assert said[0].startswith("0 jobs to run, 1 reused")


def test_resume_refuses_a_job_finished_under_another_token_limit(tmp_path: Path) -> None:
    job = _job(tmp_path)
    _finished(tmp_path / "out", job, conditions=conditions(job, _settings(1024)))
    with pytest.raises(UsageError) as raised:
        _resume(job, _settings(2048), tmp_path / "out", [])
    said = str(raised.value)
    assert "llm.max_tokens 1024 -> 2048" in said
    assert "another --out" in said
    assert "\n" not in said
    # Nothing lost: the finished job is still there for the bench that ran it.
    assert (tmp_path / "out" / "jobs" / job.id / "result.json").is_file()


def test_resume_refuses_a_job_whose_kata_changed_since(tmp_path: Path) -> None:
    job = _job(tmp_path)
    _finished(tmp_path / "out", job, conditions=conditions(job, _settings(1024)))
    (job.kata / "kata.md").write_text("FizzBuzz, but to 50.\n")
    with pytest.raises(UsageError, match="the kata fizzbuzz changed"):
        _resume(job, _settings(1024), tmp_path / "out", [])


def test_resume_refuses_a_job_recorded_without_its_settings(tmp_path: Path) -> None:
    job = _job(tmp_path)
    _finished(tmp_path / "out", job)  # as versions before this one recorded it
    with pytest.raises(UsageError, match="recorded no settings"):
        _resume(job, _settings(1024), tmp_path / "out", [])


def test_where_and_how_a_model_is_reached_are_not_conditions(tmp_path: Path) -> None:
    job = _job(tmp_path)
    here = load_settings(overrides={"llm": {"base_url": "http://127.0.0.1:8088/v1"}})
    there = load_settings(
        overrides={"llm": {"base_url": "http://127.0.0.1:9000/v1", "timeout_s": 900}}
    )
    assert conditions(job, here) == conditions(job, there)


def _board(folder: Path, job: Job, settings: Settings) -> None:
    row = {"id": job.id, "model": job.model.name, "kata": job.kata.name, "language": "python",
           "repeat": 1, "mode": "implement", "status": "completed", "acceptance_pass_rate": 0.5,
           "conditions": conditions(job, settings)}  # fmt: skip
    folder.mkdir(parents=True)
    (folder / "results.jsonl").write_text(json.dumps(row) + "\n")


def test_merge_refuses_one_model_run_under_two_settings(tmp_path: Path) -> None:
    job = _job(tmp_path)
    _board(tmp_path / "python", job, _settings(1024))
    other = Job(MODEL, job.kata, "go", 1, Mode.IMPLEMENT)
    _board(tmp_path / "go", other, _settings(2048))
    with pytest.raises(UsageError, match=r"small ran under other settings .*llm\.max_tokens"):
        merge([tmp_path / "python", tmp_path / "go"], tmp_path / "merged")
    assert not (tmp_path / "merged").exists()
    # The same settings in both: merged (the check alone, without drawing the reports).
    _board(tmp_path / "go-again", other, _settings(1024))
    check_mergeable([*read_results(tmp_path / "python"), *read_results(tmp_path / "go-again")])
