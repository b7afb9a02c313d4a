"""Implement mode's pieces that need no sandbox."""

from __future__ import annotations

from pathlib import Path

import pytest

from tdd_sandbox.acceptance.testfiles import hidden_test_files
from tdd_sandbox.bench.implement import implementation_paths
from tdd_sandbox.katas.importer import import_katas
from tdd_sandbox.languages import get_language
from tdd_sandbox.repo.scaffolding import starting_files

ROOT = Path(__file__).resolve().parents[2]
LEAP = ROOT / "tests" / "fixtures" / "exercism" / "python" / "exercises" / "practice" / "leap"


@pytest.mark.parametrize(
    ("kata", "language", "paths"),
    [("fizzbuzz", "python", ["fizzbuzz.py"]), ("string-calculator", "python", ["calculator.py"]),
     ("fizzbuzz", "javascript", ["kata.js"]), ("fizzbuzz", "rust", ["src/lib.rs"])],
)  # fmt: skip
def test_the_file_to_write_is_the_one_the_judge_imports(
    kata: str, language: str, paths: list[str]
) -> None:
    # Small models need the path spelled out, as the loop spells it for its implementer.
    pack = get_language(language)
    kata_dir = ROOT / "katas" / kata
    files = {p: t.encode() for p, t in starting_files(pack, kata_dir).items()}
    assert implementation_paths(kata_dir, kata, pack, files, {}) == paths


def test_an_imported_katas_file_is_the_one_its_tests_import(tmp_path: Path) -> None:
    import_katas([LEAP], tmp_path)
    pack, kata_dir = get_language("python"), tmp_path / "leap"
    tests = hidden_test_files(kata_dir, pack)
    files = {p: t.encode() for p, t in starting_files(pack, kata_dir).items()} | tests
    assert implementation_paths(kata_dir, "leap", pack, files, tests) == ["leap.py"]
