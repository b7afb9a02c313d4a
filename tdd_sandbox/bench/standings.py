"""Models side by side: each model's score per exercise, every two models compared paired on
the exercises both ran, and ranks that only a told-apart difference separates.

A model ranks below another only where the paired difference's 95% interval leaves out 0: its
rank is one more than the number of models told apart above it (so 1, 1, 3 when the first two
are not told apart from each other but both from the third). A leaderboard never ranks noise.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from tdd_sandbox.bench.uncertainty import Difference, Estimate, difference, estimate

Exercise = tuple[str, str]
"""A kata in a language: the unit every figure is clustered by."""


def exercise(job: dict[str, Any]) -> Exercise:
    """The exercise a job ran."""
    return (str(job["kata"]), str(job["language"]))


@dataclass(frozen=True)
class Scores:
    """One model's scored jobs, per exercise: the share of the hidden suite's cases passed
    (mean over the exercise's repeats) and how many cases stand behind it."""

    shares: dict[Exercise, float]
    cases: dict[Exercise, int]

    @classmethod
    def of(cls, jobs: Iterable[dict[str, Any]]) -> Scores:
        """The scores of a model's scored jobs."""
        rates: dict[Exercise, list[float]] = defaultdict(list)
        cases: dict[Exercise, int] = defaultdict(int)
        for job in jobs:
            rates[exercise(job)].append(float(job["acceptance_pass_rate"]))
            # A job's score counts at least one trial, whatever its record says of its cases.
            cases[exercise(job)] += max(1, int((job.get("acceptance") or {}).get("total") or 1))
        return cls({key: sum(v) / len(v) for key, v in rates.items()}, dict(cases))

    def estimate(self) -> Estimate | None:
        """The model's acceptance: the mean share over its exercises, with its interval."""
        return estimate(list(self.shares.values()), sum(self.cases.values()))


def compare(first: Scores, second: Scores) -> Difference | None:
    """`first`'s acceptance less `second`'s on the exercises both ran (None: none shared)."""
    shared = sorted(first.shares.keys() & second.shares.keys())
    return difference(
        [first.shares[key] for key in shared],
        [second.shares[key] for key in shared],
        sum(min(first.cases[key], second.cases[key]) for key in shared),
    )


def share_of(jobs: list[dict[str, Any]], key: str) -> Estimate | None:
    """The share of the jobs recording `key` for which it is true (a job solved after its
    first try, say), clustered by exercise; None where no job records it."""
    told: dict[Exercise, list[bool]] = defaultdict(list)
    for job in jobs:
        if job.get(key) is not None:
            told[exercise(job)].append(bool(job[key]))
    shares = [sum(values) / len(values) for values in told.values()]
    return estimate(shares, sum(len(values) for values in told.values()))


def comparisons(models: dict[str, Scores]) -> list[dict[str, Any]]:
    """Every two models compared, the one with the higher acceptance first (by name where
    equal), as report rows."""
    means = {name: (scores.estimate() or _NONE).mean for name, scores in models.items()}
    rows = []
    for a, b in combinations(sorted(models), 2):
        first, second = sorted((a, b), key=lambda name: (-means[name], name))
        found = compare(models[first], models[second])
        figures = (
            {"exercises": 0, "difference": None, "low": None, "high": None,
             "told_apart": False, "exercises_needed": None}
            if found is None
            else {"exercises": found.exercises, "difference": round(found.mean, 4),
                  "low": round(found.low, 4), "high": round(found.high, 4),
                  "told_apart": found.told_apart, "exercises_needed": found.needed}
        )  # fmt: skip
        rows.append({"first": first, "second": second, **figures})
    return rows


def asked(jobs: Iterable[dict[str, Any]]) -> str | None:
    """The model a contestant's jobs asked, whatever the edit format: the `provider:model`
    of every role, or each role's where they differ (None: the jobs differ in it)."""
    found = {tuple(sorted((job.get("models") or {}).items())) for job in jobs}
    if len(found) != 1 or not (roles := found.pop()):
        return None
    if len({model for _, model in roles}) == 1:
        return str(roles[0][1])
    return ", ".join(f"{role}={model}" for role, model in roles)


def formats(models: list[dict[str, Any]], rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each model asked in more than one edit format: its best format (the highest
    acceptance, as `comparisons` orders every two) against each of its others, paired on
    the exercises both ran, as report rows. Where a difference is not told apart the board
    cannot say which of the two formats suits the model better."""
    groups: dict[str, dict[str, str]] = defaultdict(dict)  # model asked -> name -> format
    for model in models:
        form = str(model.get("edit_format") or "")
        if model.get("llm") and form and "/" not in form:
            groups[model["llm"]][model["model"]] = form
    found = []
    for llm, names in sorted(groups.items()):
        if len(set(names.values())) < len(names):
            continue  # two of them in one format differ in something else: not formats apart
        within = [row for row in rows if {row["first"], row["second"]} <= names.keys()]
        # `comparisons` orders every two by one key: the best is second to none.
        best = next((name for name in sorted(names)
                     if within and all(row["second"] != name for row in within)), None)  # fmt: skip
        found += [
            {"llm": llm, "best_format": names[row["first"]],
             "other_format": names[row["second"]], **row}
            for row in within if row["first"] == best
        ]  # fmt: skip
    return found


def ranks(names: Iterable[str], rows: list[dict[str, Any]]) -> dict[str, int]:
    """Each model's rank: one more than the models told apart above it."""
    above: dict[str, int] = {name: 0 for name in names}
    for row in rows:
        if row["told_apart"]:
            ahead, behind = (
                (row["first"], row["second"]) if row["difference"] > 0
                else (row["second"], row["first"])
            )  # fmt: skip
            above[behind] += 1
            above.setdefault(ahead, 0)
    return {name: count + 1 for name, count in above.items()}


_NONE = Estimate(0.0, 0.0, 1.0, 0, 0.0)
"""What a model without scored jobs is taken to score when ordering comparisons."""
