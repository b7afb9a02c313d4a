from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tdd_sandbox.protocol import EditPlan, edit_plan_schema

SHARED = Path(__file__).resolve().parents[2] / "shared" / "protocol" / "edit-plan.schema.json"


def test_packaged_schema_matches_the_shared_contract() -> None:
    if not SHARED.exists():
        if os.environ.get("CI"):
            pytest.fail(f"CI runs with shared/ beside the repo, but {SHARED} is missing")
        pytest.skip("shared/ is not beside this checkout")
    assert edit_plan_schema() == json.loads(SHARED.read_text())


def test_model_mirrors_the_schema() -> None:
    schema = edit_plan_schema()
    assert set(EditPlan.model_fields) == set(schema["required"])
    item = schema["properties"]["edits"]["items"]
    assert set(item["required"]) == {"path", "action", "content"}
    assert item["properties"]["action"]["enum"] == ["upsert", "delete"]
