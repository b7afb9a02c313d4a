"""The live client against a scripted server on a real socket."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tdd_sandbox.closing import Closing
from tdd_sandbox.errors import ConfigError, PrerequisiteError
from tdd_sandbox.llm.chat import ChatReply, ChatRequest, InfrastructureError
from tdd_sandbox.llm.client import OpenAIBackend
from tdd_sandbox.llm.endpoint import Endpoint, resolve_endpoint
from tdd_sandbox.llm.formats import Ask
from tdd_sandbox.llm.structured import PlanAsker, parse_plan
from tdd_sandbox.settings import LlmSettings, RoleSettings, load_settings
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
    # The server asks for no wait: the bound is what is tested, not the back-off.
    answers = [Answer(status=503, headers={"retry-after": "0"}) for _ in range(10)]
    with FakeLLM({"m": answers}) as fake:
        with pytest.raises(InfrastructureError, match="HTTP 503"):
            _backend(fake, retries=2).complete(_request())
        assert len(fake.requests) == 3  # one try and two retries, then it stops


def test_an_endpoint_nothing_listens_at_is_said_at_once() -> None:
    # A refused connection took 20 s of retries (three tries, backing off) to be said.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    endpoint = Endpoint("custom", f"http://127.0.0.1:{port}/v1", "m", None, "")
    said: list[str] = []
    backend = OpenAIBackend(endpoint, timeout_s=2, max_retries=3, notify=said.append)
    with pytest.raises(InfrastructureError, match=r"nothing listens at .* \(connection refused\)"):
        backend.complete(_request())
    assert said == []  # no retry


def test_an_endpoint_that_went_away_mid_run_is_retried() -> None:
    # A server restarting after it answered may come back: that is worth the retries.
    said: list[str] = []
    with FakeLLM({"m": [Answer(text="first")]}) as fake:
        endpoint = Endpoint("custom", fake.base_url, "m", None, "")
        backend = OpenAIBackend(endpoint, timeout_s=2, max_retries=1, notify=said.append)
        assert backend.complete(_request()).text == "first"
    with pytest.raises(InfrastructureError, match="did not answer after 2 tries"):
        backend.complete(_request())
    assert len(said) == 1


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
        first = asker.ask(lambda _: _request(), Ask())
        assert first.plan is not None
        assert first.mode == "json_object"
        assert fake.requests[0]["response_format"]["type"] == "json_schema"
        assert fake.requests[1]["response_format"] == {"type": "json_object"}
        second = asker.ask(lambda _: _request(), Ask())
        assert second.mode == "json_object"  # remembered: no second refusal
        assert len(fake.requests) == 3


@pytest.mark.parametrize(
    ("text", "finish", "message"),
    [
        ("not json at all", "stop", "no valid JSON object"),
        ('{"plan": "x", "edits": [', "length", "ran out of room before the JSON ended"),
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
    monkeypatch.setenv("MY_KEY", "k")
    assert resolve_endpoint("tester", own, LlmSettings()).api_key_env == "MY_KEY"
    with pytest.raises(ConfigError, match="custom needs a base_url"):
        resolve_endpoint("tester", RoleSettings(model="custom:x"), LlmSettings())
    monkeypatch.delenv("OPENAI_API_KEY")
    with pytest.raises(PrerequisiteError, match="OPENAI_API_KEY is not set"):
        resolve_endpoint("tester", role, LlmSettings())


class _Html(Closing):
    """An endpoint that answers 200 with an HTML page (a web server, not the chat API)."""

    def __init__(self, delay_s: float = 0.0) -> None:
        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                return

            def do_POST(self) -> None:
                time.sleep(delay_s)
                body = b"<html><body>It works!</body></html>"
                self.send_response(200)
                self.send_header("content-type", "text/html")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                with contextlib.suppress(OSError):
                    self.wfile.write(body)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        # shutdown() waits for the next poll: the default half second, on every test.
        serve = self._server.serve_forever
        threading.Thread(target=serve, kwargs={"poll_interval": 0.02}, daemon=True).start()
        self.base_url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def test_an_html_answer_is_an_infrastructure_error_not_a_crash() -> None:
    with _Html() as html:
        backend = OpenAIBackend(Endpoint("custom", html.base_url, "m", None), timeout_s=5,
                                max_retries=1)  # fmt: skip
        with pytest.raises(InfrastructureError, match="not the chat API's JSON"):
            backend.complete(_request())


def test_a_hanging_endpoint_fails_within_its_bounds_and_says_each_retry() -> None:
    said: list[str] = []
    with _Html(delay_s=5) as hanging:
        endpoint = Endpoint("custom", hanging.base_url, "m", None)
        backend = OpenAIBackend(endpoint, timeout_s=0.3, max_retries=1, notify=said.append)
        started = time.monotonic()
        with pytest.raises(InfrastructureError, match="did not answer after 2 tries"):
            backend.complete(_request())
        assert time.monotonic() - started < 0.3 * 2 + 1 + 2  # timeouts plus back-off
    assert len(said) == 1
    assert "attempt 1 of 2" in said[0]
    assert "retrying in" in said[0]
    assert "APITimeoutError" in said[0]


def test_a_named_key_variable_that_is_unset_is_a_prerequisite_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("MY_LOCAL_KEY", raising=False)
    role = RoleSettings(model="custom:m", api_key_env="MY_LOCAL_KEY")
    with pytest.raises(PrerequisiteError, match="MY_LOCAL_KEY is not set"):
        resolve_endpoint("tester", role, LlmSettings(base_url="http://127.0.0.1:1/v1"))
    # A local server with no key named at all still needs none.
    plain = RoleSettings(model="custom:m")
    assert resolve_endpoint("tester", plain, LlmSettings(base_url="http://127.0.0.1:1/v1"))


@pytest.mark.parametrize("url", ["not a url", "localhost:8080/v1", "ftp://host/v1", "http://"])
def test_a_base_url_that_is_not_one_is_a_config_error(url: str) -> None:
    with pytest.raises(ConfigError, match="base_url"):
        load_settings(overrides={"llm": {"base_url": url}})
    with pytest.raises(ConfigError, match="base_url"):
        load_settings(overrides={"roles": {"tester": {"base_url": url}}})


def test_a_request_closed_by_its_caller_is_neither_retried_nor_said_as_a_failure() -> None:
    # A raced attempt that lost has its client closed mid-request: that is the caller's
    # doing, not the endpoint's. It was said as "attempt 1 of 2 failed (APIConnectionError);
    # retrying in 1s" on the user's terminal, and waited a back-off for nothing.
    said: list[str] = []
    with FakeLLM({"m": [Answer(text="slow", delay_s=1)]}) as fake:
        endpoint = Endpoint("custom", fake.base_url, "m", None, "")
        backend = OpenAIBackend(endpoint, timeout_s=10, max_retries=1, notify=said.append)
        threading.Timer(0.2, backend.close).start()
        with pytest.raises(InfrastructureError, match="closed by its caller"):
            backend.complete(_request())
    assert said == []
    assert len(fake.requests) <= 1
