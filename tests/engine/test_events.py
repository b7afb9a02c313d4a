"""Failure kinds and events as types, and as the log holds them."""

from __future__ import annotations

import json
from pathlib import Path

from tdd_sandbox.engine.events import (
    AttemptEnded,
    AttemptStarted,
    CycleStarted,
    EventName,
    Rejected,
)
from tdd_sandbox.engine.journal import Journal, read_state
from tdd_sandbox.engine.phases import Phase
from tdd_sandbox.engine.race import AttemptStatus
from tdd_sandbox.grading.evidence import TamperKind
from tdd_sandbox.vocabulary.failures import Failure


def test_every_piece_of_guard_evidence_is_a_tamper_kind() -> None:
    assert {Failure(kind.value) for kind in TamperKind} <= {f for f in Failure if f.is_tamper}
    assert not Failure.OVERSHOOT.is_tamper
    assert Failure.PERMISSION.is_tamper


def test_a_kind_this_version_does_not_know_reads_as_other() -> None:
    assert Failure.read("overshoot") is Failure.OVERSHOOT
    assert Failure.read("rejected") is Failure.OTHER  # the catch-all older logs hold
    assert Failure.read(None) is Failure.OTHER


def test_the_journal_writes_each_event_as_one_line_and_keeps_the_state(tmp_path: Path) -> None:
    journal = Journal(tmp_path, "run-1")
    journal.event(CycleStarted(3))
    journal.event(AttemptStarted(3, Phase.GREEN, 1, index=1, count=2, model="m"))
    journal.event(Rejected(3, Phase.GREEN, 1, "not green", Failure.NOT_GREEN, index=1))
    state = read_state(tmp_path)
    assert state is not None
    assert (state["cycle"], state["phase"]) == (3, "green")
    assert state["attempts"] == {"1": {"wave": 1, "model": "m", "status": "running"}}
    journal.event(AttemptEnded(3, Phase.GREEN, 1, AttemptStatus.FAILED, 0.5))
    state = read_state(tmp_path)
    assert state is not None
    assert state["attempts"]["1"]["status"] == "failed"
    lines = [json.loads(line) for line in (journal.dir / "log.jsonl").read_text().splitlines()]
    assert [line["event"] for line in lines] == [
        EventName.CYCLE,
        EventName.ATTEMPT,
        EventName.REJECTED,
        EventName.ATTEMPT_END,
    ]
    assert lines[2]["kind"] == "not_green"
    assert lines[2]["phase"] == "green"
