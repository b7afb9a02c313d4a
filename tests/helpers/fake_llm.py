"""A scripted OpenAI-compatible chat server on a real socket, for end-to-end tests.

Each request is answered with the next scripted answer for its `model` (so each role, given
its own model name, has its own script). Answers can be plans, raw text, HTTP errors with
headers (429 with Retry-After), delays, or a refusal of `response_format`.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tdd_sandbox.closing import Closing


@dataclass
class Answer:
    """One scripted response."""

    plan: dict[str, Any] | None = None
    text: str | None = None
    status: int = 200
    delay_s: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    finish_reason: str = "stop"
    reject_schema: bool = False
    """Answer 400 to a `json_schema` response_format (and consume nothing)."""
    reject: frozenset[str] = frozenset()
    """Request features to refuse with a 400 (consuming nothing): `json_schema`,
    `json_object`, `tools`, `stream_options` - an endpoint that lacks them."""
    tool_call: bool = False
    """Answer the plan as the arguments of a function call."""
    pace_s: float = 0.0
    """Seconds between two chunks of a streamed answer, as a model takes to write them."""


def plan(
    *edits: tuple[str, str],
    message: str = "feat(kata): step",
    note: str = "step",
    done: bool = False,
) -> Answer:
    """An answer holding an edit plan of upserts `(path, content)`."""
    return Answer(
        plan={
            "plan": note,
            "edits": [{"path": p, "action": "upsert", "content": c} for p, c in edits],
            "commit_message": message,
            "done": done,
        }
    )


def done() -> Answer:
    """The tester's 'nothing left to test'."""
    return plan(done=True, message="test(kata): done", note="all behaviour is tested")


def no_change() -> Answer:
    """A refactorer with nothing to improve."""
    return plan(message="refactor(kata): nothing", note="nothing worth changing")


class FakeLLM(Closing):
    """Serves `/v1/chat/completions` on 127.0.0.1 until closed."""

    def __init__(
        self,
        script: Mapping[str, Iterable[Answer]],
        responders: Mapping[str, Callable[[dict[str, Any]], Answer]] | None = None,
    ) -> None:
        """`script`: answers per model, in order. `responders`: per model, a function from the
        request to its answer, for clients whose requests interleave (concurrent jobs)."""
        self._responders = dict(responders or {})
        self._script: dict[str, deque[Answer]] = defaultdict(deque)
        for model, answers in script.items():
            self._script[model].extend(answers)
        self.requests: list[dict[str, Any]] = []
        self.sent = 0
        """Streamed events written (a client that stops reading is sent no more)."""
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                return

            def do_GET(self) -> None:
                models = [
                    {"id": name, "object": "model", "created": 0, "owned_by": "fake"}
                    for name in fake.models()
                ]
                data = json.dumps({"object": "list", "data": models}).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                status, payload, headers = fake.respond(body)
                pace = float(payload.pop("pace_s", 0.0))
                if status == 200 and body.get("stream") and "choices" in payload:
                    self.send_response(200)
                    self.send_header("content-type", "text/event-stream")
                    self.end_headers()
                    # A client that stops reading (a loop stopped, a race lost) is gone.
                    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                        for event in _events(payload, body):
                            self.wfile.write(b"data: " + event + b"\n\n")
                            self.wfile.flush()
                            with fake._lock:
                                fake.sent += 1
                            time.sleep(pace)
                    return
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for key, value in headers.items():
                    self.send_header(key, value)
                self.end_headers()
                # A lost race attempt abandons its request: the client may be gone.
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    self.wfile.write(data)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        # shutdown() waits for the next poll: the default half second, on every test.
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()

    @property
    def base_url(self) -> str:
        """The `/v1` URL to configure."""
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def models(self) -> list[str]:
        """The model names the script answers for."""
        with self._lock:
            return sorted(set(self._script) | set(self._responders))

    def remaining(self, model: str) -> int:
        """Scripted answers not yet used for `model`."""
        with self._lock:
            return len(self._script[model])

    def respond(self, body: dict[str, Any]) -> tuple[int, dict[str, Any], dict[str, str]]:
        """The scripted reply to one request."""
        model = str(body.get("model"))
        with self._lock:
            self.requests.append(body)
            if model in self._responders:
                self._script[model].appendleft(self._responders[model](body))
            queue = self._script[model]
            if not queue:
                return 500, {"error": {"message": f"script for {model} exhausted"}}, {}
            answer = queue[0]
            asked = (
                {(body.get("response_format") or {}).get("type")}
                | ({"tools"} if body.get("tools") else set())
                | ({"stream_options"} if body.get("stream_options") else set())
            )
            refused = (answer.reject | ({"json_schema"} if answer.reject_schema else set())) & asked
            if refused:
                error = {"message": f"{sorted(refused)[0]} is not supported"}
                return 400, {"error": error}, {}
            queue.popleft()
        if answer.delay_s:
            time.sleep(answer.delay_s)
        if answer.status != 200:
            return answer.status, {"error": {"message": "scripted failure"}}, answer.headers
        content = answer.text if answer.text is not None else json.dumps(answer.plan)
        message: dict[str, Any] = {"role": "assistant", "content": content}
        if answer.tool_call:
            function = {"name": "submit_edit_plan", "arguments": content}
            message = {
                "role": "assistant",
                "content": None,
                "tool_calls": [{"id": "call_1", "type": "function", "function": function}],
            }
        return (
            200,
            {
                "id": "chatcmpl-fake",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": model,
                "choices": [
                    {"index": 0, "message": message, "finish_reason": answer.finish_reason}
                ],
                "usage": {
                    "prompt_tokens": len(json.dumps(body.get("messages", ""))) // 4,
                    "completion_tokens": len(content) // 4,
                    "total_tokens": 0,
                },
                "pace_s": answer.pace_s,
            },
            answer.headers,
        )

    def close(self) -> None:
        """Stop serving."""
        self._server.shutdown()
        self._server.server_close()


_PIECE = 64
"""Characters a streamed chunk carries (a model's is a token: a few)."""


def _events(completion: dict[str, Any], body: dict[str, Any]) -> Iterator[bytes]:
    """`completion` as a stream's events: its content (or its tool call's arguments) in
    pieces, then how it finished, then its usage when the request asked for it, then the
    end."""
    choice = completion["choices"][0]
    message = choice["message"]

    def chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
        choices = [{"index": 0, "delta": delta, "finish_reason": finish}]
        return json.dumps({**_HEAD, "model": completion["model"], "choices": choices}).encode()

    yield chunk({"role": "assistant", "content": ""})
    calls = message.get("tool_calls")
    text = calls[0]["function"]["arguments"] if calls else message["content"]
    if calls:
        head = {"index": 0, "id": calls[0]["id"], "type": "function"}
        yield chunk({"tool_calls": [{**head, "function": {"name": calls[0]["function"]["name"],
                                                          "arguments": ""}}]})  # fmt: skip
    for start in range(0, len(text), _PIECE):
        piece = text[start : start + _PIECE]
        if calls:
            yield chunk({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]})
        else:
            yield chunk({"content": piece})
    yield chunk({}, choice["finish_reason"])
    if (body.get("stream_options") or {}).get("include_usage"):
        usage = {**_HEAD, "model": completion["model"], "choices": [], "usage": completion["usage"]}
        yield json.dumps(usage).encode()
    yield b"[DONE]"


_HEAD = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 0}
