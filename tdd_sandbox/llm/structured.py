"""Getting a valid edit plan out of a model.

The request asks for `response_format` `json_schema` (strict) first; an endpoint that refuses
it is asked for `json_object`, then for plain text, and the mode that worked is remembered.
Whatever comes back is parsed leniently (code fences, prose around the object) and then
validated strictly; what still fails is a `PlanError` whose message goes back to the model.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, replace
from typing import Any

from pydantic import ValidationError

from tdd_sandbox.errors import TddSandboxError
from tdd_sandbox.llm.chat import ChatBackend, ChatReply, ChatRequest, FormatUnsupported
from tdd_sandbox.protocol import EditPlan, edit_plan_schema

MODES = ("json_schema", "json_object", "text")


class PlanError(TddSandboxError, ValueError):
    """A model answer that is not a valid edit plan. The message is feedback for the model."""


def response_format(mode: str) -> dict[str, Any] | None:
    """The `response_format` of a mode."""
    if mode == "json_schema":
        return {
            "type": "json_schema",
            "json_schema": {"name": "EditPlan", "strict": True, "schema": edit_plan_schema()},
        }
    if mode == "json_object":
        return {"type": "json_object"}
    return None


def first_json_object(text: str) -> Any:
    """The first JSON object in `text` (fences and prose around it are ignored).

    Raises:
        PlanError: there is none.
    """
    stripped = text.strip()
    try:
        return json.loads(stripped)
    except ValueError:
        pass
    decoder = json.JSONDecoder()
    for match in re.finditer(r"\{", text):
        try:
            value, _ = decoder.raw_decode(text, match.start())
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    raise PlanError("the answer holds no JSON object; answer with one EditPlan JSON object only")


def parse_plan(reply: ChatReply) -> EditPlan:
    """Validate a reply as an edit plan.

    Raises:
        PlanError: it is cut off, not JSON, or not an EditPlan; the message says which part.
    """
    if not reply.text.strip():
        raise PlanError("the answer was empty; answer with one EditPlan JSON object")
    try:
        data = first_json_object(reply.text)
    except PlanError:
        if reply.finish_reason == "length":
            raise PlanError(
                "the answer was cut off at the token limit before the JSON ended; "
                "send fewer or shorter files"
            ) from None
        raise
    try:
        return EditPlan.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in error['loc']) or '(root)'}: {error['msg']}"
            for error in exc.errors()[:5]
        )
        raise PlanError(f"the JSON does not match the EditPlan schema: {problems}") from None


@dataclass(frozen=True)
class PlanAnswer:
    """A reply and, when it parsed, the plan; otherwise the error to feed back."""

    reply: ChatReply
    plan: EditPlan | None
    error: str | None
    mode: str


class PlanAsker:
    """Asks one backend for edit plans, falling back through the structured-output modes."""

    def __init__(self, backend: ChatBackend) -> None:
        self.backend = backend
        self._mode = 0
        self._lock = threading.Lock()

    @property
    def mode(self) -> str:
        """The structured-output mode in use."""
        return MODES[self._mode]

    def ask(self, request: ChatRequest) -> PlanAnswer:
        """One request, with format fallback; a parse failure is data, not an exception.

        Raises:
            InfrastructureError: the endpoint is unusable.
        """
        while True:
            with self._lock:
                mode_index = self._mode
            mode = MODES[mode_index]
            try:
                reply = self.backend.complete(
                    replace(request, response_format=response_format(mode))
                )
            except FormatUnsupported:
                if mode_index + 1 >= len(MODES):
                    raise
                with self._lock:
                    self._mode = max(self._mode, mode_index + 1)
                continue
            try:
                return PlanAnswer(reply, parse_plan(reply), None, mode)
            except PlanError as exc:
                return PlanAnswer(reply, None, str(exc), mode)
