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
