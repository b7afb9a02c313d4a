"""Getting a valid edit plan out of a model, in the role's edit format.

In the JSON format the request asks for `response_format` `json_schema` (strict) first; an
endpoint that refuses it is asked for `json_object`, then for plain text, and the mode that
worked is remembered. The tool format falls back to JSON where function calling is refused.
`auto` picks per answer by the size of the file to change: whole files, or SEARCH/REPLACE
blocks for a long one. Whatever comes back is parsed leniently and validated strictly; what
still fails is a `PlanError` whose message goes back to the model.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from tdd_sandbox.llm.chat import ChatBackend, ChatReply, ChatRequest, FormatUnsupported
from tdd_sandbox.llm.formats import TOOL_NAME, Ask, EditFormat, PlanError, get_format, tool_spec
from tdd_sandbox.protocol import EditPlan, edit_plan_schema
from tdd_sandbox.vocabulary.failures import Failure

__all__ = ["PlanAnswer", "PlanAsker", "PlanError", "parse_plan", "response_format"]

MODES = ("json_schema", "json_object", "text")
AUTO_DIFF_LINES = 200
"""From this many lines in the file to change, `auto` asks for SEARCH/REPLACE blocks."""


def response_format(mode: str) -> dict[str, Any] | None:
    """The `response_format` of a JSON mode."""
    if mode == "json_schema":
        return {
            "type": "json_schema",
            "json_schema": {"name": "EditPlan", "strict": True, "schema": edit_plan_schema()},
        }
    if mode == "json_object":
        return {"type": "json_object"}
    return None


def parse_plan(reply: ChatReply, ask: Ask | None = None) -> EditPlan:
    """Validate a JSON reply as an edit plan (see `formats.json_plan`).

    Raises:
        PlanError: it is cut off, not JSON, or not an EditPlan.
    """
    return get_format(EditFormat.JSON).parse(reply, ask or Ask(may_finish=True))


@dataclass(frozen=True)
class PlanAnswer:
    """A reply and, when it parsed, the plan; otherwise the error to feed back."""

    reply: ChatReply
    plan: EditPlan | None
    error: str | None
    mode: str
    kind: Failure = Failure.INVALID
    """Why `error` (when there is one): truncated, not JSON, not the schema..."""


RequestBuilder = Callable[[EditFormat], ChatRequest]


class PlanAsker:
    """Asks one backend for edit plans in a role's edit format, falling back when the
    endpoint refuses what the format needs, and remembering what worked."""

    def __init__(self, backend: ChatBackend, edit_format: EditFormat = EditFormat.JSON) -> None:
        self.backend = backend
        self.configured = edit_format
        self._format = EditFormat.WHOLE if edit_format is EditFormat.AUTO else edit_format
        self._mode = 0
        self._lock = threading.Lock()

    @property
    def edit_format(self) -> EditFormat:
        """The format of the last request (before any, the configured one, `auto` as whole)."""
        return self._format

    def _choose(self, ask: Ask) -> EditFormat:
        """The format of the next request. `auto` picks per answer: SEARCH/REPLACE blocks
        where the file to change is long enough that rewriting it whole wastes the answer's
        tokens, else whole files. It never picks JSON or a tool call: small models follow
        them worst (issue #44), and no endpoint feature makes whole files or blocks work
        better, so the choice does not depend on the endpoint."""
        with self._lock:
            if self.configured is EditFormat.AUTO:
                lines = ask.files.get(ask.target, b"").count(b"\n")
                self._format = EditFormat.DIFF if lines >= AUTO_DIFF_LINES else EditFormat.WHOLE
            return self._format

    def _downgrade(self, fmt: EditFormat) -> bool:
        """Fall back from `fmt`, which the endpoint refused; False: nothing left to try."""
        with self._lock:
            if fmt is EditFormat.TOOL:
                self._format = EditFormat.JSON
            elif fmt is EditFormat.JSON and self._mode + 1 < len(MODES):
                self._mode += 1
            else:
                return False
            return True

    def _request(self, build: RequestBuilder, fmt: EditFormat, mode: str) -> ChatRequest:
        request = build(fmt)
        if fmt is EditFormat.TOOL:
            choice = {"type": "function", "function": {"name": TOOL_NAME}}
            return replace(request, tools=tool_spec(), tool_choice=choice)
        if fmt is EditFormat.JSON:
            return replace(request, response_format=response_format(mode))
        return request

    def ask(self, build: RequestBuilder, ask: Ask) -> PlanAnswer:
        """One request, built for the chosen format, asking for what `ask` says; a parse
        failure is data.

        Raises:
            InfrastructureError: the endpoint is unusable.
            FormatUnsupported: it refused every format there is to fall back to.
        """
        while True:
            fmt = self._choose(ask)
            mode = MODES[self._mode] if fmt is EditFormat.JSON else fmt.value
            try:
                reply = self.backend.complete(self._request(build, fmt, mode))
            except FormatUnsupported:
                if not self._downgrade(fmt):
                    raise
                continue
            try:
                plan = get_format(fmt).parse(reply, ask)
            except PlanError as exc:
                return PlanAnswer(reply, None, str(exc), mode, exc.kind)
            return PlanAnswer(reply, plan, None, mode)
