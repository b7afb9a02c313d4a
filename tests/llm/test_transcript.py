from __future__ import annotations

import json
from pathlib import Path

import pytest

from tdd_sandbox.errors import UsageError
from tdd_sandbox.llm.chat import ChatReply, ChatRequest, InfrastructureError
from tdd_sandbox.llm.transcript import Recorder, Replayer, TranscriptWriter


class Echo:
    def __init__(self) -> None:
        self.calls = 0

    def complete(self, request: ChatRequest) -> ChatReply:
        self.calls += 1
        return ChatReply(text=f"{request.role}-{self.calls}", prompt_tokens=3, completion_tokens=2)


def _request(role: str) -> ChatRequest:
    return ChatRequest(role=role, model="m", messages=[], temperature=0.0, max_tokens=10)


def test_record_then_replay_gives_the_same_answers_per_role(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    recorder = Recorder(Echo(), TranscriptWriter(path, {"kata": "k"}))
    recorded = [recorder.complete(_request(role)) for role in ("tester", "implementer", "tester")]
    replayer = Replayer(path)
    assert replayer.header["kata"] == "k"
    # Replay is per role: the implementer's answer does not depend on interleaving.
    assert replayer.complete(_request("implementer")) == recorded[1]
    assert replayer.complete(_request("tester")) == recorded[0]
    assert replayer.complete(_request("tester")) == recorded[2]
    with pytest.raises(InfrastructureError, match="no more answers for the tester"):
        replayer.complete(_request("tester"))
    lines = path.read_text().splitlines()
    assert json.loads(lines[1])["messages"] == []


def test_bad_transcripts_are_one_line_errors(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="does not exist"):
        Replayer(tmp_path / "nope.jsonl")
    (tmp_path / "x.jsonl").write_text('{"hello": 1}\n')
    with pytest.raises(UsageError, match="not a tdd-sandbox transcript"):
        Replayer(tmp_path / "x.jsonl")
