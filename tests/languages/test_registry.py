"""The one registry: every pack complete, every pack folder registered, nothing run with a
default where a pack lacks a part."""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from pathlib import Path

import pytest

import tdd_sandbox.languages as languages
from tdd_sandbox.errors import UsageError
from tdd_sandbox.grading.policy import check_policy
from tdd_sandbox.images.catalog import language_folders
from tdd_sandbox.languages.base import CHECKOUT_IMAGES, TOOL_IMAGE, Language
from tdd_sandbox.languages.parts import PARTS
from tdd_sandbox.languages.python.plugin import Python
from tdd_sandbox.languages.registry import (
    LANGUAGES,
    PackError,
    detect_language,
    get_language,
    missing_parts,
    register,
)
from tdd_sandbox.settings import ImageSettings
from tdd_sandbox.vocabulary.violation import Violation

PACKS = Path(languages.__file__).parent


def test_every_language_has_an_image_and_every_image_a_language() -> None:
    assert set(LANGUAGES) == set(language_folders(ImageSettings()))
    # The project's images/: one folder per pack, and the tool's own.
    folders = {p.name for p in CHECKOUT_IMAGES.iterdir() if (p / "Dockerfile").is_file()}
    assert folders == {*(pack.image.name for pack in LANGUAGES.values()), TOOL_IMAGE}


def test_an_image_folder_without_a_pack_is_refused(tmp_path: Path) -> None:
    for name in ("python", TOOL_IMAGE):
        shutil.copytree(CHECKOUT_IMAGES / name, tmp_path / "images" / name)
    assert register(Python(), images=tmp_path / "images")
    (tmp_path / "images" / "cobol").mkdir()
    (tmp_path / "images" / "cobol" / "Dockerfile").write_text("FROM scratch\n")
    with pytest.raises(PackError, match="images/cobol is no language pack's image"):
        register(Python(), images=tmp_path / "images")


def test_every_pack_folder_is_registered_and_every_pack_is_complete() -> None:
    folders = {p.name for p in PACKS.iterdir() if (p / "__init__.py").is_file()}
    assert folders == set(LANGUAGES)
    for name, pack in LANGUAGES.items():
        assert missing_parts(pack) == [], name
        # Everything a pack is lives in its own folder (plug-in, runner, reader, policy,
        # driver: host side and the program it ships) but its image, in images/; or, for a
        # pack made from another (TypeScript from JavaScript), in its own folder where it
        # differs and in the other's where it does not, image included.
        bases = [other for other in LANGUAGES.values() if isinstance(pack, type(other))]
        homes = {PACKS / base.name for base in bases}
        assert (PACKS / name / "plugin.py").is_file(), name
        assert pack.image in {CHECKOUT_IMAGES / base.name for base in bases}, name
        assert pack.driver.source.parent in homes, name
        for part in ("runner.py", "reader.py", "policy.py", "driver.py"):
            assert any((home / part).is_file() for home in homes), (name, part)


def test_registry_keys_match_plugin_names() -> None:
    assert all(key == plugin.name for key, plugin in LANGUAGES.items())


class _NoPolicy(Python):
    """A pack as a newcomer might leave it: everything but a policy."""

    check_source = None  # type: ignore[assignment]


class _NoGuard(Python):
    """A runner that never learned to run the tests under the guard."""

    guard = None  # type: ignore[assignment]


class _NoImage(Python):
    @property
    def image(self) -> Path:
        return Path("/nonexistent")


class _NoNote(Python):
    prompt_note = ""


class _NoTestSample(Python):
    def is_test_path(self, path: str) -> bool:
        return False

    @property
    def image(self) -> Path:
        return Python().image


class _PolicyOfItsOwn(Python):
    def check_source(
        self, path: str, text: str, *, is_test: bool, tree: Mapping[str, bytes]
    ) -> list[Violation]:
        return [Violation(path, 1, "everything", "refuses everything")]


@pytest.mark.parametrize(
    ("pack", "part"),
    [
        (_NoPolicy, "policy.check_source"),
        (_NoGuard, "runner.guard"),
        (_NoImage, "image/Dockerfile"),
        (_NoNote, "prompt_note"),
        (_NoTestSample, "test_sample"),
    ],
)
def test_a_pack_that_lacks_a_part_is_refused_by_name(pack: type[Python], part: str) -> None:
    with pytest.raises(PackError, match=f"language pack 'python' is incomplete: it lacks {part}"):
        register(pack())


def test_a_plugin_without_a_policy_cannot_even_be_made() -> None:
    from tdd_sandbox.languages.base import Defaults

    class Bare(Defaults):
        name = "bare"

    with pytest.raises(TypeError, match="check_source"):
        Bare()  # type: ignore[abstract]


def test_two_packs_of_one_name_are_refused() -> None:
    with pytest.raises(PackError, match="two language packs are named 'python'"):
        register(Python(), Python())


def test_the_policy_is_the_packs_own_and_reads_every_code_suffix() -> None:
    # Attack on the old judge: a language missing from the policy's own table got no
    # violation at all, and that table and the plug-in disagreed on Python's suffixes.
    # Now the policy is a part of the pack it is called with.
    pack: Language = _PolicyOfItsOwn()
    assert [v.rule for v in check_policy(pack, {"kata.py": b"x = 1\n"})] == ["everything"]
    python = get_language("python")
    assert python.source_suffixes == (".py", ".pyi")
    stub = b"import ctypes\n"
    assert [v.rule for v in check_policy(python, {"kata.pyi": stub})] == ["import:ctypes"]


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


@pytest.mark.parametrize("name", sorted(LANGUAGES))
def test_each_pack_shows_a_worked_answer_and_a_test_of_it(name: str) -> None:
    pack = LANGUAGES[name]
    (code_path, code), (test_path, test) = pack.sample, pack.test_sample
    assert not pack.is_test_path(code_path)
    assert pack.is_test_path(test_path)
    assert "twice" in code.lower()
    assert "vowel" in test.lower()
    assert "twice" not in test.lower()  # the tester's example is not the implementer's


def test_each_member_of_a_pack_belongs_to_exactly_one_part() -> None:
    members = [
        name
        for part in PARTS
        for name in {*part.__annotations__, *vars(part)}
        if not name.startswith("_")
    ]
    assert len(members) == len(set(members))
    assert {"guard", "check_source", "scaffold", "derive_calls"} <= set(members)
