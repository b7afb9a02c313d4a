"""The wire contract with models: an edit plan (shared/protocol/edit-plan.schema.json).

The package carries a copy of the schema (a test checks it matches the shared one); the
pydantic model below mirrors it so that whatever a model says is validated before it is used.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict


class Edit(BaseModel):
    """One whole-file change."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    path: str
    action: Literal["upsert", "delete"]
    content: str


class EditPlan(BaseModel):
    """What every role answers with."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    plan: str
    edits: list[Edit]
    commit_message: str
    done: bool


@cache
def edit_plan_schema() -> dict[str, Any]:
    """The JSON schema as shipped with the package."""
    text = resources.files(__package__).joinpath("edit-plan.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
