"""The settings reference page is made from the settings' declarations and kept in step."""

from __future__ import annotations

from pathlib import Path

from tdd_sandbox.settings import Section
from tdd_sandbox.settings.reference import render, undocumented

PAGE = Path(__file__).resolve().parents[2] / "docs" / "configuration.md"


def test_the_page_is_what_the_declarations_say() -> None:
    assert PAGE.read_text(encoding="utf-8") == render(), (
        "docs/configuration.md is stale: python -m tdd_sandbox.settings.reference > "
        "docs/configuration.md"
    )


def test_every_setting_says_what_it_does() -> None:
    assert undocumented() == []


class _Inner(Section):
    limit: int = 3
    """Said."""
    bare: int = 4


class _Outer(Section):
    inner: _Inner = _Inner()
    name: str = "x"


def test_a_setting_without_a_docstring_is_named() -> None:
    assert undocumented(_Outer) == ["inner.bare", "name"]


def test_each_setting_shows_its_key_default_and_variable() -> None:
    page = render()
    line = next(line for line in page.splitlines() if line.startswith("- **`sandbox.timeout_s`"))
    assert "default `120.0`" in line
    assert "`TDD_SANDBOX_SANDBOX__TIMEOUT_S`" in line
    assert "past it the whole process tree is killed" in line
