"""Every bundled acceptance suite passes on a reference solution and fails on the scaffold."""

from __future__ import annotations

from pathlib import Path

import docker
import pytest

from tdd_sandbox.bench.acceptance import acceptance_files, score_files
from tdd_sandbox.languages import get_language
from tdd_sandbox.runtime import Runtime
from tdd_sandbox.settings import load_settings
from tests.helpers.solutions import SOLUTIONS

pytestmark = [pytest.mark.docker, pytest.mark.usefixtures("images")]
KATAS = Path(__file__).resolve().parents[2] / "katas"


@pytest.mark.parametrize(("kata", "language"), sorted(SOLUTIONS))
def test_reference_scores_full_and_scaffold_scores_nothing(
    kata: str, language: str, docker_client: docker.DockerClient
) -> None:
    plugin = get_language(language)
    suite = acceptance_files(KATAS / kata, plugin)
    scaffold = {name: text.encode() for name, text in plugin.scaffold().items()}
    path, solution = SOLUTIONS[(kata, language)]
    with Runtime(load_settings(), run_id="pytest-score") as runtime:
        full = score_files(runtime, plugin, {**scaffold, path: solution.encode()}, suite)
        empty = score_files(runtime, plugin, scaffold, suite)
    assert full.total >= 3
    assert (full.passed, full.rate) == (full.total, 1.0)
    assert (empty.passed, empty.total) == (0, full.total)
