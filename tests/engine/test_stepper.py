"""`step`: red, then green, then refactor, one call each, with pending state in .tdd/; on
the fake checker and on Docker."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tdd_sandbox.engine.stepper import step_kata
from tests.helpers.fake_llm import FakeLLM
from tests.helpers.katas import PY_REFACTOR, fake_fizzbuzz_script, fizzbuzz_script
from tests.helpers.runs import KATAS, scripted_settings


@pytest.mark.parametrize("runtime", ["fake", pytest.param("docker", marks=[pytest.mark.docker])])
def test_one_phase_per_step(tmp_path: Path, runtime: str, request: pytest.FixtureRequest) -> None:
    if runtime == "docker":
        request.getfixturevalue("images")
    repo = tmp_path / "kata"
    script = fake_fizzbuzz_script() if runtime == "fake" else fizzbuzz_script("python")
    script["refactorer"] = script["refactorer"][3:]  # the real refactoring, at once
    with FakeLLM(script) as fake:
        settings = scripted_settings(fake.base_url, "python", sandbox={"type": runtime})
        kata = KATAS / "fizzbuzz" / "kata.md"
        red = step_kata(kata, settings, repo_dir=repo)
        assert (red.phase, red.status, red.next_phase) == ("red", "ok", "green")
        assert (repo / ".tdd" / "pending.json").exists()
        assert not (repo / "tests" / "test_fizzbuzz.py").exists()  # red is never written
        green = step_kata(kata, settings, repo_dir=repo)
        assert (green.phase, green.status, len(green.commits)) == ("green", "ok", 1)
        assert (repo / "tests" / "test_fizzbuzz.py").exists()
        refactor = step_kata(kata, settings, repo_dir=repo)
        assert (refactor.phase, refactor.status, len(refactor.commits)) == ("refactor", "ok", 1)
        assert (repo / "fizzbuzz.py").read_text().endswith(PY_REFACTOR)
        assert not (repo / ".tdd" / "pending.json").exists()
    log = subprocess.run(
        ["git", "-C", str(repo), "log", "--format=%s"], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert log[:2] == ["refactor(fizzbuzz): one expression", "feat(fizzbuzz): handle one"]
