"""Data suites derived at import: what a track's calls.yaml section says beyond the calls."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from tdd_sandbox.acceptance.suite import load_suite
from tdd_sandbox.katas.calls import derive_data_suites, implemented
from tdd_sandbox.katas.exercism import Exercise
from tdd_sandbox.vocabulary.cases import Case

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


def _derived(tmp_path: Path, tests: str, *, canonical: bool = True) -> tuple[Path, list[str]]:
    """A square-root kata of the Python track's `tests`, with or without canonical data, and
    what deriving its data suite says."""
    kata = tmp_path / "square-root"
    (kata / "acceptance").mkdir(parents=True)
    if canonical:
        (kata / "acceptance" / "canonical-data.json").write_text(json.dumps(_CANONICAL))
    track = Exercise(
        "square-root",
        "Square Root",
        "Find it.",
        language="python",
        tests={"square_root_test.py": tests.encode()},
        stub=_STUB,
    )
    return kata, derive_data_suites(kata, [track])


def _kata(tmp_path: Path, tests: str) -> Path:
    return _derived(tmp_path, tests)[0]


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


def _described(uuid: str, description: str) -> Case:
    return Case(id=uuid, description=description, property="p", input={}, expected=0)


def test_a_case_tests_toml_does_not_mention_counts_where_a_test_is_named_after_it() -> None:
    # Rust's bowling lists 6 of its cases in tests.toml, its tests hold more: before, only
    # the 6 were judged.
    every = [
        _described("listed", "Scales > Simple major scale"),
        _described("named", "Scales > Chromatic scale with sharps"),
        _described("quoted", "Scales > Chromatic scale with flats"),
        _described("excluded", "Scales > Major scale with flats"),
        _described("short", "Scales > empty"),
        _described("old", "Scales > Harmonic minor scale"),
        _described("new", "Scales > Harmonic minor scale"),
        _described("untested", "Scales > Hexatonic scale with flats"),
    ]
    tests = {
        "a.rs": b"fn chromatic_scale_with_sharps() {}\nfn major_scale_with_flats() {}\n"
        b"fn empty() {}\nfn harmonic_minor_scale() {}\n",
        "b.spec.js": b"xtest('chromatic scale with flats', () => {});\n",
    }
    included = {"listed": True, "excluded": False}
    chosen = [case.id for case in implemented(every, included, tests)]
    # Two cases of one description, neither reimplementing the other: the test's name does
    # not say which it is, so neither.
    assert chosen == ["listed", "named", "quoted"]
    assert [case.id for case in implemented(every, None, tests)] == [c.id for c in every]
    # A newer case described as the one it reimplements: the test is taken as the newer,
    # the data's statement now (Rust's scale-generator names its tests so, and closes its
    # scales on the tonic as the newer cases do); the proof takes the other where the
    # track's tests follow that.
    every[5:7] = [replace(every[5], replaced=True, counterpart="new"),
                  replace(every[6], counterpart="old")]  # fmt: skip
    chosen = [case.id for case in implemented(every, included, tests)]
    assert chosen == ["listed", "named", "quoted", "new"]
    # Where the record names the older, that is the one (never both, for one test).
    chosen = [case.id for case in implemented(every, {**included, "old": True}, tests)]
    assert chosen == ["listed", "named", "quoted", "old"]


_OWN_TESTS = """import unittest

from square_root import square_root


class SquareRootTest(unittest.TestCase):
    def test_root_of_nine(self):
        self.assertEqual(square_root(9), 3)

    def test_root_of_a_square_is_its_side(self):
        expected = 12
        self.assertEqual(square_root(144), expected)
"""


def test_without_canonical_data_the_track_s_own_tests_are_transcribed(tmp_path: Path) -> None:
    # Before, an exercise problem-specifications has no data for was left to its track's
    # tests, judged beside the model's code: Rust's fizzy, luhn-from and nucleotide-codons
    # in aider's set.
    kata, said = _derived(tmp_path, _OWN_TESTS, canonical=False)
    assert said == [
        "square-root (python): a data suite of the track's 2 tests transcribed, what each "
        "asserts held on the host, to be proved with the reference"
    ]
    cases = load_suite(kata).cases_for("python")
    assert sorted((case.id, case.description) for case in cases) == [
        ("root of a square is its side", "root of a square is its side"),
        ("root of nine", "root of nine"),
    ]
    assert not (kata / "acceptance" / "canonical-data.json").exists()


def test_without_canonical_data_a_test_that_cannot_be_transcribed_says_why(
    tmp_path: Path,
) -> None:
    tests = _OWN_TESTS.replace(
        "self.assertEqual(square_root(9), 3)", "self.assertRegex('3', r'\\d')"
    )
    kata, said = _derived(tmp_path, tests, canonical=False)
    assert said == [
        "square-root (python): judged by its track's tests: it has no canonical data, and the "
        "test test_root_of_nine cannot be transcribed: it asserts with assertRegex"
    ]
    assert not (kata / "acceptance" / "calls.yaml").exists()
