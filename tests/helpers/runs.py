"""Running the real loop against a scripted model."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from tdd_sandbox.engine.phases import RunSummary
from tdd_sandbox.engine.session import run_kata
from tdd_sandbox.settings import Settings, load_settings
from tests.helpers.fake_llm import Answer, FakeLLM

ROLES = ("tester", "implementer", "refactorer")
KATAS = Path(__file__).resolve().parents[2] / "katas"


def scripted_settings(base_url: str, language: str, **overrides: Any) -> Settings:
    """Settings whose roles use models `tester`, `implementer`, `refactorer` at `base_url`."""
    values: dict[str, Any] = {
        "language": language,
        "llm": {"base_url": base_url, "max_retries": 2, "timeout_s": 10},
        "roles": {role: {"model": f"custom:{role}"} for role in ROLES},
        "sandbox": {"timeout_s": 60},
    }
    values.update(overrides)
    return load_settings(overrides=values)


def run_scripted(
    repo: Path, language: str, script: Mapping[str, Iterable[Answer]], **overrides: Any
) -> tuple[RunSummary, FakeLLM]:
    """Run FizzBuzz in `repo` with the scripted answers; returns the summary and the server."""
    with FakeLLM(script) as fake:
        settings = scripted_settings(fake.base_url, language, **overrides)
        summary = run_kata(KATAS / "fizzbuzz" / "kata.md", settings, repo_dir=repo)
    return summary, fake
