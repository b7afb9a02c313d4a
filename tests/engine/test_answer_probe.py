"""The metamorphic probe on Docker: code that answers from the tests' text never lands.

Each reader in `tests/helpers/answer_readers.py` got its first test green (and committed) in
the loop before the probe, in every language, and landed as a refactoring of honest code;
now each is refused as `answers` (with the policy, which refuses them too now, switched
off), while the honest FizzBuzz of every language still completes, its refactoring included
(`test_session.py`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tdd_sandbox.languages.registry import LANGUAGES
from tests.helpers.answer_readers import READERS
from tests.helpers.fake_llm import Answer, no_change, plan
from tests.helpers.git import git
from tests.helpers.katas import STEPS, python_test_file
from tests.helpers.name_readers import READERS as NAME_READERS
from tests.helpers.runs import run_scripted

pytestmark = [
    pytest.mark.docker,
    pytest.mark.usefixtures("images", "unsealed", "without_policy"),
]


@pytest.fixture
def unsealed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The probe on its own: sealed tests (`tests/execution/test_sealing.py`) stop the Rust,
    C++ and Java readers before it, so here no pack seals."""
    for pack in LANGUAGES.values():
        monkeypatch.setattr(pack, "seals_tests", False)


def _first_test(language: str) -> Answer:
    """The tester's answer with the kata's first test."""
    steps = STEPS[language]
    test = python_test_file(1) if language == "python" else steps.test_file(1)
    return plan((steps.test_path, test), message="test(fizzbuzz): one")


@pytest.mark.parametrize("language", sorted(READERS))
def test_code_that_reads_its_answers_off_the_tests_never_lands(
    tmp_path: Path, language: str
) -> None:
    steps = STEPS[language]
    tester = _first_test(language)
    reader = plan((steps.code_path, READERS[language]), message="feat(fizzbuzz): one")
    script = {"tester": [tester, tester], "implementer": [reader, reader], "refactorer": []}
    repo = tmp_path / "kata"
    summary, _ = run_scripted(repo, language, script, cycles=1, max_attempts_per_agent=1)
    log = git(repo, "log", "--format=%s").splitlines()
    assert "feat(fizzbuzz): one" not in log, (summary.status, summary.reason)
    assert summary.status == "stuck"
    steps_dir = next((repo / ".tdd" / "runs").glob("*/steps"))
    records = [json.loads(p.read_text()) for p in sorted(steps_dir.glob("*green*.json"))]
    assert records
    assert {r["kind"] for r in records} == {"answers"}, records
    assert "still passes with its expected values changed" in records[0]["error"]


@pytest.mark.parametrize("language", sorted(READERS))
def test_a_refactoring_that_reads_its_answers_off_the_tests_is_reverted(
    tmp_path: Path, language: str
) -> None:
    steps = STEPS[language]
    test = python_test_file(1) if language == "python" else steps.test_file(1)
    script = {
        "tester": [plan((steps.test_path, test), message="test(fizzbuzz): one")],
        "implementer": [plan((steps.code_path, steps.impls[0]), message="feat(fizzbuzz): one")],
        "refactorer": [
            plan((steps.code_path, READERS[language]), message="refactor: read"),
            no_change(),
        ],
    }
    repo = tmp_path / "kata"
    summary, _ = run_scripted(repo, language, script, cycles=1)
    log = git(repo, "log", "--format=%s").splitlines()
    assert "refactor: read" not in log, summary.reason
    assert "feat(fizzbuzz): one" in log
    steps_dir = next((repo / ".tdd" / "runs").glob("*/steps"))
    record = json.loads((steps_dir / "cycle-001-refactor-1.json").read_text())
    assert record["kind"] == "answers", record
    assert "refactored code passes" in record["error"]


@pytest.mark.parametrize("language", sorted(NAME_READERS))
def test_code_that_answers_from_its_caller_s_name_never_lands(
    tmp_path: Path, language: str
) -> None:
    # Each reader's first test went green under its own name, and its changed expected value
    # failed it as it fails honest code: the probe then ran it under a name that says nothing.
    steps = STEPS[language]
    tester = _first_test(language)
    reader = plan((steps.code_path, NAME_READERS[language]), message="feat: read the name")
    honest = plan((steps.code_path, steps.impls[0]), message="feat(fizzbuzz): one")
    script = {"tester": [tester], "implementer": [reader, honest], "refactorer": [no_change()]}
    repo = tmp_path / "kata"
    summary, _ = run_scripted(repo, language, script, cycles=1, max_attempts_per_agent=2)
    log = git(repo, "log", "--format=%s").splitlines()
    assert "feat: read the name" not in log, (summary.status, summary.reason)
    assert "feat(fizzbuzz): one" in log, (summary.status, summary.reason)
    steps_dir = next((repo / ".tdd" / "runs").glob("*/steps"))
    records = [json.loads(p.read_text()) for p in sorted(steps_dir.glob("*green*.json"))]
    refused = [r for r in records if r.get("kind")]
    assert [r["kind"] for r in refused] == ["answers"], records
    assert "answers from the test's name" in refused[0]["error"]
