"""`bench`, `bench merge` and `score` through the entry point."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.cli.test_gates_cli import run_cli
from tests.helpers.solutions import SOLUTIONS

KATAS = Path(__file__).resolve().parents[2] / "katas"


def test_bench_needs_models() -> None:
    result = run_cli("bench")
    assert result.returncode == 2
    assert "--models is required" in result.stderr


def test_bench_rejects_an_unknown_model_and_a_bad_shard(tmp_path: Path) -> None:
    result = run_cli("bench", "--models", "nonsense", "--out", str(tmp_path / "o"))
    assert result.returncode == 2
    assert "neither provider:model nor a bench.models entry" in result.stderr
    result = run_cli(
        "bench", "--models", "openai:x", "--shard", "3/2", "--out", str(tmp_path / "o")
    )
    assert result.returncode == 2
    assert "--shard" in result.stderr
    assert "Traceback" not in result.stderr


def test_merge_of_a_folder_without_results(tmp_path: Path) -> None:
    result = run_cli("bench", "merge", str(tmp_path), "--out", str(tmp_path / "m"))
    assert result.returncode == 2
    assert "holds no results.jsonl" in result.stderr


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_score_a_repository(tmp_path: Path) -> None:
    repo = tmp_path / "k"
    assert run_cli("init", str(repo)).returncode == 0
    path, source = SOLUTIONS[("fizzbuzz", "python")]
    (repo / path).write_text(source)
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
    subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"],
        check=True,
    )
    result = run_cli("score", str(KATAS / "fizzbuzz"), "--repo", str(repo), "--min-rate", "1")
    assert result.returncode == 0, result.stderr
    assert "acceptance: 13/13 (100%)" in result.stdout
    # Below --min-rate: exit 1, and the line says why.
    (repo / path).write_text("def fizzbuzz(n: int) -> str:\n    return str(n)\n")
    subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam",
         "y"], check=True,
    )  # fmt: skip
    low = run_cli("score", str(KATAS / "fizzbuzz"), "--repo", str(repo), "--min-rate", "0.5")
    assert low.returncode == 1, low.stderr
    assert "acceptance: 4/13 (31%): 9 failed; first: multiples of three > 3 is Fizz: " in low.stdout
    assert "expected 'Fizz', got '3'" in low.stdout


def test_bench_names_a_missing_kata_folder_and_a_bad_entry_key(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    result = run_cli(
        "bench", "--models", "openai:x", "--katas", str(KATAS / "fizzbuzz"),
        "--katas", str(missing), "--out", str(tmp_path / "o"),
    )  # fmt: skip
    assert result.returncode == 2
    assert f"no kata found in {missing}" in result.stderr
    config = tmp_path / "tdd.yaml"
    config.write_text('bench: {models: {q: {all: "custom:q", temprature: "0.1"}}}\n')
    result = run_cli("bench", "--models", "q", "--config", str(config), "--out", str(tmp_path))
    assert result.returncode == 2
    assert "unknown keys ['temprature']" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "o").exists()  # nothing half-made
