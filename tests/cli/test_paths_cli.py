"""Relative and `~` paths, from any working directory (issue 12, item 1): the README's own
`--repo ./fizzbuzz-python` must work."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tdd_sandbox.cli.options import UserPath
from tests.helpers.cli import run_cli

ROOT = Path(__file__).resolve().parents[2]


def test_init_with_a_relative_directory_makes_it_where_the_user_is(tmp_path: Path) -> None:
    result = run_cli("init", "kata-py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "kata-py" / ".git").is_dir()
    assert (tmp_path / "kata-py" / "tdd.yaml").is_file()
    assert not (tmp_path / "kata-py" / "kata-py").exists()


def test_init_with_a_dot_slash_path_and_a_relative_kata(tmp_path: Path) -> None:
    shutil.copy(ROOT / "katas" / "fizzbuzz" / "kata.md", tmp_path / "fizz.md")
    result = run_cli("init", "./nested/../k", "--kata", "fizz.md", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "k" / "kata.md").read_text().startswith("# FizzBuzz")


def test_init_expands_the_home_directory(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    result = run_cli("init", "~/k", env={"HOME": str(home)}, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (home / "k" / ".git").is_dir()
    assert not (tmp_path / "~").exists()


def test_status_with_a_relative_repo_reads_that_repo(tmp_path: Path) -> None:
    assert run_cli("init", "k", cwd=tmp_path).returncode == 0
    result = run_cli("status", "--repo", "k", cwd=tmp_path)
    # No run yet: the message names the repo, not "not a git repository".
    assert result.returncode == 2
    assert "no run found" in result.stderr, result.stderr


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_the_readme_run_with_relative_paths_from_another_directory(tmp_path: Path) -> None:
    work = tmp_path / "elsewhere"
    work.mkdir()
    shutil.copytree(ROOT / "katas" / "fizzbuzz", work / "fizzbuzz")
    result = run_cli(
        "run", "fizzbuzz/kata.md", "--replay", "fizzbuzz/demo/python.jsonl",
        "--repo", "./fizzbuzz-python", "--json",
        env={"OPENAI_API_KEY": ""}, cwd=work,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    summary = json.loads(result.stdout)
    assert summary["status"] == "completed"
    assert Path(summary["repo"]) == work / "fizzbuzz-python"
    assert (work / "fizzbuzz-python" / "fizzbuzz.py").is_file()
    status = run_cli("status", "--repo", "fizzbuzz-python", "--json", cwd=work)
    assert status.returncode == 0, status.stderr
    assert json.loads(status.stdout)["state"] == "completed"


@pytest.mark.parametrize(
    ("typed", "expected"),
    [("k", "cwd/k"), ("./a/../k", "cwd/k"), ("~/k", "home/k"), ("/abs/k", "/abs/k")],
)
def test_every_cli_path_is_expanded_and_absolute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, typed: str, expected: str
) -> None:
    (tmp_path / "cwd").mkdir()
    monkeypatch.chdir(tmp_path / "cwd")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    converted = UserPath().convert(typed, None, None)
    assert converted == (tmp_path / expected if not expected.startswith("/") else Path(expected))
