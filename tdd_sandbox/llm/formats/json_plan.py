"""The `json` and `tool` formats: one EditPlan object, as the answer's text (asked for with
`response_format` where the endpoint has it) or as a function call's arguments."""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import ValidationError

from tdd_sandbox.llm.chat import ChatReply
from tdd_sandbox.llm.formats.base import (
    Ask,
    AsksWholeFiles,
    PlanError,
    check_echo,
    check_file,
    check_text,
    cut_short,
    file_hole,
    finish,
    keeping,
    placeholder,
)
from tdd_sandbox.protocol import EditPlan, edit_plan_schema
from tdd_sandbox.vocabulary.failures import Failure
from tdd_sandbox.vocabulary.formats import EditFormat

TOOL_NAME = "submit_edit_plan"


def example(ask: Ask) -> str:
    """An EditPlan to fill in, writing the file the role most likely writes."""
    path = ask.target or "path/of/the/file"
    edit = {"path": path, "action": "upsert", "content": file_hole(ask)}
    plan = {
        "plan": placeholder("what you change, in one sentence"),
        "edits": [edit],
        "commit_message": placeholder("one line"),
        "done": False,
    }
    return json.dumps(plan)


def _finishing(ask: Ask, how: str) -> str:
    return f"\nWhen every behaviour of the kata is tested already, {how}." if ask.may_finish else ""


class JsonFormat(AsksWholeFiles):
    """One EditPlan object as the whole answer."""

    edit_format = EditFormat.JSON
    continues = False

    def instructions(self, ask: Ask) -> str:
        """One JSON object like the example, every edit a whole file."""
        return (
            "Answer with one JSON object and nothing else: this one, filled in.\n"
            f"{example(ask)}\n"
            "Each edit's content is the complete new file. Add an edit per file you change."
            + _finishing(ask, 'answer "done": true with no edits')
            + keeping(ask, "answer with no edits.")
        )

    def parse(self, reply: ChatReply, ask: Ask) -> EditPlan:
        """The plan in the answer's text (fences and prose around the object are ignored).

        Raises:
            PlanError: no JSON object, not an EditPlan, cut off, or the example copied.
        """
        check_text(reply)
        try:
            data = first_json_object(reply.text)
        except PlanError:
            if reply.cut:
                raise cut_short(
                    reply, "before the JSON ended", "send fewer or shorter files"
                ) from None
            raise
        return checked(data, ask)


class ToolFormat(AsksWholeFiles):
    """The EditPlan as the arguments of one call of `submit_edit_plan`."""

    edit_format = EditFormat.TOOL
    continues = False

    def instructions(self, ask: Ask) -> str:
        """Call the function once, with arguments like the example."""
        return (
            f"Call the function {TOOL_NAME} once, with arguments like these, filled in:\n"
            f"{example(ask)}\n"
            "Each edit's content is the complete new file."
            + _finishing(ask, 'set "done": true with no edits')
        )

    def parse(self, reply: ChatReply, ask: Ask) -> EditPlan:
        """The call's arguments; a model that answered in text instead is read as `json`.

        Raises:
            PlanError: as `JsonFormat.parse`.
        """
        if reply.tool_arguments is None:
            return JsonFormat().parse(reply, ask)
        try:
            data = json.loads(reply.tool_arguments)
        except ValueError:
            raise PlanError(
                "the tool call's arguments are not valid JSON", Failure.NOT_JSON
            ) from None
        return checked(data, ask)


def tool_spec() -> list[dict[str, Any]]:
    """The single tool of the `tool` format."""
    return [
        {
            "type": "function",
            "function": {
                "name": TOOL_NAME,
                "description": "Submit the edit plan for this step.",
                "parameters": edit_plan_schema(),
                "strict": True,
            },
        }
    ]


def first_json_object(text: str) -> Any:
    """The first JSON object in `text` (fences and prose around it are ignored).

    Raises:
        PlanError: there is none; the message points at the first syntax problem.
    """
    stripped = text.strip()
    try:
        return json.loads(stripped)
    except ValueError as exc:
        first_error = exc
    decoder = json.JSONDecoder()
    for match in re.finditer(r"\{", text):
        try:
            value, _ = decoder.raw_decode(text, match.start())
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    hint = ""
    if isinstance(first_error, json.JSONDecodeError) and stripped.startswith("{"):
        hint = (
            f" (invalid JSON at line {first_error.lineno} column {first_error.colno}: "
            f"{first_error.msg}; escape quotes and newlines inside strings)"
        )
    raise PlanError(
        f"the answer holds no valid JSON object{hint}; answer with one EditPlan JSON object",
        Failure.NOT_JSON,
    )


def checked(data: Any, ask: Ask) -> EditPlan:
    """`data` validated as an EditPlan the role may send.

    Raises:
        PlanError: it is not an EditPlan, copies the example, or says done where it may not.
    """
    try:
        plan = EditPlan.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in error['loc']) or '(root)'}: {error['msg']}"
            for error in exc.errors()[:5]
        )
        raise PlanError(
            f"the JSON does not match the EditPlan schema: {problems}", Failure.SCHEMA
        ) from None
    for edit in plan.edits:
        check_echo(edit.content, [file_hole(ask)])
        check_file(edit.content, ask)
    return finish(plan, ask)
