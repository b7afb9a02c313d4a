"""`tdd-sandbox step`: one phase at a time, for debugging a kata or a model.

A RED step leaves its checked failing test in `.tdd/pending.json` (not in git: only green
states are committed); the GREEN step after it starts from there and commits the cycle; the
REFACTOR step after that ends the cycle. Pending state is tied to HEAD: if HEAD moves, it is
dropped and the next step starts a new cycle.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tdd_sandbox.engine.phases import Phase, Red
from tdd_sandbox.engine.session import next_cycle, open_session
from tdd_sandbox.llm.chat import InfrastructureError
from tdd_sandbox.protocol import EditPlan
from tdd_sandbox.settings import Settings
from tdd_sandbox.vocabulary.files import TDD_DIR, write_atomic

PENDING = "pending.json"


@dataclass
class StepResult:
    """What one step did."""

    phase: str
    status: str
    """ok, completed (the tester said done), stuck or error."""
    detail: str
    commits: list[str] = field(default_factory=list)
    next_phase: str = ""

    def to_json(self) -> dict[str, Any]:
        """The `--json` document."""
        return vars(self)


def _pending_path(repo_dir: Path) -> Path:
    return repo_dir / TDD_DIR / PENDING


def _load_pending(repo_dir: Path, head: str) -> dict[str, Any] | None:
    try:
        pending: dict[str, Any] = json.loads(_pending_path(repo_dir).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return pending if pending.get("head") == head else None


def _save_pending(repo_dir: Path, data: dict[str, Any] | None) -> None:
    path = _pending_path(repo_dir)
    if data is None:
        path.unlink(missing_ok=True)
    else:
        write_atomic(path, json.dumps(data, indent=2))


def step_kata(kata_file: Path, settings: Settings, **options: Any) -> StepResult:
    """Run the next phase of the current cycle.

    Raises:
        UsageError, ConfigError, PrerequisiteError: as `run_kata`.
    """
    with open_session(kata_file, settings, **options) as session:
        loop, directory = session.loop, session.directory
        base = loop.start()
        head = session.repo.repo.head.commit.hexsha
        pending = _load_pending(directory, head)
        try:
            if pending is None:
                number = next_cycle(session.repo)
                red, outcome = loop.red(number, base, first_cycle=number == 1)
                if outcome.done:
                    return StepResult("red", "completed", "the tester found nothing left to test")
                if red is None:
                    return StepResult("red", "stuck", outcome.error)
                changes = {
                    path: (red.files[path].decode() if path in red.files else None)
                    for path in set(red.files) | set(base.files)
                    if red.files.get(path) != base.files.get(path)
                }
                _save_pending(directory, {
                    "head": head, "phase": Phase.GREEN.value, "cycle": number,
                    "changes": changes, "new_test": red.new_test, "test_output": red.test_output,
                    "plan": red.plan.model_dump(), "attempts": red.attempts,
                })  # fmt: skip
                return StepResult("red", "ok", f"failing test {red.new_test}", next_phase="green")
            number = int(pending["cycle"])
            if pending["phase"] == Phase.GREEN.value:
                files = dict(base.files)
                for path, text in pending["changes"].items():
                    if text is None:
                        files.pop(path, None)
                    else:
                        files[path] = text.encode()
                red = Red(
                    files, pending["new_test"], pending["test_output"],
                    EditPlan.model_validate(pending["plan"]), int(pending["attempts"]),
                )  # fmt: skip
                green, outcome = loop.green(number, base, red)
                if green is None:
                    return StepResult("green", "stuck", outcome.error, next_phase="green")
                loop.land_green(number, base, red, green, outcome.attempts)
                new_head = session.repo.repo.head.commit.hexsha
                _save_pending(directory, {"head": new_head, "phase": "refactor", "cycle": number})
                return StepResult("green", "ok", "committed", loop.commits, next_phase="refactor")
            loop.refactor(number, base)
            _save_pending(directory, None)
            detail = "committed" if loop.commits else "nothing changed"
            return StepResult("refactor", "ok", detail, loop.commits, next_phase="red")
        except InfrastructureError as exc:
            return StepResult(pending["phase"] if pending else "red", "error", str(exc))
