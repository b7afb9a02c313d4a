"""A bench end to end: scripted models on a real socket, real repos, the real sandbox."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tdd_sandbox.bench.pipeline import BenchOptions, run_bench
from tdd_sandbox.bench.report import merge
from tdd_sandbox.errors import UsageError
from tdd_sandbox.languages.registry import LANGUAGES as REGISTERED
from tdd_sandbox.sandbox.client import connect
from tdd_sandbox.sandbox.versions import read_versions
from tdd_sandbox.settings import load_settings
from tests.helpers.bench_scripts import bench_script
from tests.helpers.fake_llm import Answer, FakeLLM, done, no_change, plan
from tests.helpers.katas import STEPS
from tests.helpers.solutions import SOLUTIONS

pytestmark = [pytest.mark.docker, pytest.mark.usefixtures("images")]
KATAS = Path(__file__).resolve().parents[2] / "katas"
NAMES = ["fizzbuzz", "roman-numerals"]
"""Two katas, two repeats: each figure across katas and across repeats, at a third less of CI's
time than three katas (a job is a whole run in the sandbox, and each is replayed)."""
VOLATILE = {"wall_time_s", "model_time_s", "gate_time_s", "tokens", "reason"}


def _models(*prefixes: str) -> dict[str, dict[str, str]]:
    return {
        p: {
            "tester": f"custom:{p}-tester",
            "implementer": f"custom:{p}-impl",
            "refactorer": f"custom:{p}-ref",
        }
        for p in prefixes
    }


def _stable(path: Path) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in (path / "results.jsonl").read_text().splitlines()]
    return [{k: v for k, v in row.items() if k not in VOLATILE} for row in rows]


def test_bench_ranks_models_resumes_replays_and_merges_shards(tmp_path: Path) -> None:
    katas = tmp_path / "katas"
    for name in NAMES:
        shutil.copytree(KATAS / name, katas / name)
    script = {
        **bench_script("good", NAMES, 2, good=True),
        **bench_script("bad", NAMES, 2, good=False),
        **{f"down-{r}": [Answer(status=503)] * 50 for r in ("tester", "impl", "ref")},
    }
    out = tmp_path / "out"
    with FakeLLM(script) as fake:
        settings = load_settings(
            overrides={
                "llm": {"base_url": fake.base_url, "max_retries": 1},
                "bench": {"models": _models("good", "bad", "down")},
            }
        )
        options = BenchOptions(
            models=["good", "bad", "down"], katas=[katas], languages=["python"], repeats=2,
            out=out, jobs=1, record=True,
        )  # fmt: skip
        summary = run_bench(options, settings)
        asked = len(fake.requests)
        # Resume: every finished job is reused; only the infrastructure losses run again.
        run_bench(BenchOptions(**{**options.__dict__, "resume": True}), settings)
        rerun = [r for r in fake.requests[asked:] if not str(r["model"]).startswith("down")]
        assert rerun == []
        # Resumed under a longer token limit: refused before a job runs; nothing is lost.
        longer = settings.model_copy(
            update={"llm": settings.llm.model_copy(update={"max_tokens": 2048})}
        )
        asked = len(fake.requests)
        with pytest.raises(UsageError, match=r"llm\.max_tokens 4096 -> 2048"):
            run_bench(BenchOptions(**{**options.__dict__, "resume": True}), longer)
        assert len(fake.requests) == asked
    good, bad, down = summary["models"]
    assert (good["model"], bad["model"], down["model"]) == ("good", "bad", "down")
    assert good["acceptance_pass_rate"] == 1.0
    assert bad["acceptance_pass_rate"] < 0.5
    assert good["green_commits"] == 4
    assert (good["completed"], good["scored_jobs"]) == (4, 4)
    assert down["infrastructure_failures"] == 4
    assert down["scored_jobs"] == 0
    assert down["acceptance_pass_rate"] is None  # lost jobs never count as model failures
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert len(rows) == 12
    for row in rows:
        assert {"model", "kata", "language", "repeat", "status", "acceptance_pass_rate"} <= set(row)
    board = (out / "leaderboard.md").read_text()
    assert "| 1 | good | auto | 100%" in board
    # Acceptance by kata: per case, so the weak model keeps the few cases it gets right.
    assert "| bad | 8% | 8% |" in board
    assert good["red_events"] == good["green_commits"] == 4

    # Replay the recorded runs with no endpoint at all, as two shards, then merge them.
    replay_settings = load_settings(overrides={"bench": {"models": _models("good", "bad")}})
    for index in (1, 2):
        shard = BenchOptions(
            models=["good", "bad"], katas=[katas], languages=["python"], repeats=2,
            out=tmp_path / f"shard{index}", shard=(index, 2), replay=out,
        )  # fmt: skip
        run_bench(shard, replay_settings)
    merge([tmp_path / "shard1", tmp_path / "shard2"], tmp_path / "merged")
    scored = [row for row in _stable(out) if not row["model"].startswith("down")]
    assert _stable(tmp_path / "merged") == scored


LANGUAGES = sorted(REGISTERED)


def test_bench_scores_every_language_and_breaks_the_score_down_by_language(
    tmp_path: Path,
) -> None:
    katas = tmp_path / "katas"
    shutil.copytree(KATAS / "fizzbuzz", katas / "fizzbuzz")
    script: dict[str, list[Answer]] = {"good-tester": [], "good-impl": [], "good-ref": []}
    for language in sorted(LANGUAGES):  # the order a sequential bench runs its jobs in
        steps = STEPS[language]
        path, solution = SOLUTIONS[("fizzbuzz", language)]
        script["good-tester"] += [plan((steps.test_path, steps.test_file(1))), done()]
        script["good-impl"] += [plan((path, solution), message="feat(fizzbuzz): solve")]
        script["good-ref"] += [no_change()]
    with FakeLLM(script) as fake:
        settings = load_settings(
            overrides={"llm": {"base_url": fake.base_url}, "bench": {"models": _models("good")}}
        )
        options = BenchOptions(
            models=["good"], katas=[katas], languages=list(LANGUAGES), repeats=1,
            out=tmp_path / "out", jobs=1,
        )  # fmt: skip
        summary = run_bench(options, settings)
    [good] = summary["models"]
    assert good["acceptance_by_language"] == dict.fromkeys(LANGUAGES, 1.0), good
    assert (good["completed"], good["scored_jobs"]) == (len(LANGUAGES), len(LANGUAGES))
    leaderboard = (tmp_path / "out" / "leaderboard.md").read_text()
    assert "Acceptance by language" in leaderboard
    for language in LANGUAGES:
        assert language in leaderboard
    # Each job says what ran its sandboxes: this engine, its runtime, the kernel, its image.
    engine = read_versions(connect())
    rows = [
        json.loads(line) for line in (tmp_path / "out" / "results.jsonl").read_text().splitlines()
    ]
    for row in rows:
        assert row["sandbox"] == {
            "sandbox": "docker",
            **engine.to_json(),
            "image": row["sandbox"]["image"],
        }
        image = REGISTERED[row["language"]].image.name
        assert row["sandbox"]["image"].startswith(f"tdd-sandbox/{image}:")
    # One line per image: TypeScript shares JavaScript's.
    assert len(summary["sandbox"]) == len({REGISTERED[name].image for name in LANGUAGES})
    assert f"- {engine.line()}, tdd-sandbox/python:" in leaderboard
