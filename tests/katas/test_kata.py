from __future__ import annotations

from pathlib import Path

import pytest

from tdd_sandbox.katas.kata import KataError, allow_rules, load_kata, parse_kata

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


def test_a_kata_allows_rules_for_every_language_or_for_one() -> None:
    every = parse_kata("---\nallow: [call:open]\n---\n# Grep\n")
    assert every.allowed_rules("python") == {"call:open"}
    assert every.allowed_rules("go") == {"call:open"}
    # What one language's reference needs widens that language's list only: Go's `print`
    # is not Python's.
    one = parse_kata("---\nallow:\n  go: [print]\n---\n# Connect\n")
    assert one.allowed_rules("go") == {"print"}
    assert one.allowed_rules("python") == frozenset()


@pytest.mark.parametrize("allow", ["call:open", "{go: print}", "[[a]]", "{cobol: [x]}"])
def test_an_allowance_of_another_shape_is_an_error_naming_the_fix(allow: str) -> None:
    with pytest.raises(KataError, match=r"^kata: `allow:` must be a list of rules"):
        parse_kata(f"---\nallow: {allow}\n---\n# Grep\n")


def test_an_allowance_is_recorded_in_the_front_matter_keeping_the_text(tmp_path: Path) -> None:
    path = tmp_path / "kata.md"
    path.write_text("---\nlanguage: python\n---\n# Grep\n\nSearch files.\n")
    allow_rules(path, "python", ["call:open"])
    allow_rules(path, "go", ["print"])
    allow_rules(path, "python", ["import:io", "call:open"])
    kata = load_kata(path)
    assert kata.allowed_rules("python") == {"call:open", "import:io"}
    assert kata.allowed_rules("go") == {"print"}
    assert kata.metadata["language"] == "python"
    assert kata.text == "# Grep\n\nSearch files."
    bare = tmp_path / "bare.md"
    bare.write_text("# Grep\n\nSearch files.\n")
    allow_rules(bare, "python", ["call:open"])
    assert load_kata(bare).allowed_rules("python") == {"call:open"}
    assert bare.read_text().endswith("# Grep\n\nSearch files.\n")
