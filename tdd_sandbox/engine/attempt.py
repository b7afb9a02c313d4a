"""One attempt at a phase: ask the model, apply its plan, judge it in a sandbox.

An attempt that races others works in its own git worktree (made from HEAD, with the RED
test written in) and its own container, and registers both, with its HTTP client, on its
cancel token so that losing tears everything down at once. A lone attempt needs no worktree:
its candidate is the same files in memory, shipped the same way.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import git.exc

from tdd_sandbox.agents.context import Situation
from tdd_sandbox.agents.team import Team
from tdd_sandbox.engine.edits import EditRejected, Role, apply_plan, check_on_disk, write_changes
from tdd_sandbox.engine.events import (
    AttemptEnded,
    AttemptStarted,
    Event,
    Formatted,
    GatesRan,
    Rejected,
)
from tdd_sandbox.engine.journal import Journal
from tdd_sandbox.engine.phases import Phase
from tdd_sandbox.engine.race import AttemptResult, AttemptStatus, CancelToken
from tdd_sandbox.errors import SandboxUnavailable
from tdd_sandbox.execution.base import Runtime
from tdd_sandbox.execution.formatting import changed_paths
from tdd_sandbox.grading.failures import Failure
from tdd_sandbox.grading.gates import GateReport
from tdd_sandbox.grading.verdicts import VerdictError, check_no_test_code, check_policy_of
from tdd_sandbox.languages.base import GateKind, Language
from tdd_sandbox.llm.chat import InfrastructureError
from tdd_sandbox.protocol import EditPlan
from tdd_sandbox.repo.hardened import HardenedRepo
from tdd_sandbox.repo.worktrees import create_worktree, remove_worktree
from tdd_sandbox.sandbox.snapshot import Snapshot
from tdd_sandbox.settings import Settings

Emit = Callable[[Event], None]


@dataclass(frozen=True)
class Candidate:
    """A checked green state, ready to land."""

    files: dict[str, bytes]
    report: GateReport
    plan: EditPlan


@dataclass(frozen=True)
class Workshop:
    """What every attempt works with."""

    repo: HardenedRepo
    language: Language
    runtime: Runtime
    settings: Settings
    team: Team
    journal: Journal
    emit: Emit
    run_id: str
    allow: frozenset[str] = frozenset()
    """Policy rules the kata allows (its front matter's `allow:`)."""

    def evaluate(
        self,
        files: Mapping[str, bytes],
        kinds: frozenset[GateKind] | None,
        *,
        snapshot: Snapshot | None = None,
        token: CancelToken | None = None,
    ) -> GateReport:
        """Run gates on `files` (or the given snapshot of them) in a fresh sandbox.

        Raises:
            SandboxUnavailable: the sandbox failed, or was torn down by a cancellation.
        """
        return self._gates(files, kinds, snapshot, token, ())[0]

    def judge(
        self,
        before: Mapping[str, bytes],
        files: Mapping[str, bytes],
        kinds: frozenset[GateKind] | None,
        *,
        snapshot: Snapshot | None = None,
        token: CancelToken | None = None,
        place: Callable[[Mapping[str, bytes]], Snapshot] | None = None,
    ) -> tuple[dict[str, bytes], GateReport]:
        """Run gates on a model's `files` (changed from `before`). When the format gate
        fails (and `autoformat` is on), the changed files are formatted in the sandbox and
        judged again from scratch; `place` puts formatted files where `snapshot` came from
        and returns the new snapshot.

        Returns:
            The files judged (formatted or as written) and their report.

        Raises:
            SandboxUnavailable: the sandbox failed, or was torn down by a cancellation.
        """
        paths = changed_paths(before, files) if self.settings.autoformat else []
        report, formatted = self._gates(files, kinds, snapshot, token, paths)
        if formatted is None or formatted == files:
            return dict(files), report
        self.emit(Formatted(changed_paths(files, formatted)))
        snapshot = place(formatted) if place is not None else None
        return formatted, self._gates(formatted, kinds, snapshot, token, ())[0]

    def _gates(
        self,
        files: Mapping[str, bytes],
        kinds: frozenset[GateKind] | None,
        snapshot: Snapshot | None,
        token: CancelToken | None,
        tidy: Sequence[str],
    ) -> tuple[GateReport, dict[str, bytes] | None]:
        started = time.monotonic()
        checked = self.runtime.check(
            self.language, files, kinds=kinds, snapshot=snapshot, token=token, tidy=tidy
        )
        report = checked.report
        gates = {g.kind.value: g.status.value for g in report.gates}
        self.emit(GatesRan(report.ok, gates, round(time.monotonic() - started, 3)))
        return report, checked.formatted


@dataclass(frozen=True)
class Task:
    """One attempt's assignment."""

    phase: Phase
    role: Role
    cycle: int
    wave: int
    index: int
    count: int
    head: Mapping[str, bytes]
    """The files at HEAD, which a worktree starts from."""
    start: Mapping[str, bytes]
    """The files the attempt changes (the RED state, or HEAD for a refactoring)."""
    situation: Situation
    check: Callable[[Mapping[str, bytes], GateReport], None]
    """Raises VerdictError unless the candidate is good enough to land."""

    @property
    def step(self) -> str:
        """The name of the attempt's records in `.tdd/`."""
        suffix = f"-{self.index + 1}" if self.count > 1 else ""
        return f"cycle-{self.cycle:03d}-{self.phase}-{self.wave}{suffix}"


UNCHANGED = "unchanged"


def attempt(shop: Workshop, task: Task, token: CancelToken) -> AttemptResult:
    """Run one attempt to its end. Never raises: every ending is an `AttemptResult`."""
    started = time.monotonic()
    agent, abandon = shop.team.variant(task.role, task.index, task.count)
    token.register(abandon)
    record: dict[str, Any] = {
        "phase": task.phase, "cycle": task.cycle, "wave": task.wave,
        "index": task.index, "model": agent.model,
    }  # fmt: skip
    shop.emit(AttemptStarted(task.cycle, task.phase, task.wave, task.index, task.count,
                             agent.model))  # fmt: skip

    def end(
        status: AttemptStatus, error: str = "", payload: Any = None, kind: Failure | None = None
    ) -> AttemptResult:
        if token.cancelled and status is not AttemptStatus.GREEN:
            status, error = AttemptStatus.LOST, "cancelled: another attempt won"
        seconds = time.monotonic() - started
        shop.emit(AttemptEnded(task.cycle, task.phase, task.index, status, round(seconds, 3)))
        ended = {"status": status.value, "error": error, "kind": kind or ""}
        shop.journal.step(task.step, {**record, **ended, "seconds": round(seconds, 3)})
        if status in (AttemptStatus.FAILED, AttemptStatus.ERROR) and error != UNCHANGED:
            shop.emit(Rejected(task.cycle, task.phase, task.wave, error[:300],
                               kind or Failure.OTHER, task.index))  # fmt: skip
        return AttemptResult(task.index, status, agent.model, error, seconds, payload)

    worktree = None
    try:
        if task.count > 1:
            worktree = create_worktree(
                shop.repo, shop.run_id, task.cycle, task.phase, task.wave * 100 + task.index
            )
        answer = agent.propose(task.situation)
        if token.cancelled:
            return end(AttemptStatus.LOST)
        if answer.plan is None:
            return end(AttemptStatus.FAILED, answer.error or "invalid answer", kind=answer.kind)
        shop.journal.plan(task.step, answer.plan.plan)
        files = apply_plan(task.start, answer.plan, task.role, shop.language)
        if unchanged := _unchanged(task, files, end):
            return unchanged
        check_on_disk(shop.repo.path, task.start, files)
        check_no_test_code(shop.language, task.start, files)
        check_policy_of(shop.language, task.start, files, shop.allow)
        snapshot, place = None, None
        if worktree is not None:
            write_changes(worktree.path, task.head, task.start)
            tree = worktree.path
            written: Mapping[str, bytes] = task.start

            def place(new: Mapping[str, bytes]) -> Snapshot:
                nonlocal written
                write_changes(tree, written, new)
                written = new
                placed = Snapshot.from_directory(tree)
                if dict(placed.files) != new:
                    raise VerdictError(
                        "the worktree does not hold the planned files", Failure.SANDBOX
                    )
                return placed

            snapshot = place(files)
        files, report = shop.judge(
            task.start, files, None, snapshot=snapshot, token=token, place=place
        )
        if unchanged := _unchanged(task, files, end):  # formatting undid a layout change
            return unchanged
        task.check(files, report)
        return end(AttemptStatus.GREEN, payload=Candidate(files, report, answer.plan))
    except (EditRejected, VerdictError) as exc:
        return end(AttemptStatus.FAILED, str(exc), kind=exc.kind)
    except InfrastructureError as exc:
        return end(AttemptStatus.ERROR, str(exc), kind=Failure.INFRASTRUCTURE)
    except (SandboxUnavailable, git.exc.GitError, OSError) as exc:
        if token.cancelled:
            return end(AttemptStatus.LOST)
        return end(AttemptStatus.ERROR, f"{type(exc).__name__}: {exc}", kind=Failure.SANDBOX)
    finally:
        token.unregister(abandon)
        if task.count > 1:
            abandon()  # this attempt's own HTTP client: done with it either way
        if worktree is not None:
            remove_worktree(shop.repo, worktree)


def _unchanged(
    task: Task, files: Mapping[str, bytes], end: Callable[..., AttemptResult]
) -> AttemptResult | None:
    """A refactoring that changes nothing ends quietly; any other role is told.

    Raises:
        VerdictError: an implementation that changes nothing.
    """
    if files != dict(task.start):
        return None
    if task.role is Role.REFACTORER:
        return end(AttemptStatus.UNCHANGED, UNCHANGED)
    raise VerdictError("the plan changes nothing: make the failing test pass", Failure.NO_CHANGE)
