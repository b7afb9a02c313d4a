"""Models compared paired, on the same exercises; ranks only a told-apart gap separates."""

from __future__ import annotations

from typing import Any

from tdd_sandbox.bench.report import leaderboard
from tdd_sandbox.bench.standings import Scores, compare, comparisons, ranks, share_of
from tdd_sandbox.bench.summary import summarise


def job(model: str, kata: str, rate: float, *, repeat: int = 1, cases: int = 10) -> dict[str, Any]:
    return {
        "id": f"{model}__{kata}__python__r{repeat}", "model": model, "kata": kata,
        "language": "python", "repeat": repeat, "status": "completed",
        "acceptance_pass_rate": rate, "acceptance": {"passed": round(rate * cases),
                                                     "total": cases},
        "pass_1": rate == 1.0, "pass_2": rate == 1.0,
        "cycles": 0, "green_commits": 0, "red_events": 0, "overshoot_events": 0,
        "tamper_events": 0, "wall_time_s": 1.0, "model_time_s": 1.0, "gate_time_s": 0.1,
        "tokens": {"implementer": 10}, "cost": {},
    }  # fmt: skip


KATAS = [f"k{i}" for i in range(12)]
# Three models of known order on twelve exercises, each exercise harder for all of them.
LARGE = [job("large", kata, min(1.0, 0.5 + 0.05 * i)) for i, kata in enumerate(KATAS)]
MID = [job("mid", kata, 0.2 + 0.03 * i) for i, kata in enumerate(KATAS)]
SMALL = [job("small", kata, 0.02 * i) for i, kata in enumerate(KATAS)]


def test_three_models_of_known_order_are_each_told_apart() -> None:
    summary = summarise(LARGE + MID + SMALL)
    assert [(m["model"], m["rank"]) for m in summary["models"]] == [
        ("large", 1), ("mid", 2), ("small", 3),
    ]  # fmt: skip
    assert all(row["told_apart"] for row in summary["comparisons"])
    assert {(row["first"], row["second"]) for row in summary["comparisons"]} == {
        ("large", "mid"), ("large", "small"), ("mid", "small"),
    }  # fmt: skip


def test_a_gap_of_noise_shares_a_rank_and_says_so() -> None:
    # Two exercises, one each: the board used to rank these 1 and 2.
    summary = summarise([job("a", "k0", 1.0), job("a", "k1", 0.0),
                         job("b", "k0", 0.0), job("b", "k1", 0.9)])  # fmt: skip
    assert [m["rank"] for m in summary["models"]] == [1, 1]
    (row,) = summary["comparisons"]
    assert not row["told_apart"]
    assert row["low"] < 0 < row["high"]


def test_models_are_compared_on_the_exercises_both_ran() -> None:
    # b never ran k2, where a did best: an unpaired mean would put a far ahead.
    a = Scores.of([job("a", "k0", 0.5), job("a", "k1", 0.5), job("a", "k2", 1.0)])
    b = Scores.of([job("b", "k0", 0.5), job("b", "k1", 0.5)])
    found = compare(a, b)
    assert found is not None
    assert (found.exercises, found.mean) == (2, 0.0)


def test_repeats_of_an_exercise_are_one_unit_of_the_comparison() -> None:
    scores = Scores.of([job("a", "k0", 1.0, repeat=1), job("a", "k0", 0.0, repeat=2)])
    assert scores.shares == {("k0", "python"): 0.5}
    assert scores.cases == {("k0", "python"): 20}


def test_ranks_count_the_models_told_apart_above() -> None:
    # a and b not told apart, b and c not, a and c told apart: a 1, b 1, c 2.
    rows = [
        {"first": "a", "second": "b", "difference": 0.1, "told_apart": False},
        {"first": "b", "second": "c", "difference": 0.1, "told_apart": False},
        {"first": "a", "second": "c", "difference": 0.2, "told_apart": True},
    ]
    assert ranks(["a", "b", "c"], rows) == {"a": 1, "b": 1, "c": 2}


def test_a_model_without_a_scored_exercise_is_not_ranked() -> None:
    # A board stopped during an entry's first job: its one job interrupted, nothing scored.
    # Nothing can be told apart from it, so the old rule ranked it 1, beside the best.
    stopped = {**job("stopped", "k0", 0.0), "status": "interrupted"}
    summary = summarise(LARGE + SMALL + [stopped])
    assert [(m["model"], m["rank"]) for m in summary["models"]] == [
        ("large", 1), ("small", 2), ("stopped", None),
    ]  # fmt: skip
    board = leaderboard(summary)
    assert "\n| - | stopped |" in board
    assert not any(f"\n| {rank} | stopped |" in board for rank in (1, 2, 3, None))


def test_a_model_with_no_shared_exercise_is_compared_as_such() -> None:
    rows = comparisons({"a": Scores.of([job("a", "k0", 1.0)]),
                        "b": Scores.of([job("b", "k1", 0.0)])})  # fmt: skip
    assert rows[0]["exercises"] == 0
    assert rows[0]["difference"] is None
    assert not rows[0]["told_apart"]


def test_a_share_of_jobs_is_clustered_by_exercise() -> None:
    jobs = [job("a", "k0", 1.0, repeat=r) for r in (1, 2, 3)] + [job("a", "k1", 0.0)]
    found = share_of(jobs, "pass_2")
    assert found is not None
    assert found.mean == 0.5  # the exercise's mean, not 3 of 4 jobs
    assert found.exercises == 2


def _asking(jobs: list[dict[str, Any]], llm: str, edit_format: str) -> list[dict[str, Any]]:
    roles = {"tester": llm, "implementer": llm, "refactorer": llm}
    return [{**j, "models": roles, "edit_format": edit_format} for j in jobs]


def test_a_model_s_formats_are_compared_paired_its_best_first() -> None:
    # One model in three formats (diff best, told apart from json only), another in one.
    diff = _asking([{**j, "model": "q-diff"} for j in LARGE], "custom:q", "diff")
    whole = _asking([{**j, "model": "q-whole"} for j in LARGE], "custom:q", "whole")
    json_ = _asking([{**j, "model": "q-json"} for j in SMALL], "custom:q", "json")
    other = _asking(MID, "custom:other", "whole")
    diff[0] = {**diff[0], "acceptance_pass_rate": 1.0}  # a hair above whole, not told apart
    summary = summarise(diff + whole + json_ + other)
    rows = {(r["llm"], r["best_format"], r["other_format"]): r for r in summary["formats"]}
    assert rows.keys() == {("custom:q", "diff", "whole"), ("custom:q", "diff", "json")}
    assert rows["custom:q", "diff", "json"]["told_apart"]
    assert not rows["custom:q", "diff", "whole"]["told_apart"]
    assert rows["custom:q", "diff", "json"]["exercises"] == len(KATAS)
    board = leaderboard(summary)
    assert "## Each model's edit formats (paired, same exercises)" in board
    assert "| custom:q | diff | json | 12 | +70 | +53 to +82 | diff better |" in board
    assert "| custom:q | diff | whole | 12 | +4 | -16 to +24 | not told apart |" in board


def test_formats_are_compared_only_for_one_model_asked_alike_in_each() -> None:
    # The same format twice (a setting apart), or roles that differ by job: not formats.
    twice = _asking(LARGE, "custom:q", "whole") + _asking(
        [{**j, "model": "q-hot"} for j in MID], "custom:q", "whole"
    )
    assert summarise(twice)["formats"] == []
    mixed = _asking(LARGE[:6], "custom:q", "whole") + _asking(LARGE[6:], "custom:r", "whole")
    mixed += _asking([{**j, "model": "q-diff"} for j in MID], "custom:q", "diff")
    summary = summarise(mixed)
    assert summary["formats"] == []
    assert "edit formats" not in leaderboard(summary)
