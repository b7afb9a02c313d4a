"""`.tdd/`: the plan of each step, a JSON record per step, an append-only log, a summary.

Kept out of git through `.git/info/exclude`; everything is written atomically (a temporary
file renamed into place) except the log, which only ever grows by whole lines.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tdd_sandbox.engine.events import AttemptEnded, AttemptStarted, CycleStarted, Event
from tdd_sandbox.engine.phases import Phase
from tdd_sandbox.errors import TddSandboxError
from tdd_sandbox.vocabulary.files import TDD_DIR, write_atomic

STATE_FILE = "state.json"


class Journal:
    """The records of one run under `<repo>/.tdd/runs/<run_id>/`."""

    def __init__(self, repo_root: Path, run_id: str) -> None:
        self.root = repo_root / TDD_DIR
        self.dir = run_dir(repo_root, run_id)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.run_id = run_id
        self._lock = threading.Lock()
        self._state: dict[str, Any] = {"run_id": run_id, "state": "running", "attempts": {}}
        write_atomic(self.root / "latest.json", json.dumps({"run_id": run_id}))
        write_atomic(self.root / STATE_FILE, json.dumps(self._state))

    def event(self, event: Event) -> None:
        """Append the event to `log.jsonl`, and keep the state file up to date with it."""
        data = {"ts": round(time.time(), 3), "event": event.name.value, **event.fields()}
        line = json.dumps(data, default=str)
        with self._lock, (self.dir / "log.jsonl").open("a", encoding="utf-8") as handle:
            handle.write(line + "\n")
        match event:
            case CycleStarted(cycle=cycle):
                self.state(cycle=cycle, phase=Phase.RED.value, attempts={})
            case AttemptStarted(phase=phase, attempt=wave, index=index, model=model):
                self.state(phase=phase.value)
                self.attempt_state(index, wave=wave, model=model or None, status="running")
            case AttemptEnded(index=index, status=status):
                self.attempt_state(index, status=status.value)

    @contextlib.contextmanager
    def failure_noted(self) -> Iterator[None]:
        """Record in the state file that the run failed, and why, when the block raises
        (a stop aside): `status` says so, where it said `running` for a run that had
        failed on Docker."""
        try:
            yield
        except Exception as exc:
            said = str(exc) if isinstance(exc, TddSandboxError) else f"{type(exc).__name__}: {exc}"
            self.state(state="failed", reason=said[:300])
            raise

    def plan(self, step: str, text: str) -> None:
        """Keep the plan a model gave for `step`."""
        write_atomic(self.dir / "plans" / f"{step}.md", text)

    def step(self, step: str, record: dict[str, Any]) -> None:
        """Keep the JSON record of `step`."""
        write_atomic(self.dir / "steps" / f"{step}.json", json.dumps(record, indent=2, default=str))

    def summary(self, data: dict[str, Any]) -> None:
        """Write the run summary; the run is no longer `running` in the state file."""
        write_atomic(self.dir / "summary.json", json.dumps(data, indent=2, default=str))
        self.state(state=str(data.get("status", "ended")), attempts={})

    def attempt_state(self, index: int, **fields: Any) -> None:
        """Update one racing attempt's entry in the state file."""
        with self._lock:
            attempts = dict(self._state.get("attempts", {}))
            attempts[str(index)] = {**attempts.get(str(index), {}), **fields}
            self._state["attempts"] = attempts
        self.state()

    def state(self, **fields: Any) -> None:
        """Merge `fields` into `.tdd/state.json`: what the run is doing right now. It is
        rewritten atomically at each change, so after a crash it still says where the run
        was, and that it never finished."""
        with self._lock:
            self._state.update(fields)
            text = json.dumps(self._state, indent=2, default=str)
            write_atomic(self.root / STATE_FILE, text)


def run_dir(repo_root: Path, run_id: str) -> Path:
    """The folder of run `run_id`'s records."""
    return repo_root / TDD_DIR / "runs" / run_id


def read_events(folder: Path) -> list[dict[str, Any]]:
    """The events of the run whose records are in `folder`, oldest first."""
    events = []
    try:
        lines = (folder / "log.jsonl").read_text(encoding="utf-8").splitlines()
    except OSError:
        return []
    for line in lines:
        try:
            events.append(json.loads(line))
        except ValueError:
            continue  # a line cut short by a crash: the rest still counts
    return events


def latest_run(repo_root: Path) -> Path | None:
    """The directory of the most recent run, if any."""
    pointer = repo_root / TDD_DIR / "latest.json"
    try:
        run_id = json.loads(pointer.read_text(encoding="utf-8"))["run_id"]
    except (OSError, ValueError, KeyError):
        return None
    path = run_dir(repo_root, str(run_id))
    return path if path.is_dir() else None


def read_state(repo_root: Path) -> dict[str, Any] | None:
    """The state file of the last run, if any."""
    try:
        data: dict[str, Any] = json.loads((repo_root / TDD_DIR / STATE_FILE).read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return data
