"""A result is reused or merged only beside results of the same settings and kata: a board
never mixes answers cut at 1,024 tokens with answers given 2,048."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tdd_sandbox import __version__
from tdd_sandbox.bench.conditions import check_mergeable, conditions, describe, harness
from tdd_sandbox.bench.jobs import Job, ModelEntry
from tdd_sandbox.bench.mode import Mode
from tdd_sandbox.bench.pool import run_jobs
from tdd_sandbox.bench.report import merge, read_results, write_reports
from tdd_sandbox.bench.runner import JobOptions
from tdd_sandbox.errors import UsageError
from tdd_sandbox.settings import Settings, load_settings
from tests.bench.test_report import _result

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


def test_a_result_recorded_by_another_harness_is_reused_and_says_so(tmp_path: Path) -> None:
    # A fix landed between sittings may resume a board; the board then says which harness
    # judged which jobs (`summary.harness_lines`).
    job = _job(tmp_path)
    earlier = {**conditions(job, _settings(1024)), "harness": "tdd-sandbox 0.0.9 at 0123abcd"}
    recorded = _finished(tmp_path / "out", job, conditions=earlier)
    said: list[str] = []
    assert _resume(job, _settings(1024), tmp_path / "out", said) == [recorded]
    assert conditions(job, _settings(1024))["harness"] == harness()


def test_a_harness_edited_under_a_running_bench_is_said_as_it_judged(tmp_path: Path) -> None:
    # Found on the reach board: the Python driver was edited while a bench ran from the
    # same checkout; its later jobs were judged by the edit and recorded the start's commit.
    package = tmp_path / "tdd_sandbox"
    package.mkdir()
    driver = package / "driver.py"
    driver.write_text("OLD = 1\n")
    head = _commit(tmp_path)
    assert harness(package).endswith(f"at {head}")
    driver.write_text("NEW = 2\n")
    os.utime(driver, ns=(time.time_ns() + 10**9, time.time_ns() + 10**9))
    assert harness(package).endswith(f"at {head} with changes")


def _commit(repo: Path) -> str:
    for args in (["init", "-q"], ["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@t",
                                                 "commit", "-qm", "x"]):  # fmt: skip
        subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)
    return subprocess.run(["git", "-C", str(repo), "rev-parse", "--short=12", "HEAD"],
                          check=True, capture_output=True, text=True).stdout.strip()  # fmt: skip


def test_the_harness_is_its_checkouts_commit_and_no_other_repositorys(tmp_path: Path) -> None:
    version = f"tdd-sandbox {__version__}"
    package = tmp_path / "alone" / "tdd_sandbox"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("x = 1\n")
    assert describe(package) == version  # installed, no repository
    head = _commit(package.parent)
    assert describe(package) == f"{version} at {head}"
    (package / "__init__.py").write_text("x = 2\n")
    assert describe(package) == f"{version} at {head} with changes"
    # Installed into a virtual environment inside a user's project: not the project's commit.
    installed = tmp_path / "project" / ".venv" / "lib" / "site-packages" / "tdd_sandbox"
    installed.mkdir(parents=True)
    (installed / "__init__.py").write_text("x = 1\n")
    _commit(tmp_path / "project")
    assert describe(installed) == version


def test_a_board_says_which_harness_judged_its_jobs(tmp_path: Path) -> None:
    job = _job(tmp_path)
    judged = {**conditions(job, _settings(1024)), "harness": "tdd-sandbox 0.1.0 at aa08afa6e3f1"}
    one = [{**_result("small", "fizzbuzz", 1, 0.5), "conditions": judged}]
    assert write_reports(tmp_path / "one", one)["harness"] == [
        "tdd-sandbox 0.1.0 at aa08afa6e3f1 (every job)"
    ]
    later = {**judged, "harness": "tdd-sandbox 0.1.0 at a92e71300000"}
    mixed = [*one, {**_result("small", "leap", 1, 0.5), "conditions": later},
             _result("small", "bob", 1, 0.5)]  # fmt: skip
    said = write_reports(tmp_path / "mixed", mixed)["harness"]
    assert said == [
        "harness not recorded: 1 jobs",
        "tdd-sandbox 0.1.0 at a92e71300000: 1 jobs",
        "tdd-sandbox 0.1.0 at aa08afa6e3f1: 1 jobs",
    ]
    board = (tmp_path / "mixed" / "leaderboard.md").read_text()
    assert "## Harness\n\n- harness not recorded: 1 jobs\n" in board
    assert (
        "Harness: tdd-sandbox 0.1.0 at a92e71300000: 1 jobs."
        in (tmp_path / "mixed" / "report.html").read_text()
    )
