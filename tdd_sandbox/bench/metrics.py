"""What a job measured, read back from its run's records, and per-model aggregates."""

from __future__ import annotations

import json
import math
import statistics
from collections import Counter
from pathlib import Path
from typing import Any

from tdd_sandbox.bench.uncertainty import t95
from tdd_sandbox.engine.events import EventName
from tdd_sandbox.vocabulary.failures import Failure


def run_metrics(run_dir: Path, summary: dict[str, Any]) -> dict[str, Any]:
    """Counts and times of one run, from its `log.jsonl` and summary."""
    events = []
    for line in (run_dir / "log.jsonl").read_text(encoding="utf-8").splitlines():
        try:
            events.append(json.loads(line))
        except ValueError:
            continue
    kinds = Counter(event["event"] for event in events)
    rejections = [e for e in events if e["event"] == EventName.REJECTED]
    kinds_seen = Counter(Failure.read(e.get("kind")) for e in rejections)
    wins = Counter(
        str(int(e["winner"]) + 1)
        for e in events
        if e["event"] == EventName.RACE and e.get("winner") is not None
    )
    attempts = Counter(str(e["phase"]) for e in events if e["event"] == EventName.ATTEMPT)
    usage: dict[str, Any] = summary.get("usage", {})
    started: dict[str, Any] = next((e for e in events if e["event"] == EventName.START), {})
    return {
        "sandbox": dict(started.get("versions") or {}),
        "roles": role_counts(events),
        "cycles": summary.get("cycles", 0),
        "green_commits": len(summary.get("commits", [])),
        "red_events": kinds[EventName.RED],
        "overshoot_events": kinds_seen[Failure.OVERSHOOT],
        "tamper_events": sum(n for kind, n in kinds_seen.items() if kind.is_tamper),
        "tamper_by_kind": {k.value: n for k, n in sorted(kinds_seen.items()) if k.is_tamper},
        "rejected_attempts": len(rejections),
        "rejections_by_kind": {k.value: n for k, n in sorted(kinds_seen.items())},
        "attempts": dict(sorted(attempts.items())),
        "race_wins_by_attempt": dict(sorted(wins.items())),
        "wall_time_s": round(float(summary.get("wall_time_s", 0.0)), 3),
        "model_time_s": round(sum(float(u.get("model_time_s", 0)) for u in usage.values()), 3),
        "gate_time_s": round(
            sum(float(e.get("seconds", 0)) for e in events if e["event"] == EventName.GATES), 3
        ),
        "tokens": {
            role: int(u.get("prompt_tokens", 0)) + int(u.get("completion_tokens", 0))
            for role, u in usage.items()
        },
        "cost": {role: round(float(u.get("cost", 0.0)), 6) for role, u in usage.items()},
    }


def role_counts(events: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """What each role of the loop did with its tries: the tester's attempts and the valid
    failing tests among them, the implementer's attempts and the green ones, the refactor
    phases and how many were kept, reverted (not exactly as green) or left unchanged.
    Attempts lost to a race or to the endpoint are no one's to count."""
    ended = [
        e for e in events
        if e["event"] == EventName.ATTEMPT_END and e.get("status") not in ("lost", "error")
    ]  # fmt: skip
    tries = Counter((str(e["phase"]), str(e["status"])) for e in ended)
    refactors = {e["cycle"] for e in events if e["event"] == EventName.ATTEMPT
                 and e.get("phase") == "refactor"}  # fmt: skip
    kept = sum(e["event"] == EventName.COMMIT and e.get("kind") == "refactor" for e in events)
    reverted = sum(e["event"] == EventName.REVERTED for e in events)
    return {
        "tester": {
            "attempts": sum(
                n for (phase, status), n in tries.items() if phase == "red" and status != "done"
            ),
            "valid_red": sum(e["event"] == EventName.RED for e in events),
        },
        "implementer": {
            "attempts": sum(n for (phase, _), n in tries.items() if phase == "green"),
            "green": tries[("green", "green")],
        },
        "refactorer": {
            "phases": len(refactors),
            "kept": kept,
            "reverted": reverted,
            "unchanged": max(0, len(refactors) - kept - reverted),
        },
    }


def mean_ci(values: list[float]) -> tuple[float | None, float | None]:
    """Mean and the half-width of its 95% confidence interval (None when undefined)."""
    if not values:
        return None, None
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, None
    t = t95(len(values) - 1)
    return mean, t * statistics.stdev(values) / math.sqrt(len(values))
