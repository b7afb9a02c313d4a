"""Reading a run back from `.tdd/` and git, for `tdd-sandbox status`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tdd_sandbox.engine.events import EventName
from tdd_sandbox.engine.journal import latest_run, read_events, read_state
from tdd_sandbox.errors import UsageError
from tdd_sandbox.repo.environment import head_summary
from tdd_sandbox.repo.lock import live_run


def read_status(repo_dir: Path) -> dict[str, Any]:
    """What the latest run in `repo_dir` did, or is doing.

    Raises:
        UsageError: no run was ever made there.
    """
    run_dir = latest_run(repo_dir)
    if run_dir is None:
        raise UsageError(
            f"no run found in {repo_dir}: start one with `tdd-sandbox run KATA --repo {repo_dir}`"
        )
    events = read_events(run_dir)
    info: dict[str, Any] = {"run_id": run_dir.name, "state": "running"}
    for event in events:
        name = event.get("event")
        if name == EventName.CYCLE:
            info["cycle"] = event["cycle"]
        elif name == EventName.ATTEMPT:
            info["phase"] = f"{event['phase']} (attempt {event['attempt']})"
        elif name == EventName.REJECTED:
            info["last_failure"] = str(event.get("error", ""))[:300]
        elif name == EventName.END:
            info["state"] = event.get("status")
    state = read_state(repo_dir) or {}
    if state.get("run_id") == run_dir.name and state.get("attempts"):
        info["attempts"] = ", ".join(
            f"#{int(index) + 1} {entry.get('model', '?')}: {entry.get('status', '?')}"
            for index, entry in sorted(state["attempts"].items(), key=lambda kv: int(kv[0]))
        )
    summary_file = run_dir / "summary.json"
    if info["state"] == "running" and not summary_file.exists():
        _read_stopped(info, state if state.get("run_id") == run_dir.name else {}, repo_dir)
    if summary_file.exists():
        summary = json.loads(summary_file.read_text(encoding="utf-8"))
        # An ended run is in no phase and runs no attempts any more.
        info.pop("phase", None)
        info.pop("attempts", None)
        info.update(
            state=summary["status"],
            # Cycles done, as the run said at its end: not the one it had started.
            cycle=summary.get("cycles", info.get("cycle")),
            reason=summary.get("reason", ""),
            commits=len(summary.get("commits", [])),
            tokens=summary["tokens"]["total"],
            cost=summary["cost"],
        )
        if pull := summary.get("pull_request"):
            info["pull_request"] = str(pull.get("url", ""))
    # Plain hardened git, not gitpython: loading gitpython alone took a quarter of the
    # command's start-up budget.
    if (summary_line := head_summary(repo_dir)) is not None:
        info["last_commit"] = summary_line
    return info


def _read_stopped(info: dict[str, Any], state: dict[str, Any], repo_dir: Path) -> None:
    """A run that never wrote its end is `running` only while its process holds the
    repository's lock; otherwise it stopped, and how is said (it read `running` for a run
    that had failed on Docker, or been killed and cleaned up by `gc`)."""
    if live_run(repo_dir) == info["run_id"]:
        return
    info.pop("phase", None)
    info.pop("attempts", None)
    if state.get("state") == "failed":
        info.update(state="failed", reason=str(state.get("reason", ""))[:300])
        return
    info.update(
        state="stopped",
        reason="its process ended without finishing (killed, or the machine stopped): "
        "`tdd-sandbox run` here goes on from the last green commit",
    )
