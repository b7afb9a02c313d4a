"""Test mode's figures when the tests know their place among the checks.

Whatever tells a check it is early (a tmpfs's inode numbers once did; a container's age as its
clock reads it still can: `tests/sandbox/test_counters.py`), a test that passes only in the
first runs it sees must score nothing. Here the channel is perfect: the world counts the
tests' runs and the tests see the count. The sandbox is left out (`score_kata` and
`run_test_files` are the world's); what is under test is the order of the checks and how
the figures are read from them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from tdd_sandbox.bench import mutation
from tdd_sandbox.grading.acceptance import AcceptanceReport, CaseResult, CaseStatus
from tdd_sandbox.grading.mutants import Mutant
from tdd_sandbox.languages.registry import get_language

REFERENCE = {"leap.py": b"reference\n"}
TESTS = {
    "tests/test_leap.py": b"def test_a() -> None:\n    pass\n\n\ndef test_b() -> None:\n    pass\n"
}
CASES = ("test_a", "test_b")


def _mutant(text: str) -> Mutant:
    return Mutant("leap.py", 1, "reference", text, {"leap.py": text.encode()})


class World:
    """Six mutants the kata's suite tells apart, two equivalent ones, and tests that pass
    in their first `early` runs alone (`early` None: honest tests, which pass on the
    reference and fail on every bug)."""

    def __init__(self, early: int | None) -> None:
        self.early, self.runs = early, 0
        self.mutants = [_mutant(f"bug {i}") for i in range(6)]
        self.equivalents = [_mutant("reference \n"), _mutant("reference\n\n")]

    def score_kata(self, checker: object, language: object, files: Mapping[str, bytes],
                   kata_dir: Path, **_: object) -> AcceptanceReport:  # fmt: skip
        bug = files["leap.py"].startswith(b"bug")
        return _report(passed=not bug, also=True)  # the kata's own suite: half on a bug

    def run_test_files(self, checker: object, language: object, files: Mapping[str, bytes],
                       tests: object, allow: object, **_: object) -> AcceptanceReport:  # fmt: skip
        self.runs += 1
        if self.early is not None:
            return _report(passed=self.runs <= self.early)
        return _report(passed=not files["leap.py"].startswith(b"bug"))


def _report(*, passed: bool, also: bool = False) -> AcceptanceReport:
    status = CaseStatus.PASSED if passed else CaseStatus.WRONG
    second = CaseStatus.PASSED if also else status
    return AcceptanceReport((CaseResult(CASES[0], status), CaseResult(CASES[1], second)))


def _figures(monkeypatch: pytest.MonkeyPatch, world: World, *, luck: bool) -> dict[str, Any]:
    monkeypatch.setattr(mutation, "score_kata", world.score_kata)
    monkeypatch.setattr(mutation, "run_test_files", world.run_test_files)
    monkeypatch.setattr(mutation, "reference_files", lambda language, kata: dict(REFERENCE))
    monkeypatch.setattr(mutation, "load_kata", lambda path: _Kata())
    monkeypatch.setattr(mutation, "make_mutants", lambda *a, **k: list(world.mutants))
    monkeypatch.setattr(mutation, "equivalent_mutants", lambda *a: list(world.equivalents))
    monkeypatch.setattr(Path, "is_file", lambda self: self.name == "leap.py")
    first = world.run_test_files(None, None, REFERENCE, TESTS, None) if luck else None
    return mutation.kill_mutants(
        None,  # type: ignore[arg-type]  # the world runs every check
        get_language("python"), Path("kata"), TESTS, first, against_luck=luck,
    )  # fmt: skip


class _Kata:
    def allowed_rules(self, language: str) -> frozenset[str]:
        return frozenset()


@pytest.mark.parametrize("luck", [True, False], ids=["test mode", "the loop's suite"])
def test_honest_tests_kill_every_bug(monkeypatch: pytest.MonkeyPatch, luck: bool) -> None:
    figures = _figures(monkeypatch, World(None), luck=luck)
    assert (figures["mutation_score"], figures["mutants_killed"]) == (1.0, 6)


DRAWS = 200


@pytest.mark.parametrize("early", [1, 2, 3, 4])
@pytest.mark.parametrize("luck", [True, False], ids=["test mode", "the loop's suite"])
def test_tests_that_know_their_place_in_the_order_score_nothing(
    monkeypatch: pytest.MonkeyPatch, luck: bool, early: int
) -> None:
    """They score only where the draw puts every run of the reference and every equivalent
    mutant among their first runs (the three of them in the first four of nine: 1 draw in
    21 here; among a kata's 24 mutants, 1 in 731); else a run on the reference or on the same
    code as text fails, and they count as luck or as reading."""
    scores = [_figures(monkeypatch, World(early), luck=luck)["mutation_score"]
              for _ in range(DRAWS)]  # fmt: skip  # the order is drawn anew each time
    # At most 0.048 expected; 0.12 is five standard errors above it.
    assert sum(scores) / DRAWS < 0.12, scores


def test_in_the_old_order_they_killed_every_bug(monkeypatch: pytest.MonkeyPatch) -> None:
    # As before 2e0d3e5: the reference's runs first, the mutants after, no equivalent ones.
    class Ordered(random.SystemRandom):
        def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
            x.sort(key=lambda check: check[0] != "reference")

    monkeypatch.setattr(random, "SystemRandom", Ordered)
    world = World(2)
    world.equivalents = []
    figures = _figures(monkeypatch, world, luck=True)
    assert (figures["mutation_score"], figures["mutants_killed"]) == (1.0, 6)
