"""The published real-model leaderboard stays true of the code: re-running some of its jobs
from their recorded transcripts (no model at all) gives the results it publishes. A change to
the harness that alters them needs `python benchmarks/real_leaderboard.py` again."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tdd_sandbox.bench.pipeline import BenchOptions, run_bench
from tdd_sandbox.settings import load_settings

pytestmark = [pytest.mark.docker, pytest.mark.usefixtures("images")]
ROOT = Path(__file__).resolve().parents[2]
PUBLISHED = ROOT / "benchmarks" / "results" / "real-models"
STABLE = ("status", "acceptance_pass_rate", "cycles", "green_commits", "rejections_by_kind")


def _rows(folder: Path) -> dict[str, dict[str, Any]]:
    rows = [json.loads(line) for line in (folder / "results.jsonl").read_text().splitlines()]
    return {row["id"]: row for row in rows}


def test_published_jobs_replay_to_the_published_results(tmp_path: Path) -> None:
    published = _rows(PUBLISHED)
    models = sorted({row["model"] for row in published.values()})
    assert len(models) == 6  # two models, three edit formats
    assert {row["kata"] for row in published.values()} >= {"fizzbuzz", "string-calculator"}
    repeats = max(int(row["repeat"]) for row in published.values())
    assert len(published) == len(models) * 2 * repeats
    settings = load_settings(ROOT / "benchmarks" / "real-models.yaml")
    # The first repeat of each model on fizzbuzz: enough to catch a drift, quick enough for CI.
    options = BenchOptions(
        models=models, katas=[ROOT / "katas" / "fizzbuzz"], languages=["python"], repeats=1,
        out=tmp_path / "replayed", replay=PUBLISHED,
    )  # fmt: skip
    run_bench(options, settings)
    replayed = _rows(tmp_path / "replayed")
    assert len(replayed) == len(models)
    for job_id, row in replayed.items():
        expected = published[job_id]
        assert {k: row.get(k) for k in STABLE} == {k: expected.get(k) for k in STABLE}, job_id
