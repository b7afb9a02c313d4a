"""The edit formats a role can answer in (their prompts and parsers are `llm.formats`)."""

from __future__ import annotations

import enum


class EditFormat(enum.StrEnum):
    """How a role writes its edits."""

    AUTO = "auto"
    """`whole`, or `diff` where the file to change is long."""
    WHOLE = "whole"
    """Each file's path, then the whole file in a fenced block."""
    DIFF = "diff"
    """SEARCH/REPLACE blocks against the files as they stand."""
    JSON = "json"
    """One EditPlan object (the wire contract's schema)."""
    TOOL = "tool"
    """The EditPlan as the arguments of a function call."""
