"""Edit formats: how a model writes its edits. Like aider's coders, each format is one module
holding the instructions it shows (an example the model fills in) and the parser of what comes
back; all of them end in the same validated EditPlan, and whatever fails is a `PlanError`
whose `kind` classifies it and whose message goes back to the model.

- `whole`: each file's path on a line, then the whole file in a fenced block.
- `diff`: aider's SEARCH/REPLACE blocks against the files as they stand.
- `json`: one EditPlan object (`response_format` json_schema strict, else json_object, else
  found in the text).
- `tool`: the same object as the arguments of a function call.
- `auto`: per answer, `whole` for a short file and `diff` for a long one (see
  `llm.structured`).
"""

from __future__ import annotations

from tdd_sandbox.errors import ConfigError
from tdd_sandbox.llm.formats.base import Ask, Format, PlanError, Sample, repetitive
from tdd_sandbox.llm.formats.diff import DiffFormat
from tdd_sandbox.llm.formats.json_plan import TOOL_NAME, JsonFormat, ToolFormat, tool_spec
from tdd_sandbox.llm.formats.whole import WholeFormat
from tdd_sandbox.vocabulary.formats import EditFormat

__all__ = [
    "TOOL_NAME",
    "Ask",
    "EditFormat",
    "Format",
    "PlanError",
    "Sample",
    "get_format",
    "repetitive",
    "tool_spec",
]

FORMATS: dict[EditFormat, Format] = {
    fmt.edit_format: fmt for fmt in (WholeFormat(), DiffFormat(), JsonFormat(), ToolFormat())
}


def get_format(edit_format: EditFormat) -> Format:
    """The format that writes and reads `edit_format` (`auto` is resolved before asking).

    Raises:
        ConfigError: no such format.
    """
    try:
        return FORMATS[edit_format]
    except KeyError:
        known = ", ".join(sorted(FORMATS))
        raise ConfigError(f"no edit format {edit_format!r}: use one of {known}") from None
