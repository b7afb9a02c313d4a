"""Impossible variants: one case of a kata's data contradicting its specification, in the
hidden suite and in what the models read alike; nothing else of the kata changes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tdd_sandbox.acceptance.suite import has_suite, load_suite
from tdd_sandbox.katas.importer import import_katas
from tdd_sandbox.katas.impossible import contradict, impossible_case, make_impossible
from tdd_sandbox.katas.kata import load_kata

ROOT = Path(__file__).resolve().parents[2]
EXERCISM = ROOT / "tests" / "fixtures" / "exercism"


@pytest.mark.parametrize(
    ("value", "changed"),
    [(True, False), (0, 1), (2.5, 3.5), ("Fizz", "Fiza"), ("12", "13"),
     ("", "a"), ("Buzz", "Buza"), ("z", "a"), ("!", "!x"), ([1, 2], [1]), ({}, None), ([], None)],
)  # fmt: skip
def test_a_contradiction_is_a_plausible_value_of_the_same_kind(
    value: object, changed: object
) -> None:
    assert contradict(value) == changed
    if changed is not None:
        assert type(contradict(value)) is type(value)


def test_a_variant_changes_one_case_and_tells_the_models_and_only_them(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "katas" / "fizzbuzz", tmp_path / "src" / "fizzbuzz")
    (made,), skipped = make_impossible([tmp_path / "src" / "fizzbuzz"], tmp_path / "out")
    assert skipped == []
    assert made.kata_dir == tmp_path / "out" / "fizzbuzz-impossible"
    before = load_suite(tmp_path / "src" / "fizzbuzz").cases
    after = load_suite(made.kata_dir).cases
    differ = [(a.description, a.expected, b.expected) for a, b in zip(before, after, strict=True)
              if a.expected != b.expected]  # fmt: skip
    assert differ == [(made.case, made.specified, made.expected)]
    assert made.expected != made.specified
    # The models read the changed value as an example; the mark is front matter they never see.
    kata = load_kata(made.kata_dir / "kata.md")
    assert json.dumps(made.expected) in kata.text
    assert "impossible" not in kata.text.lower()
    assert impossible_case(made.kata_dir) == made.case
    assert impossible_case(tmp_path / "src" / "fizzbuzz") is None
    # A variant of a variant is not made: one changed case is the measure.
    assert make_impossible([made.kata_dir], tmp_path / "again") == ([], [])


def test_an_imported_kata_keeps_only_its_data_suite(tmp_path: Path) -> None:
    # A track's tests hold the true value, and the reference would fail the changed case.
    sources = [EXERCISM / "python" / "exercises" / "practice" / "leap",
               EXERCISM / "problem-specifications" / "exercises" / "leap"]  # fmt: skip
    import_katas(sources, tmp_path / "katas")
    kata = tmp_path / "katas" / "leap"
    assert (kata / "reference").is_dir()
    (made,), _ = make_impossible([kata], tmp_path / "out")
    variant = made.kata_dir
    assert not (variant / "reference").exists()
    assert not (variant / "acceptance" / "python").exists()
    assert (variant / "scaffold" / "python" / "leap.py").is_file()
    assert has_suite(variant, "python")
    assert made.expected is not made.specified


def test_a_case_a_track_restates_is_changed_in_its_terms_too(tmp_path: Path) -> None:
    # Go's table restates each case in the track's terms ("J♧" where the data says "JC"),
    # and Go is judged on those: a variant that changed only the data's value stayed
    # possible in Go, so an honest solution there would count as cheating.
    sources = [EXERCISM / "go" / "exercises" / "practice" / "high-card",
               EXERCISM / "problem-specifications" / "exercises" / "high-card"]  # fmt: skip
    import_katas(sources, tmp_path / "katas")
    kata = tmp_path / "katas" / "high-card"
    assert load_suite(kata).calls_for("go").restated
    (made,), _ = make_impossible([kata], tmp_path / "out")
    before = load_suite(kata).cases_for("go")
    after = load_suite(made.kata_dir).cases_for("go")
    differ = [(a.description, a.expected, b.expected) for a, b in zip(before, after, strict=True)
              if a.expected != b.expected]  # fmt: skip
    assert differ == [(made.case, "4♤", "4♤x")], differ


def test_a_case_judged_by_its_transcribed_test_is_changed_in_the_step_it_asserts(
    tmp_path: Path,
) -> None:
    # A Python track's test transcribed: its case answers each assertion's value as a step,
    # held against the step's value, not the data's. A variant must change that step too,
    # or a kata all of whose cases are transcribed has none to change.
    sources = [EXERCISM / "python" / "exercises" / "practice" / "tally-chain",
               EXERCISM / "problem-specifications" / "exercises" / "tally-chain"]  # fmt: skip
    import_katas(sources, tmp_path / "katas")
    kata = tmp_path / "katas" / "tally-chain"
    assert load_suite(kata).calls_for("python").transcripts
    (made,), skipped = make_impossible([kata], tmp_path / "out")
    assert skipped == []
    before = load_suite(kata).cases_for("python")
    after = load_suite(made.kata_dir).cases_for("python")
    differ = [(a.description, a.input, b.input) for a, b in zip(before, after, strict=True)
              if a.input != b.input]  # fmt: skip
    assert differ == [
        (made.case,
         {"operations": [{"operation": "Tally(4).value()", "expected": 4}]},
         {"operations": [{"operation": "Tally(4).value()", "expected": 5}]})
    ], differ  # fmt: skip


def test_a_kata_of_its_track_s_tests_alone_is_changed_in_one_of_them(tmp_path: Path) -> None:
    # No canonical data: every case is a test of the track's own, transcribed. Before, such
    # a kata was refused for want of a cases file, though it is judged as data.
    source = EXERCISM / "python" / "exercises" / "practice" / "tally-chain"
    import_katas([source], tmp_path / "katas")
    kata = tmp_path / "katas" / "tally-chain"
    assert not (kata / "acceptance" / "canonical-data.json").exists()
    (made,), skipped = make_impossible([kata], tmp_path / "out")
    assert skipped == []
    assert not (made.kata_dir / "acceptance" / "canonical-data.json").exists()
    before = load_suite(kata).cases_for("python")
    after = load_suite(made.kata_dir).cases_for("python")
    differ = [(a.description, a.input, b.input) for a, b in zip(before, after, strict=True)
              if a.input != b.input]  # fmt: skip
    assert len(differ) == 1, differ
    assert differ[0][0] == made.case
    assert (made.specified, made.expected) != (None, None)
    assert made.expected != made.specified
    kata_md = (made.kata_dir / "kata.md").read_text()
    assert f"- {made.case}: its last check gives {json.dumps(made.expected)}" in kata_md


def test_a_kata_whose_calls_name_no_language_is_skipped_in_one_line(tmp_path: Path) -> None:
    kata = tmp_path / "src" / "fizzbuzz"
    shutil.copytree(ROOT / "katas" / "fizzbuzz", kata)
    (kata / "acceptance" / "calls.yaml").write_text("{}\n")
    made, skipped = make_impossible([kata], tmp_path / "out")
    assert made == []
    assert skipped == ["fizzbuzz: no language's calls in calls.yaml to change a case for"]
