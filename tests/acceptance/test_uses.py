"""Rust's objects made, then asked (`languages.rust.uses`), scored in a real sandbox: the
calls read off the tests build with the crate, and judge it as data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tdd_sandbox.acceptance.scorer import run_acceptance
from tdd_sandbox.acceptance.suite import load_suite
from tdd_sandbox.execution.docker_checker import DockerChecker
from tdd_sandbox.grading.acceptance import CaseStatus
from tdd_sandbox.katas.calls import derive_data_suites
from tdd_sandbox.katas.exercism import Exercise
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.settings import load_settings
from tests.languages.test_rust_calls import FENCE_LIB, FENCE_TESTS

pytestmark = [pytest.mark.docker, pytest.mark.usefixtures("images")]

DOCUMENT = {"exercise": "fence", "cases": [
    {"uuid": "two", "description": "two rails", "property": "encode",
     "input": {"msg": "WEAREDISCOVERED", "rails": 2}, "expected": "WAEICVRDERDSOEE"},
    {"uuid": "three", "description": "three rails", "property": "decode",
     "input": {"msg": "TEITELHDVLSNHDTISEIIEA", "rails": 3},
     "expected": "THEDEVILISINTHEDETAILS"},
    {"uuid": "none", "description": "no rails", "property": "encode",
     "input": {"msg": "A", "rails": 0}, "expected": {"error": "NoRails"}},
]}  # fmt: skip

REFERENCE = FENCE_LIB.decode().replace(
    "        todo!()\n    }\n\n    pub fn encode",
    "        if rails == 0 {\n            return Err(Error::NoRails);\n        }\n"
    "        Ok(Fence { rails })\n    }\n\n    pub fn encode",
).replace(
    "    pub fn encode(&self, text: &str) -> String {\n        todo!()",
    "    pub fn encode(&self, text: &str) -> String {\n"
    "        let mut rows = vec![String::new(); self.rails as usize];\n"
    "        for (i, c) in text.chars().enumerate() {\n"
    "            rows[self.row(i)].push(c);\n        }\n        rows.concat()",
).replace(
    "    pub fn decode(&self, cipher: &str) -> String {\n        todo!()",
    "    pub fn decode(&self, cipher: &str) -> String {\n"
    "        let n = cipher.chars().count();\n"
    "        let mut order: Vec<usize> = (0..n).collect();\n"
    "        order.sort_by_key(|&i| self.row(i));\n"
    "        let mut out = vec![' '; n];\n"
    "        for (c, &i) in cipher.chars().zip(order.iter()) {\n"
    "            out[i] = c;\n        }\n"
    "        out.into_iter().collect()",
) + (
    "\nimpl Fence {\n    fn row(&self, i: usize) -> usize {\n"
    "        let cycle = (2 * self.rails as usize - 2).max(1);\n"
    "        let at = i % cycle;\n"
    "        if at < self.rails as usize { at } else { cycle - at }\n    }\n}\n"
)


@pytest.mark.parametrize("broken", [False, True], ids=["reference", "encodes_nothing"])
def test_an_object_made_then_asked_judges_the_crate_as_data(tmp_path: Path, broken: bool) -> None:
    plugin = get_language("rust")
    scaffold = {name: text.encode() for name, text in plugin.scaffold().items()}
    manifest = scaffold["Cargo.toml"].decode().replace('name = "kata"', 'name = "fence"')
    stub = {**scaffold, "Cargo.toml": manifest.encode(), "src/lib.rs": FENCE_LIB}
    kata = tmp_path / "fence"
    (kata / "acceptance").mkdir(parents=True)
    (kata / "acceptance" / "canonical-data.json").write_text(json.dumps(DOCUMENT))
    track = Exercise("fence", "Fence", "Encode.", language="rust",
                     tests={"tests/fence.rs": FENCE_TESTS}, stub=stub)  # fmt: skip
    (said,) = derive_data_suites(kata, [track])
    assert "fence::Fence::new(${rails}).map(|tdd_made| tdd_made.encode(${msg}))" in said, said
    code = REFERENCE.replace("rows.concat()", "text.to_string()") if broken else REFERENCE
    tree = {**stub, "src/lib.rs": code.encode()}
    with DockerChecker(load_settings(), run_id="pytest-uses") as checker:
        report = run_acceptance(checker, plugin, tree, load_suite(kata))
    passed = {r.id: r.status is CaseStatus.PASSED for r in report.results}
    assert passed == {"two": not broken, "three": True, "none": True}, report.why()
