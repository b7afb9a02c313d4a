"""The standard board's subset (`benchmarks/standard_board.py`): a rule over names, not a
pick by hand, with as many exercises in every language."""

from __future__ import annotations

from pathlib import Path

from benchmarks.standard_board import LANGUAGES, pick, subset


def test_the_rule_takes_evenly_spaced_names_in_sorted_order() -> None:
    names = [f"e{i:02d}" for i in range(26)][::-1]  # given in any order
    picked = pick(names, 8)
    assert picked == ["e00", "e03", "e06", "e09", "e13", "e16", "e19", "e22"]
    assert pick(names[:5], 8) == sorted(names[:5])  # fewer than asked: all of them


def test_every_language_gets_its_count_from_a_set_laid_out_as_aider_s(tmp_path: Path) -> None:
    for index, language in enumerate(LANGUAGES):
        practice = tmp_path / language / "exercises" / "practice"
        for number in range(20 + 5 * index):
            (practice / f"exercise-{number:02d}").mkdir(parents=True)
        (practice / "not-an-exercise.md").write_text("")
    for language in LANGUAGES:
        chosen = subset(tmp_path, language, 8)
        assert len(chosen) == 8
        assert all(path.is_dir() for path in chosen)
        assert chosen[0].name == "exercise-00"
