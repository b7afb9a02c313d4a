"""An implementer working alone keeps its code when its answer also wrote the tests."""

from __future__ import annotations

from tdd_sandbox.agents.context import Situation
from tdd_sandbox.bench.solo import _own_files
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.protocol import Edit, EditPlan
from tdd_sandbox.vocabulary.roles import Role

JS = get_language("javascript")
TEST = "test/affine-cipher.test.js"
SHOWN = (
    "import { encode } from '../affine-cipher.js';\n\n"
    "test('a', () => {});\n\ntest('b', () => {});\n"
)


def _situation() -> Situation:
    files = {TEST: SHOWN.encode(), "affine-cipher.js": b"export {};\n"}
    return Situation(kata_text="", kata_path="kata.md", files=files, language=JS, task="",
                     solo=True)  # fmt: skip


def _plan(test_content: str) -> EditPlan:
    edits = [Edit(path="affine-cipher.js", action="upsert", content="export const encode = 1;\n"),
             Edit(path=TEST, action="upsert", content=test_content)]  # fmt: skip
    return EditPlan(plan="p", edits=edits, commit_message="m", done=False)


def test_a_test_file_echoed_until_the_tokens_ran_out_is_set_aside_unsaid() -> None:
    # Qwen2.5-Coder-1.5B on JavaScript's affine-cipher: its code, then the tests it was shown,
    # cut by the token limit mid-file; the whole answer was refused and the code lost.
    cut = SHOWN.split("test('b'")[0]
    plan, ignored = _own_files(_plan(cut), Role.IMPLEMENTER, _situation())
    assert [edit.path for edit in plan.edits] == ["affine-cipher.js"]
    assert ignored == []


def test_a_test_file_changed_is_set_aside_and_named() -> None:
    plan, ignored = _own_files(_plan("test('a', () => {});\n"), Role.IMPLEMENTER, _situation())
    assert [edit.path for edit in plan.edits] == ["affine-cipher.js"]
    assert ignored == [TEST]
    # The tester's tests are its own: nothing is set aside for it.
    kept, none = _own_files(_plan("test('a', () => {});\n"), Role.TESTER, _situation())
    assert (len(kept.edits), none) == (2, [])
