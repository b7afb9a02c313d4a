from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from tdd_sandbox.errors import PrerequisiteError
from tdd_sandbox.images.catalog import (
    content_hash,
    folder_files,
    image_tag,
    images_root,
    language_folders,
    release_of,
)
from tdd_sandbox.languages.registry import LANGUAGES
from tdd_sandbox.settings import ImageSettings


def test_tag_is_stable_and_tracks_content_and_base(tmp_path: Path) -> None:
    (tmp_path / "Dockerfile").write_text("FROM x\n")
    files = folder_files(tmp_path)
    tag = image_tag("python", files, "sha256:base1")
    assert tag == image_tag("python", folder_files(tmp_path), "sha256:base1")
    assert tag.startswith("tdd-sandbox/python:")
    assert tag != image_tag("python", files, "sha256:base2")
    (tmp_path / "Dockerfile").write_text("FROM y\n")
    assert tag != image_tag("python", folder_files(tmp_path), "sha256:base1")


def test_hash_distinguishes_names_from_content() -> None:
    assert content_hash({"a": b"bc"}, "") != content_hash({"ab": b"c"}, "")


def test_missing_images_dir_is_a_prerequisite_error(tmp_path: Path) -> None:
    with pytest.raises(PrerequisiteError, match="TDD_SANDBOX_IMAGES__DIR"):
        images_root(ImageSettings(dir=tmp_path / "nope"))


def test_each_image_names_its_debian_release_in_its_dockerfile() -> None:
    folders = {
        name: folder_files(language_folders(ImageSettings())[name]) for name in tuple(LANGUAGES)
    }
    for name in tuple(LANGUAGES):
        assert release_of(folders[name]) == "trixie", name


def test_a_dockerfile_without_a_known_release_is_refused() -> None:
    for text in (b"FROM debian:bookworm-slim\n", b"ARG BASE_IMAGE=debian:sid-slim\n"):
        with pytest.raises(PrerequisiteError, match=r"ARG BASE_IMAGE=debian:<release>-slim"):
            release_of({"Dockerfile": text})


def test_bases_are_named_by_known_releases_only() -> None:
    assert ImageSettings(bases={"trixie": "mirror.local/debian:13"}).bases["trixie"]
    with pytest.raises(ValidationError, match="bookworm"):
        ImageSettings.model_validate({"bases": {"sid": "debian:sid"}})


def test_a_pack_that_shares_an_image_finds_it_in_a_users_images_dir_too(tmp_path: Path) -> None:
    # TypeScript runs in JavaScript's image: a user's images.dir with a `javascript` folder
    # serves both, and one with none serves neither (a clear "no image" then, not a guess).
    (tmp_path / "javascript").mkdir()
    (tmp_path / "javascript" / "Dockerfile").write_text("FROM x\n")
    folders = language_folders(ImageSettings(dir=tmp_path))
    assert folders["typescript"] == folders["javascript"] == tmp_path / "javascript"
    assert language_folders(ImageSettings())["typescript"].name == "javascript"
    (tmp_path / "javascript" / "Dockerfile").unlink()
    assert "typescript" not in language_folders(ImageSettings(dir=tmp_path))
