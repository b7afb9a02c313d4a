"""compose.yaml: the tool as a service on the host engine, and Ollama under a profile."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]


def _config(*args: str) -> dict[str, object]:
    tool = shutil.which("docker-compose")
    if tool is None:
        if os.environ.get("CI"):
            pytest.fail("CI must validate compose.yaml: scripts/setup.sh installs docker-compose")
        pytest.skip("docker-compose is not installed")
    result = subprocess.run(
        [tool, "-f", str(ROOT / "compose.yaml"), *args, "config"],
        capture_output=True, text=True, check=False, cwd=ROOT,
        env={**os.environ, "TDD_SANDBOX_LLM__BASE_URL": "", "TDD_SANDBOX_MODEL": ""},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    document: dict[str, object] = yaml.safe_load(result.stdout)
    return document


def test_the_stack_is_valid_and_uses_ollama_by_default() -> None:
    services = _config("--profile", "ollama")["services"]
    assert isinstance(services, dict)
    tool, ollama = services["tdd-sandbox"], services["ollama"]
    volumes = [str(volume) for volume in tool["volumes"]]
    assert any("/var/run/docker.sock" in volume for volume in volumes)
    assert tool["environment"]["TDD_SANDBOX_LLM__BASE_URL"] == "http://ollama:11434/v1"
    assert tool["environment"]["TDD_SANDBOX_ROLES__IMPLEMENTER__MODEL"].startswith("ollama:")
    assert ollama["profiles"] == ["ollama"]
    # The tool's image is built from the whole checkout, its Dockerfile among the others.
    assert Path(tool["build"]["context"]).resolve() == ROOT
    assert tool["build"]["dockerfile"] == "images/tool/Dockerfile"
    assert (ROOT / tool["build"]["dockerfile"]).is_file()
