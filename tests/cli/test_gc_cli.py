"""`gc` through the entry point (the race tests exercise it on a killed run)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tdd_sandbox.ops.gc import parse_age
from tests.helpers.cli import run_cli


@pytest.mark.parametrize(
    ("text", "seconds"), [("90", 90), ("90s", 90), ("30m", 1800), ("2h", 7200), ("1d", 86400)]
)
def test_parse_age(text: str, seconds: float) -> None:
    assert parse_age(text) == seconds


def test_a_bad_age_is_one_line(tmp_path: Path) -> None:
    result = run_cli("gc", "--repo", str(tmp_path), "--older-than", "soon")
    assert result.returncode == 2
    assert "--older-than" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.docker
def test_dry_run_on_a_fresh_repo_removes_nothing(tmp_path: Path) -> None:
    assert run_cli("init", str(tmp_path / "k")).returncode == 0
    result = run_cli("gc", "--repo", str(tmp_path / "k"), "--dry-run", "--logs", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["dry_run"] is True
    assert [item for item in report["removed"] if item["kind"] != "container"] == []
