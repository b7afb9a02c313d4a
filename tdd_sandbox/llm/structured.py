"""Getting a valid edit plan out of a model, in the role's edit format.

In the JSON format the request asks for `response_format` `json_schema` (strict) first; an
endpoint that refuses it is asked for `json_object`, then for plain text, and the mode that
worked is remembered. The tool format falls back to JSON where function calling is refused;
`auto` ends in the whole-file format where no structured output is supported. Whatever comes
back is parsed leniently and validated strictly; what still fails is a `PlanError` whose
message goes back to the model.
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
        self._format = EditFormat.JSON if edit_format is EditFormat.AUTO else edit_format
        self._mode = 0
        self._lock = threading.Lock()

    @property
    def mode(self) -> str:
        """The structured-output mode in use (a JSON mode, `tool` or `whole`)."""
        if self._format is EditFormat.JSON:
            return MODES[self._mode]
        return self._format.value

    @property
    def edit_format(self) -> EditFormat:
        """The format the next request is written in."""
        return self._format

    def _downgrade(self) -> bool:
        with self._lock:
            if self._format is EditFormat.TOOL:
                self._format = EditFormat.JSON
            elif self._format is EditFormat.JSON and self._mode + 1 < len(MODES):
                self._mode += 1
                if MODES[self._mode] == "text" and self.configured is EditFormat.AUTO:
                    # No structured output at all: small local models do far better with
                    # whole files in code blocks than with JSON they must escape by hand.
                    self._format = EditFormat.WHOLE
            else:
                return False
            return True

    def _request(self, build: RequestBuilder) -> ChatRequest:
        fmt = self._format
        request = build(fmt)
        if fmt is EditFormat.TOOL:
            choice = {"type": "function", "function": {"name": TOOL_NAME}}
            return replace(request, tools=tool_spec(), tool_choice=choice)
        if fmt is EditFormat.JSON:
            return replace(request, response_format=response_format(MODES[self._mode]))
        return request

    def ask(self, build: RequestBuilder, ask: Ask) -> PlanAnswer:
        """One request, built for the current format, asking for what `ask` says; a parse
        failure is data.

        Raises:
            InfrastructureError: the endpoint is unusable.
            FormatUnsupported: it refused every format there is to fall back to.
        """
        while True:
            fmt, mode = self._format, self.mode
            try:
                reply = self.backend.complete(self._request(build))
            except FormatUnsupported:
                if not self._downgrade():
                    raise
                continue
            try:
                plan = get_format(fmt).parse(reply, ask)
            except PlanError as exc:
                return PlanAnswer(reply, None, str(exc), mode, exc.kind)
            return PlanAnswer(reply, plan, None, mode)
