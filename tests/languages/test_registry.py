from __future__ import annotations

import pytest

from tdd_sandbox.errors import UsageError
from tdd_sandbox.images.catalog import language_folders
from tdd_sandbox.languages import LANGUAGES, detect_language, get_language
from tdd_sandbox.settings import ImageSettings


def test_every_language_has_an_image_and_every_image_a_language() -> None:
    assert set(LANGUAGES) == set(language_folders(ImageSettings()))


def test_registry_keys_match_plugin_names() -> None:
    assert all(key == plugin.name for key, plugin in LANGUAGES.items())


def test_unknown_language_lists_the_known_ones() -> None:
    with pytest.raises(
        UsageError,
        match="unknown language 'cobol': choose one of cpp, go, java, javascript, python, rust",
    ):
        get_language("cobol")


def test_detection() -> None:
    assert detect_language(["Cargo.toml", "build.py"]).name == "rust"
    assert detect_language(["pyproject.toml"]).name == "python"
    with pytest.raises(UsageError, match="pass --language"):
        detect_language(["README.md"])
