"""Data suites derived at import: what a track's calls.yaml section says beyond the calls."""

from __future__ import annotations

import json
from pathlib import Path

from tdd_sandbox.acceptance.suite import load_suite
from tdd_sandbox.katas.calls import derive_data_suites
from tdd_sandbox.katas.exercism import Exercise

_CANONICAL = {
    "exercise": "square-root",
    "cases": [
        {"uuid": "a1", "description": "one", "property": "squareRoot", "input": {"radicand": 1},
         "expected": 1},
        {"uuid": "a2", "description": "negative", "property": "squareRoot",
         "input": {"radicand": -1}, "expected": {"error": "radicand must be positive"}},
    ],
}  # fmt: skip
_STUB = {"square_root.py": b"def square_root(radicand):\n    pass\n"}


def _kata(tmp_path: Path, tests: str) -> Path:
    kata = tmp_path / "square-root"
    (kata / "acceptance").mkdir(parents=True)
    (kata / "acceptance" / "canonical-data.json").write_text(json.dumps(_CANONICAL))
    track = Exercise(
        "square-root",
        "Square Root",
        "Find it.",
        language="python",
        tests={"square_root_test.py": tests.encode()},
        stub=_STUB,
    )
    derive_data_suites(kata, [track])
    return kata


def test_messages_count_where_the_tracks_tests_compare_the_canonical_ones(
    tmp_path: Path,
) -> None:
    kata = _kata(tmp_path, 'self.assertEqual(err.exception.args[0], "radicand must be positive")')
    assert load_suite(kata).calls_for("python").messages is True


def test_a_track_with_its_own_wording_is_judged_on_the_error_alone(tmp_path: Path) -> None:
    # forth's Python track raises "Insufficient number of items in stack" where the canonical
    # data says "empty stack", and the model is told the track's wording: the canonical
    # message failed every right answer (the reference scored 40/54).
    kata = _kata(tmp_path, 'self.assertEqual(err.exception.args[0], "Radicand must be > 0")')
    assert load_suite(kata).calls_for("python").messages is False
    # A test named after the case is not its message (JavaScript's vlq says 'Incomplete
    # sequence' in a test called 'incomplete sequence causes error').
    named = "test('radicand must be positive or else', () => expect(f).toThrow('Negative'))"
    assert load_suite(_kata(tmp_path / "js", named)).calls_for("python").messages is False
