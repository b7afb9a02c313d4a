"""Edit formats: how a model writes its edit plan.

- `json`: one EditPlan object (`response_format` json_schema strict, else json_object, else
  found in the text).
- `tool`: the same schema as the arguments of a function call.
- `whole`: for each file a path line and a fenced code block with the whole file; small
  models follow this far better than JSON (no escaping). The harness builds the plan.
- `auto`: `json` while the endpoint supports structured output, `whole` when it does not.

All of them end in the same validated EditPlan; whatever fails is a `PlanError` whose `kind`
classifies it and whose message goes back to the model.
"""

from __future__ import annotations

import enum
import json
import re
import zlib
from typing import Any

from pydantic import ValidationError

from tdd_sandbox.errors import TddSandboxError
from tdd_sandbox.llm.chat import ChatReply
from tdd_sandbox.protocol import Edit, EditPlan, edit_plan_schema
from tdd_sandbox.vocabulary.failures import Failure

TOOL_NAME = "submit_edit_plan"


class EditFormat(enum.StrEnum):
    """How a role writes edit plans."""

    JSON = "json"
    WHOLE = "whole"
    TOOL = "tool"
    AUTO = "auto"


class PlanError(TddSandboxError, ValueError):
    """A model answer that is not a valid edit plan. The message is feedback for the model."""

    def __init__(self, message: str, kind: Failure) -> None:
        super().__init__(message)
        self.kind = kind


WHOLE_PROTOCOL = """\
Answer in exactly this form:
PLAN: one sentence
{path}
```
the whole new content of {path}
```
COMMIT: type(scope): one sentence
Write one path line and one code block per file; DELETE path removes a file.
If every behaviour of the kata is already tested (tester only), answer just: DONE"""

JSON_PROTOCOL = """\
Answer with ONE JSON object and nothing else:
{"plan": "<one or two sentences>", "edits": [{"path": "<relative/path>", "action": "upsert", \
"content": "<the complete new file>"}], "commit_message": "<type>(<scope>): <summary>", \
"done": false}
Each upsert replaces the whole file. Paths are relative to the repository root, with '/'.
A tester with nothing left to test answers "done": true with no edits."""

TOOL_PROTOCOL = (
    f"Call the function {TOOL_NAME} once with your edit plan. Each upsert replaces the whole "
    "file; paths are relative to the repository root, with '/'. A tester with nothing left "
    'to test sets "done": true with no edits.'
)


def protocol(fmt: EditFormat, path: str = "") -> str:
    """The answer instructions of a format (AUTO is resolved before asking). `path`, the file
    the model most likely writes, stands in the whole-file example: small models copy an
    example path literally, so it had better be the right one."""
    if fmt is EditFormat.WHOLE:
        return WHOLE_PROTOCOL.format(path=path or "path/of/the/file")
    return TOOL_PROTOCOL if fmt is EditFormat.TOOL else JSON_PROTOCOL


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


def repetitive(text: str) -> bool:
    """Whether `text` is a runaway repetition (the same lines over and over)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(lines) >= 30 and max(lines.count(line) for line in set(lines)) >= 0.5 * len(lines):
        return True
    return len(text) > 3000 and len(zlib.compress(text.encode())) < 0.04 * len(text)


def _check_reply(reply: ChatReply) -> None:
    if repetitive(reply.text):
        raise PlanError(
            "the answer kept repeating itself; answer once, briefly", Failure.REPETITION
        )


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


def _validate(data: Any) -> EditPlan:
    try:
        return EditPlan.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in error['loc']) or '(root)'}: {error['msg']}"
            for error in exc.errors()[:5]
        )
        raise PlanError(
            f"the JSON does not match the EditPlan schema: {problems}", Failure.SCHEMA
        ) from None


def parse_json(reply: ChatReply) -> EditPlan:
    """An EditPlan from a JSON answer (or a tool call's arguments)."""
    if reply.tool_arguments is not None:
        try:
            return _validate(json.loads(reply.tool_arguments))
        except ValueError:
            raise PlanError(
                "the tool call's arguments are not valid JSON", Failure.NOT_JSON
            ) from None
    if not reply.text.strip():
        raise PlanError("the answer was empty; answer with one EditPlan", Failure.EMPTY)
    _check_reply(reply)
    try:
        data = first_json_object(reply.text)
    except PlanError:
        if reply.finish_reason == "length":
            raise PlanError(
                "the answer was cut off at the token limit before the JSON ended; "
                "send fewer or shorter files",
                Failure.TRUNCATED,
            ) from None
        raise
    return _validate(data)


_FILE_BLOCK = re.compile(
    r"^[ \t]*(?:\*\*|`)?(?P<path>[\w./-]+\.\w+|[\w./-]*/[\w.-]+)(?:\*\*|`)?:?[ \t]*\n"
    r"```[\w+-]*[ \t]*\n(?P<body>.*?)^```[ \t]*$",
    re.MULTILINE | re.DOTALL,
)
_ANY_BLOCK = re.compile(r"^```[\w+-]*[ \t]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
_DELETE = re.compile(r"^[ \t]*DELETE[ \t]+(?P<path>\S+)[ \t]*$", re.MULTILINE)
_COMMIT = re.compile(r"^[ \t]*COMMIT:[ \t]*(?P<message>.+)$", re.MULTILINE)
_PLAN = re.compile(r"^[ \t]*PLAN:[ \t]*(?P<plan>.+)$", re.MULTILINE)


def parse_whole(reply: ChatReply, target: str = "") -> EditPlan:
    """An EditPlan from a `whole` answer (path lines and fenced files); a JSON answer is
    accepted too, since models mix the two up. A lone code block with no path line goes to
    `target`, the one file the prompt asked for (small models often drop the path line)."""
    text = reply.text
    if not text.strip():
        raise PlanError("the answer was empty", Failure.EMPTY)
    _check_reply(reply)
    if text.strip() in ("DONE", "DONE."):
        return EditPlan(plan="done", edits=[], commit_message="test: done", done=True)
    edits = [
        Edit(path=m.group("path"), action="upsert", content=m.group("body"))
        for m in _FILE_BLOCK.finditer(text)
    ]
    edits += [
        Edit(path=m.group("path"), action="delete", content="") for m in _DELETE.finditer(text)
    ]
    if not edits and target and reply.finish_reason != "length":
        blocks = _ANY_BLOCK.findall(text)
        if len(blocks) == 1:
            edits = [Edit(path=target, action="upsert", content=blocks[0])]
    if not edits:
        if text.lstrip().startswith("{"):
            return parse_json(reply)
        if reply.finish_reason == "length" or text.count("```") % 2:
            raise PlanError(
                "the answer was cut off before a code block ended; send less", Failure.TRUNCATED
            )
        raise PlanError(
            "no file found: write the file's path on its own line, then the whole file in a "
            "fenced code block",
            Failure.NO_FILES,
        )
    commit = _COMMIT.search(text)
    plan = _PLAN.search(text)
    return EditPlan(
        plan=plan.group("plan").strip() if plan else text.split("\n", 1)[0][:200],
        edits=edits,
        commit_message=commit.group("message").strip() if commit else "",
        done=False,
    )
