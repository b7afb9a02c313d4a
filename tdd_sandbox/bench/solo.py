"""What the single-role modes share (`--mode implement`, `--mode test`): a try's edits, and
the job's figures in the loop's terms."""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass
from typing import Any

from tdd_sandbox.agents.agent import Agent
from tdd_sandbox.agents.context import Exchange, Situation
from tdd_sandbox.engine.edits import EditRejected, apply_plan, check_path
from tdd_sandbox.llm.usage import UsageLedger
from tdd_sandbox.protocol import EditPlan
from tdd_sandbox.vocabulary.cancel import CancelToken
from tdd_sandbox.vocabulary.failures import Failure
from tdd_sandbox.vocabulary.roles import Role


@dataclass(frozen=True)
class Try:
    """One try of a role working alone."""

    files: dict[str, bytes]
    """The files after its edits (as they were, when its edits were refused)."""
    feedback: str
    """What the next try is told of a refusal ("" when the edits were applied)."""
    exchange: Exchange
    """Its ask and the model's answer, for the next try's conversation."""


def try_edits(
    agent: Agent,
    situation: Situation,
    kinds: Counter[Failure],
    stop: CancelToken,
    *,
    first_cycle: bool = False,
) -> Try:
    """One try of `agent`'s. Edits are checked as the loop checks its role's, before any is
    applied; a refusal is counted in `kinds` and leaves the files as they were.

    Raises:
        InfrastructureError: the endpoint is unusable.
        Cancelled: the bench was stopped while the model was asked.
    """
    answer, exchange = stop.call(functools.partial(agent.propose, situation))
    try:
        if answer.plan is None:
            raise EditRejected(answer.error or "no edit plan", answer.kind)
        if not answer.plan.edits:
            # Working alone, a role has one thing to do: an answer that writes nothing is a
            # failed try with its reason, never a row with none.
            where = f": write {situation.target}" if situation.target else ""
            raise EditRejected(f"the answer changed no file{where}", Failure.NO_CHANGE)
        plan, ignored = _own_files(answer.plan, agent.role, situation)
        files = apply_plan(
            situation.files, plan, agent.role, situation.language, first_cycle=first_cycle
        )
        if ignored:
            kinds[Failure.PERMISSION] += 1
            return Try(files, f"Your changes to {', '.join(ignored)} were ignored: the tests "
                       "are not yours to change.", exchange)  # fmt: skip
    except EditRejected as refused:
        kinds[refused.kind] += 1
        return Try(dict(situation.files), f"Your edits were refused: {refused}", exchange)
    return Try(files, "", exchange)


def _own_files(plan: EditPlan, role: Role, situation: Situation) -> tuple[EditPlan, list[str]]:
    """An implementer working alone keeps its code when its answer also wrote the tests it
    was shown, as aider's harness keeps it (the judge never runs the model's copy of the
    tests): those edits are set aside, and named (`ignored`) where they changed more than an
    echo cut short by the token limit. In the loop a test the implementer touched refuses
    the whole attempt, since there its tests are the ones run."""
    if role is not Role.IMPLEMENTER:
        return plan, []
    # Paths as apply_plan reads them; a bad one is refused there, with the rest.
    tests = [e for e in plan.edits if situation.language.is_test_path(check_path(e.path))]
    if not tests:
        return plan, []
    ignored = [
        e.path for e in tests
        if not _cut_echo(situation.files.get(check_path(e.path), b""), e.content)
    ]  # fmt: skip
    kept = [e for e in plan.edits if e not in tests]
    return plan.model_copy(update={"edits": kept}), ignored


def _cut_echo(data: bytes, content: str) -> bool:
    """Whether `content` is the start of `data`'s text, line for line (trailing spaces aside):
    the file shown, written back until the answer ran out of tokens."""
    shown = [line.rstrip() for line in data.decode("utf-8", "replace").splitlines()]
    written = [line.rstrip() for line in content.rstrip("\n").splitlines()]
    return bool(written) and shown[: len(written)] == written


def solo_metrics(
    ledger: UsageLedger, kinds: Counter[Failure], *, wall_s: float, gate_s: float
) -> dict[str, Any]:
    """A job of one role (`--mode implement` or `test`) in the loop's figures: no cycle, no
    red; its tries refused or caught forging by kind (`kinds`), counted as the loop counts
    them, its time and usage."""
    usage = ledger.by_role()
    return {
        "cycles": 0,
        "red_events": 0,
        "overshoot_events": 0,
        "tamper_events": sum(n for kind, n in kinds.items() if kind.is_tamper),
        "tamper_by_kind": {k.value: n for k, n in sorted(kinds.items()) if k.is_tamper},
        "rejected_attempts": sum(kinds.values()),
        "rejections_by_kind": {k.value: n for k, n in sorted(kinds.items())},
        "wall_time_s": round(wall_s, 3),
        "model_time_s": round(sum(u.model_time_s for u in usage.values()), 3),
        "gate_time_s": round(gate_s, 3),
        "tokens": {role: u.tokens for role, u in usage.items()},
        "cost": {role: round(u.cost, 6) for role, u in usage.items()},
    }
