"""Objects built step by step (`folding`), scored in a real sandbox: the history replayed
one call at a time, and a step that raises fails its case, never passes one that expects an
error (the attack: raise at the first roll, and every "cannot roll" case would pass)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tdd_sandbox.acceptance.scorer import run_acceptance
from tdd_sandbox.acceptance.suite import Suite, load_suite
from tdd_sandbox.execution.docker_checker import DockerChecker
from tdd_sandbox.grading.acceptance import CaseStatus, flatten_cases
from tdd_sandbox.languages import get_language
from tdd_sandbox.settings import load_settings

pytestmark = [pytest.mark.docker, pytest.mark.usefixtures("images")]

STUB = b"""\
class Game:
    def __init__(self):
        pass

    def roll(self, pins):
        pass

    def score(self):
        pass
"""
HONEST = """\
class Game:
    def __init__(self):
        self.rolls = []

    def roll(self, pins):
        if pins > 10 or sum(self.rolls) + pins > 20:
            raise ValueError("too many pins")
        self.rolls.append(pins)

    def score(self):
        return sum(self.rolls)
"""
RAISES_AT_ONCE = """\
class Game:
    def roll(self, pins):
        raise ValueError("too many pins")  # the message the kata's errors say

    def score(self):
        raise ValueError("too many pins")
"""
DOCUMENT: dict[str, Any] = {"cases": [
    {"description": "sum", "property": "score", "input": {"previousRolls": [3, 4]},
     "expected": 7},
    {"description": "too many", "property": "roll", "input": {"previousRolls": [9, 9], "roll": 3},
     "expected": {"error": "too many pins"}},
    {"description": "one too many", "property": "roll",
     "input": {"previousRolls": [5, 5], "roll": 11}, "expected": {"error": "too many pins"}},
]}  # fmt: skip


@pytest.fixture(scope="module")
def checker() -> Iterator[DockerChecker]:
    with DockerChecker(load_settings(), run_id="pytest-folds") as made:
        yield made


def _suite(tmp_path: Path) -> Suite:
    folder = tmp_path / "kata" / "acceptance"
    folder.mkdir(parents=True)
    (folder / "canonical-data.json").write_text(json.dumps(DOCUMENT))
    cases = flatten_cases(DOCUMENT, source="-")
    calls = get_language("python").derive_calls(cases, {"game.py": STUB}, {})
    assert not isinstance(calls, str), calls
    (folder / "calls.yaml").write_text(json.dumps({"python": calls.model_dump(mode="json")}))
    return load_suite(tmp_path / "kata")


@pytest.mark.parametrize(
    ("code", "wanted"),
    [
        (HONEST, [CaseStatus.PASSED] * 3),
        (RAISES_AT_ONCE, [CaseStatus.WRONG] * 3),
    ],
    ids=["honest", "raises_at_once"],
)
def test_a_history_is_replayed_and_a_step_that_raises_fails_its_case(
    checker: DockerChecker, tmp_path: Path, code: str, wanted: list[CaseStatus]
) -> None:
    python = get_language("python")
    tree = {name: text.encode() for name, text in python.scaffold().items()}
    tree["game.py"] = code.encode()
    report = run_acceptance(checker, python, tree, _suite(tmp_path))
    assert [r.status for r in report.results] == wanted, report.why()
