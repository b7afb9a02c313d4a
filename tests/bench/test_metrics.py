"""Job metrics read back from a run's log."""

from __future__ import annotations

import json
from pathlib import Path

from tdd_sandbox.bench.metrics import run_metrics


def test_tamper_counts_every_tamper_kind_and_nothing_else(tmp_path: Path) -> None:
    kinds = ["policy", "sentinel", "permission", "protected", "channel", "runner", "overshoot",
             "truncated", "policy"]  # fmt: skip
    events = [{"event": "rejected", "kind": kind} for kind in kinds]
    (tmp_path / "log.jsonl").write_text("\n".join(json.dumps(e) for e in events) + "\n")
    metrics = run_metrics(tmp_path, {"cycles": 1, "commits": []})
    assert metrics["tamper_events"] == 7
    assert metrics["tamper_by_kind"] == {
        "channel": 1, "permission": 1, "policy": 2, "protected": 1, "runner": 1, "sentinel": 1,
    }  # fmt: skip
    assert metrics["overshoot_events"] == 1


def _end(cycle: int, phase: str, status: str) -> dict[str, object]:
    return {"event": "attempt-end", "cycle": cycle, "phase": phase, "status": status}


def test_each_role_is_counted_on_its_own_tries(tmp_path: Path) -> None:
    events = [
        # Cycle 1: a red on the second try; green on the second of two racing, one lost; the
        # refactor kept.
        _end(1, "red", "failed"), _end(1, "red", "green"), {"event": "red", "cycle": 1},
        _end(1, "green", "failed"), _end(1, "green", "green"), _end(1, "green", "lost"),
        {"event": "attempt", "cycle": 1, "phase": "refactor"}, _end(1, "refactor", "green"),
        {"event": "commit", "cycle": 1, "kind": "feat"},
        {"event": "commit", "cycle": 1, "kind": "refactor"},
        # Cycle 2: a red at once; green with an endpoint failure beside it; the refactor
        # reverted. Cycle 3: the refactor unchanged, then the tester is done.
        _end(2, "red", "green"), {"event": "red", "cycle": 2},
        _end(2, "green", "green"), _end(2, "green", "error"),
        {"event": "attempt", "cycle": 2, "phase": "refactor"}, _end(2, "refactor", "failed"),
        {"event": "reverted", "cycle": 2},
        {"event": "attempt", "cycle": 3, "phase": "refactor"}, _end(3, "refactor", "unchanged"),
        _end(4, "red", "done"),
    ]  # fmt: skip
    (tmp_path / "log.jsonl").write_text("\n".join(json.dumps(e) for e in events) + "\n")
    roles = run_metrics(tmp_path, {"cycles": 3, "commits": []})["roles"]
    assert roles == {
        "tester": {"attempts": 3, "valid_red": 2},
        "implementer": {"attempts": 3, "green": 2},
        "refactorer": {"phases": 3, "kept": 1, "reverted": 1, "unchanged": 1},
    }
