from __future__ import annotations

import hashlib
import json
from pathlib import Path

from tdd_sandbox.protocol import EditPlan, edit_plan_schema

SHARED = Path(__file__).resolve().parents[2] / "shared" / "protocol" / "edit-plan.schema.json"
# The shared contract this version implements, canonical JSON (sorted keys) hashed: a clone
# without shared/ beside it still checks the packaged copy against the contract.
CONTRACT_SHA256 = "aa7f3f58a74dd1b55941924e7726d96b8e1ccd143621b2f3fddaa7728bc4480f"


def _digest(schema: object) -> str:
    return hashlib.sha256(json.dumps(schema, sort_keys=True).encode()).hexdigest()


def test_packaged_schema_matches_the_shared_contract() -> None:
    assert _digest(edit_plan_schema()) == CONTRACT_SHA256
    if SHARED.exists():  # beside the checkout: the contract itself must not have moved on
        assert edit_plan_schema() == json.loads(SHARED.read_text())


def test_model_mirrors_the_schema() -> None:
    schema = edit_plan_schema()
    assert set(EditPlan.model_fields) == set(schema["required"])
    item = schema["properties"]["edits"]["items"]
    assert set(item["required"]) == {"path", "action", "content"}
    assert item["properties"]["action"]["enum"] == ["upsert", "delete"]
