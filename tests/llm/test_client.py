"""The live client against a scripted server on a real socket."""

from __future__ import annotations

import socket
import time

import pytest

from tdd_sandbox.errors import ConfigError, PrerequisiteError
from tdd_sandbox.llm.chat import ChatReply, ChatRequest, InfrastructureError
from tdd_sandbox.llm.client import OpenAIBackend
from tdd_sandbox.llm.endpoint import Endpoint, resolve_endpoint
from tdd_sandbox.llm.structured import PlanAsker, parse_plan
from tdd_sandbox.settings import LlmSettings, RoleSettings
from tests.helpers.fake_llm import Answer, FakeLLM, plan

SECRET = "sk-test-secret-value-1234"


def _request(model: str = "m") -> ChatRequest:
    return ChatRequest(
        role="tester", model=model, messages=[{"role": "user", "content": "hi"}],
        temperature=0.0, max_tokens=100,
    )  # fmt: skip


def _backend(fake: FakeLLM, retries: int = 3) -> OpenAIBackend:
    endpoint = Endpoint("custom", fake.base_url, "m", "KEY_VAR", SECRET)
    return OpenAIBackend(endpoint, timeout_s=5, max_retries=retries)


def test_a_429_storm_is_waited_out_as_the_server_asks() -> None:
    storm = [Answer(status=429, headers={"retry-after": "0.2"}) for _ in range(3)]
    with FakeLLM({"m": [*storm, Answer(text="hello")]}) as fake:
        started = time.monotonic()
        reply = _backend(fake, retries=3).complete(_request())
        assert reply.text == "hello"
        assert time.monotonic() - started >= 0.6  # three Retry-After waits honoured
        assert len(fake.requests) == 4


def test_retries_are_bounded_and_end_as_infrastructure() -> None:
    with FakeLLM({"m": [Answer(status=503) for _ in range(10)]}) as fake:
        with pytest.raises(InfrastructureError, match="HTTP 503"):
            _backend(fake, retries=2).complete(_request())
        assert len(fake.requests) == 3  # one try and two retries, then it stops


def test_an_endpoint_that_is_down() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    endpoint = Endpoint("custom", f"http://127.0.0.1:{port}/v1", "m", None, "")
    with pytest.raises(InfrastructureError, match="did not answer"):
        OpenAIBackend(endpoint, timeout_s=2, max_retries=1).complete(_request())


def test_a_refused_key_is_named_but_never_shown() -> None:
    with FakeLLM({"m": [Answer(status=401)]}) as fake, pytest.raises(InfrastructureError) as info:
        _backend(fake).complete(_request())
    assert "KEY_VAR" in str(info.value)
    assert SECRET not in str(info.value)
    assert SECRET not in repr(Endpoint("custom", "u", "m", "KEY_VAR", SECRET))


def test_structured_output_falls_back_when_json_schema_is_refused() -> None:
    good = plan(("a.py", "x = 1\n"))
    good.reject_schema = True
    with FakeLLM({"m": [good, plan(("b.py", "y = 2\n"))]}) as fake:
        asker = PlanAsker(_backend(fake))
        first = asker.ask(lambda _: _request())
        assert first.plan is not None
        assert first.mode == "json_object"
        assert fake.requests[0]["response_format"]["type"] == "json_schema"
        assert fake.requests[1]["response_format"] == {"type": "json_object"}
        second = asker.ask(lambda _: _request())
        assert second.mode == "json_object"  # remembered: no second refusal
        assert len(fake.requests) == 3


@pytest.mark.parametrize(
    ("text", "finish", "message"),
    [
        ("not json at all", "stop", "no valid JSON object"),
        ('{"plan": "x", "edits": [', "length", "cut off at the token limit"),
        ('{"plan": "x", "edits": [], "done": false}', "stop", "commit_message"),
        (
            '{"plan": 1, "edits": [], "commit_message": "c", "done": false, "x": 1}',
            "stop",
            "schema",
        ),
        ("", "stop", "empty"),
    ],
)
def test_bad_answers_become_feedback(text: str, finish: str, message: str) -> None:
    from tdd_sandbox.llm.structured import PlanError

    with pytest.raises(PlanError, match=message):
        parse_plan(ChatReply(text=text, finish_reason=finish))


def test_json_is_found_inside_fences_and_prose() -> None:
    text = 'Sure!\n```json\n{"plan": "p", "edits": [], "commit_message": "c", "done": true}\n```'
    assert parse_plan(ChatReply(text=text)).done


def test_endpoint_resolution(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    role = RoleSettings(model="openai:gpt-4.1-mini")
    endpoint = resolve_endpoint("tester", role, LlmSettings())
    assert (endpoint.base_url, endpoint.model, endpoint.api_key) == (
        "https://api.openai.com/v1", "gpt-4.1-mini", SECRET,
    )  # fmt: skip
    local = resolve_endpoint("tester", RoleSettings(model="ollama:qwen2.5-coder"), LlmSettings())
    assert local.base_url == "http://localhost:11434/v1"
    own = RoleSettings(model="openai:x", base_url="http://127.0.0.1:1/v1", api_key_env="MY_KEY")
    assert resolve_endpoint("tester", own, LlmSettings()).api_key_env == "MY_KEY"
    with pytest.raises(ConfigError, match="custom needs a base_url"):
        resolve_endpoint("tester", RoleSettings(model="custom:x"), LlmSettings())
    monkeypatch.delenv("OPENAI_API_KEY")
    with pytest.raises(PrerequisiteError, match="OPENAI_API_KEY is not set"):
        resolve_endpoint("tester", role, LlmSettings())
