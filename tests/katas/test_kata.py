from __future__ import annotations

from pathlib import Path

import pytest

from tdd_sandbox.katas.kata import KataError, load_kata, parse_kata

KATAS = Path(__file__).resolve().parents[2] / "katas"


def test_parses_sections_and_front_matter() -> None:
    kata = parse_kata(
        "---\nlanguage: rust\n---\n# Word Wrap\nWrap text.\n\n## Requirements\n- one\n- two\n"
        "## Constraints\n1. short\n## Examples\n`a b` -> `a\\nb`\n"
    )
    assert kata.title == "Word Wrap"
    assert kata.slug == "word-wrap"
    assert kata.description == "Wrap text."
    assert kata.requirements == ("one", "two")
    assert kata.constraints == ("short",)
    assert "a b" in kata.examples
    assert kata.metadata == {"language": "rust"}
    assert kata.text.startswith("# Word Wrap")


@pytest.mark.parametrize("slug", ["fizzbuzz", "string-calculator", "bowling", "roman-numerals"])
def test_shipped_katas_parse(slug: str) -> None:
    kata = load_kata(KATAS / slug / "kata.md")
    assert kata.slug == slug
    assert len(kata.requirements) >= 4
    constraints = " ".join(kata.constraints)
    assert "Python" in constraints
    assert "Rust" in constraints


def test_errors_are_one_line(tmp_path: Path) -> None:
    with pytest.raises(KataError, match="does not exist"):
        load_kata(tmp_path / "missing.md")
    with pytest.raises(KataError, match="is a directory"):
        load_kata(tmp_path)
    (tmp_path / "bad.md").write_bytes(b"\xff\xfe")
    with pytest.raises(KataError, match="not UTF-8"):
        load_kata(tmp_path / "bad.md")
    with pytest.raises(KataError, match="needs a '# Title'"):
        parse_kata("no heading here")
    with pytest.raises(KataError, match="front matter is not valid YAML"):
        parse_kata("---\n[: bad\n---\n# T\n")
