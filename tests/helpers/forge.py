"""A forge on loopback that speaks the pulls API subset a run uses (list open, create,
update), keeps the pull requests it was asked to open, records every request, and answers
with scripted failures first when told to."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tdd_sandbox.closing import Closing


@dataclass
class Seen:
    """One request as the forge received it."""

    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: str


@dataclass
class State:
    repository: str
    pulls: list[dict[str, Any]] = field(default_factory=list)
    failures: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    """(status, JSON body) to answer with, in order, before serving anything."""
    seen: list[Seen] = field(default_factory=list)


class LoopbackForge(Closing):
    """Serves `/repos/<repository>/pulls` on 127.0.0.1 in a thread until closed."""

    def __init__(self, repository: str = "kata-org/kata") -> None:
        self.state = State(repository)
        state = self.state

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_: Any) -> None:
                pass

            def _answer(self, code: int, data: Any) -> None:
                payload = json.dumps(data).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def _serve(self) -> None:
                parts = urlsplit(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode() if length else ""
                state.seen.append(Seen(self.command, parts.path, parse_qs(parts.query),
                                       dict(self.headers.items()), body))  # fmt: skip
                if state.failures:
                    self._answer(*state.failures.pop(0))
                    return
                prefix = f"/repos/{state.repository}/pulls"
                if not parts.path.startswith(prefix):
                    self._answer(404, {"message": "Not Found"})
                elif self.command == "GET":
                    # As Gitea lists: every open pull request, whatever `head` asks, a page
                    # at a time (`limit` or `per_page` of them, 30 unless asked).
                    query = parse_qs(parts.query)
                    size = int((query.get("limit") or query.get("per_page") or ["30"])[0])
                    page = int((query.get("page") or ["1"])[0])
                    listed = [p for p in state.pulls if p["state"] == "open"]
                    self._answer(200, listed[(page - 1) * size : page * size])
                elif self.command == "POST":
                    asked = json.loads(body)
                    number = len(state.pulls) + 1
                    pull = {"number": number, "state": "open", "title": asked["title"],
                            "body": asked["body"], "html_url": f"http://forge/pull/{number}",
                            "head": {"ref": asked["head"], "repo": {"full_name": state.repository}},
                            "base": {"ref": asked["base"]}}  # fmt: skip
                    state.pulls.append(pull)
                    self._answer(201, pull)
                elif self.command == "PATCH":
                    number = int(parts.path.rsplit("/", 1)[1])
                    pull = next(p for p in state.pulls if p["number"] == number)
                    pull.update(json.loads(body))
                    self._answer(200, pull)
                else:
                    self._answer(405, {"message": "Method Not Allowed"})

            do_GET = do_POST = do_PATCH = _serve

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.api_url = f"http://127.0.0.1:{self._server.server_address[1]}"
        # shutdown() waits for the next poll: the default half second, on every test.
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()

    def close(self) -> None:
        """Stop serving and release the port."""
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=2)
