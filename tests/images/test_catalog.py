from __future__ import annotations

from pathlib import Path

import pytest

from tdd_sandbox.errors import PrerequisiteError
from tdd_sandbox.images.catalog import content_hash, folder_files, image_tag, images_root
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
