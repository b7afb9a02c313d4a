"""Each edit format's parser on answers real models gave (recorded from the bundled small
models behind llama.cpp; `tests/fixtures/answers/*.jsonl`), served by a real HTTP server
speaking the chat API: what each answer comes to (its files, or its failure's kind) stays
pinned when a parser changes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tdd_sandbox.llm.chat import ChatRequest
from tdd_sandbox.llm.client import OpenAIBackend
from tdd_sandbox.llm.endpoint import Endpoint
from tdd_sandbox.llm.formats import Ask, EditFormat
from tdd_sandbox.llm.structured import PlanAsker
from tests.helpers.fake_llm import Answer, FakeLLM

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "answers"
RECORDED = [
    json.loads(line)
    for path in sorted(FIXTURES.glob("*.jsonl"))
    for line in path.read_text(encoding="utf-8").splitlines()
    if line.strip()
]


def _request(fmt: EditFormat) -> ChatRequest:
    return ChatRequest(
        role="implementer", model="m", messages=[{"role": "user", "content": fmt.value}],
        temperature=0.0, max_tokens=1024,
    )  # fmt: skip


@pytest.mark.parametrize("recorded", RECORDED, ids=[r["name"] for r in RECORDED])
def test_a_recorded_answer_comes_to_what_it_did(recorded: dict[str, Any]) -> None:
    answer = Answer(text=recorded["text"], finish_reason=recorded["finish_reason"])
    files = {path: text.encode() for path, text in recorded.get("files", {}).items()}
    ask = Ask(
        recorded["target"], files, may_finish=recorded.get("may_finish", False),
        may_keep=recorded.get("may_keep", False), question=recorded.get("question", ""),
    )  # fmt: skip
    with FakeLLM({"m": [answer]}) as fake:
        endpoint = Endpoint("custom", fake.base_url, "m", None, "")
        backend = OpenAIBackend(endpoint, timeout_s=5, max_retries=0)
        result = PlanAsker(backend, EditFormat(recorded["format"])).ask(_request, ask)
        backend.close()
    expected = recorded["expect"]
    if "kind" in expected:
        assert result.plan is None
        assert result.kind == expected["kind"], result.error
        assert result.error  # a reason that goes back to the model
    else:
        assert result.plan is not None, result.error
        written = {edit.path: edit.content for edit in result.plan.edits}
        assert sorted(written) == expected["paths"]
        for path, needle in expected.get("contains", {}).items():
            assert needle in written[path]
        for path, end in expected.get("endswith", {}).items():
            assert written[path].endswith(end)
        for path, start in expected.get("startswith", {}).items():
            assert written[path].startswith(start)


def test_the_recordings_cover_what_issue_44_names() -> None:
    # No recorded answer yet has a SEARCH that matches twice: in every diff answer recorded the
    # 0.5B model copied the example or wrote no divider (tests/llm/test_diff.py covers it).
    kinds = {r["expect"].get("kind", "plan") for r in RECORDED}
    assert {"echo", "no_change", "invalid", "plan"} <= kinds
    # A runaway cut off by the token limit: its code is judged, up to its last whole line.
    assert any(r["finish_reason"] == "length" and "paths" in r["expect"] for r in RECORDED)
    assert {r["format"] for r in RECORDED} >= {"whole", "diff", "json"}
