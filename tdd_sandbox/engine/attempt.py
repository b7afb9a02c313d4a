"""One attempt at any phase: ask the model, apply its plan, place it, run the gates, grade.

The phase's `PhaseSpec` says what differs between phases (who acts, which gates, which check);
the steps are the same for all. An attempt never raises: every ending is an `AttemptResult`,
so one broken attempt never ends a race or a run by itself. What it must tear down if it
loses a race (its HTTP client, its sandbox) it registers on its cancel token.
"""

from __future__ import annotations

import dataclasses
import functools
import time
from dataclasses import dataclass
from typing import Any

import git.exc

from tdd_sandbox.agents.agent import Agent
from tdd_sandbox.agents.context import Exchange, Situation
from tdd_sandbox.engine.edits import EditRejected, apply_plan
from tdd_sandbox.engine.events import AttemptEnded, AttemptStarted, Rejected
from tdd_sandbox.engine.race import AttemptResult, AttemptStatus
from tdd_sandbox.engine.specs import PhaseSpec, Unchanged
from tdd_sandbox.engine.workshop import Probing, Workshop
from tdd_sandbox.engine.workspace import Workspace, WorktreeSpace
from tdd_sandbox.engine.writing import check_on_disk
from tdd_sandbox.errors import SandboxUnavailable
from tdd_sandbox.grading.gates import GateReport
from tdd_sandbox.grading.verdicts import VerdictError, check_no_test_code, check_policy_of
from tdd_sandbox.llm.chat import InfrastructureError
from tdd_sandbox.llm.structured import PlanAnswer
from tdd_sandbox.protocol import EditPlan
from tdd_sandbox.vocabulary.cancel import Cancelled, CancelToken
from tdd_sandbox.vocabulary.failures import Failure

UNCHANGED = "unchanged"


@dataclass(frozen=True)
class Candidate:
    """A checked state, ready to land."""

    files: dict[str, bytes]
    report: GateReport
    plan: EditPlan
    new_test: str = ""
    """The new failing test (RED only)."""


@dataclass(frozen=True)
class Task:
    """One attempt's assignment: a phase, and where this attempt stands in it."""

    spec: PhaseSpec
    cycle: int
    wave: int
    index: int = 0
    previous_error: str = ""
    earlier: tuple[Exchange, ...] = ()
    """The conversation this attempt continues (its lane's last ask and answer)."""

    @property
    def step(self) -> str:
        """The name of the attempt's records in `.tdd/`."""
        suffix = f"-{self.index + 1}" if self.spec.count > 1 else ""
        return f"cycle-{self.cycle:03d}-{self.spec.phase}-{self.wave}{suffix}"


class _Ended(Exception):
    """An attempt that ends early without being refused (done, or nothing to change)."""

    def __init__(self, status: AttemptStatus, payload: Any = None) -> None:
        super().__init__(status.value)
        self.status = status
        self.payload = payload


def attempt(shop: Workshop, task: Task, token: CancelToken) -> AttemptResult:
    """Run one attempt to its end."""
    spec = task.spec
    started = time.monotonic()
    agent, abandon = shop.team.variant(spec.role, task.index, spec.count)
    token.register(abandon)
    shop.emit(AttemptStarted(task.cycle, spec.phase, task.wave, task.index, spec.count,
                             agent.said_model))  # fmt: skip
    workspace: Workspace = Workspace()
    probing: Probing | None = None
    status, error, kind, payload = AttemptStatus.FAILED, "", None, None
    exchange: Exchange | None = None
    try:
        if spec.count > 1:
            name = (shop.run_id, task.cycle, spec.phase.value, task.wave * 100 + task.index)
            workspace = WorktreeSpace(shop.repo, name, spec.head, spec.start)
        situation = dataclasses.replace(
            spec.context, previous_error=task.previous_error, earlier=task.earlier
        )
        answer, exchange = _ask(agent, situation, token)
        plan = _plan(shop, task, answer)
        files = _apply(shop, spec, plan)
        if spec.probe is not None:
            probing = Probing(shop, spec.probe, files, token)
        files, report = shop.judge(spec.start, files, spec.gates, workspace=workspace,
                                   token=token)  # fmt: skip
        _check_changed(spec, files)  # formatting may undo a change that was only layout
        new_test = spec.grade(files, report)
        if probing is not None:
            probing.verdict(files)
        status, payload = AttemptStatus.GREEN, Candidate(files, report, plan, new_test)
    except _Ended as ended:
        status, payload = ended.status, ended.payload
        error = UNCHANGED if status is AttemptStatus.UNCHANGED else ""
    except (EditRejected, VerdictError) as exc:
        error, kind = str(exc), exc.kind
    except InfrastructureError as exc:
        status, error, kind = AttemptStatus.ERROR, str(exc), Failure.INFRASTRUCTURE
    except (SandboxUnavailable, git.exc.GitError, OSError) as exc:
        status, error = AttemptStatus.ERROR, f"{type(exc).__name__}: {exc}"
        kind = Failure.SANDBOX
    finally:
        if probing is not None:
            probing.close()  # a refused candidate's probe runs end before its sandbox goes
        token.unregister(abandon)
        if spec.count > 1:
            abandon()  # this attempt's own HTTP client: done with it either way
        workspace.close()
    return _end(shop, task, agent, token, started,
                _Ending(status, error, kind, payload, exchange))  # fmt: skip


def _ask(agent: Agent, situation: Situation, token: CancelToken) -> tuple[PlanAnswer, Exchange]:
    """The model's answer and the exchange it makes, or the end of the attempt.

    Raises:
        _Ended: the attempt lost while waiting.
        InfrastructureError: the endpoint failed.
    """
    try:
        # Waited on apart from the request itself, so that losing the race or a stopped
        # run ends the wait at once, however long the endpoint takes to answer.
        proposal = token.call(functools.partial(agent.propose, situation))
    except Cancelled:
        raise _Ended(AttemptStatus.LOST) from None
    if token.cancelled:
        raise _Ended(AttemptStatus.LOST)
    return proposal


def _plan(shop: Workshop, task: Task, answer: PlanAnswer) -> EditPlan:
    """The answer's plan, or the end of the attempt.

    Raises:
        VerdictError: the answer is not a usable plan, or says done too early.
        _Ended: the tester has nothing left to test.
    """
    spec = task.spec
    if answer.plan is None:
        raise VerdictError(answer.error or "invalid answer", answer.kind)
    shop.journal.plan(task.step, answer.plan.plan)
    if answer.plan.done and spec.context.may_finish:
        if spec.too_early:
            raise VerdictError(spec.too_early, Failure.PREMATURE_DONE)
        raise _Ended(AttemptStatus.DONE, answer.plan)
    return answer.plan


def _apply(shop: Workshop, spec: PhaseSpec, plan: EditPlan) -> dict[str, bytes]:
    """The files after the plan, checked before anything is written or run.

    Raises:
        EditRejected, VerdictError: an edit the role may not make, or code the policy
            refuses.
        _Ended: a refactoring that changes nothing.
    """
    files = apply_plan(spec.start, plan, spec.role, shop.language, first_cycle=spec.first_cycle)
    _check_changed(spec, files)
    check_on_disk(shop.repo.path, spec.start, files)
    if spec.code_only:
        check_no_test_code(shop.language, spec.start, files)
    check_policy_of(shop.language, spec.start, files, shop.allow)
    return files


def _check_changed(spec: PhaseSpec, files: dict[str, bytes]) -> None:
    """Raises:
    VerdictError: an implementation that changes nothing.
    _Ended: a refactoring that changes nothing.
    """
    if spec.unchanged is Unchanged.JUDGED or files != dict(spec.start):
        return
    if spec.unchanged is Unchanged.QUIET:
        raise _Ended(AttemptStatus.UNCHANGED)
    raise VerdictError("the plan changes nothing: make the failing test pass", Failure.NO_CHANGE)


@dataclass(frozen=True)
class _Ending:
    status: AttemptStatus
    error: str
    kind: Failure | None
    payload: Any
    exchange: Exchange | None


def _end(
    shop: Workshop,
    task: Task,
    agent: Agent,
    token: CancelToken,
    started: float,
    ending: _Ending,
) -> AttemptResult:
    """Record how the attempt ended (a loser's failure is its loss) and report it."""
    status, error, kind = ending.status, ending.error, ending.kind
    if token.cancelled and status is not AttemptStatus.GREEN:
        status, error, kind = AttemptStatus.LOST, "cancelled: another attempt won", None
    seconds = round(time.monotonic() - started, 3)
    spec = task.spec
    shop.emit(AttemptEnded(task.cycle, spec.phase, task.index, status, seconds))
    record: dict[str, Any] = {
        "phase": spec.phase.value, "cycle": task.cycle, "wave": task.wave, "index": task.index,
        "model": agent.said_model, "status": status.value, "error": error, "kind": kind or "",
        "seconds": seconds,
    }  # fmt: skip
    if isinstance(ending.payload, Candidate) and ending.payload.new_test:
        record["new_test"] = ending.payload.new_test
    shop.journal.step(task.step, record)
    if status in (AttemptStatus.FAILED, AttemptStatus.ERROR):
        shop.emit(Rejected(task.cycle, spec.phase, task.wave, error[:300],
                           kind or Failure.OTHER, task.index))  # fmt: skip
    return AttemptResult(
        task.index, status, agent.said_model, error, seconds, ending.payload, ending.exchange,
        kind,
    )  # fmt: skip
