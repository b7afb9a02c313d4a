"""Image builds on a real engine: reuse when unchanged, rebuild when the folder changes."""

from __future__ import annotations

import shutil
from pathlib import Path

import docker
import pytest

from tdd_sandbox.images.builder import ensure_image, image_exists, plan_image
from tdd_sandbox.images.catalog import LANGUAGE_LABEL, language_folders
from tdd_sandbox.images.inventory import missing_bases, needed_releases
from tdd_sandbox.settings import ImageSettings
from tests.helpers.cli import run_cli

pytestmark = pytest.mark.docker


def test_unchanged_image_is_reused(
    docker_client: docker.DockerClient, images: dict[str, str]
) -> None:
    messages: list[str] = []
    assert (
        ensure_image(docker_client, "python", ImageSettings(), messages.append) == images["python"]
    )
    assert messages == []  # nothing was built


def test_languages_that_share_an_image_share_its_tag_and_its_one_build(
    docker_client: docker.DockerClient, images: dict[str, str]
) -> None:
    messages: list[str] = []
    assert images["typescript"] == images["javascript"]
    assert plan_image(docker_client, "typescript", ImageSettings()).tag == images["javascript"]
    ensure_image(docker_client, "typescript", ImageSettings(), messages.append)
    assert messages == []  # JavaScript's image served: nothing was built


def test_changed_folder_gets_a_new_tag_and_is_built(
    docker_client: docker.DockerClient, images: dict[str, str], tmp_path: Path
) -> None:
    root = tmp_path / "images"
    shutil.copytree(language_folders(ImageSettings())["python"], root / "python")
    with (root / "python" / "Dockerfile").open("a") as dockerfile:
        dockerfile.write(f"# changed by {__name__}\n")
    settings = ImageSettings(dir=root)
    plan = plan_image(docker_client, "python", settings)
    assert plan.tag != images["python"]
    messages: list[str] = []
    try:
        assert ensure_image(docker_client, "python", settings, messages.append) == plan.tag
        assert any(message.startswith("Step ") for message in messages)  # visible progress
        labels = docker_client.images.get(plan.tag).labels
        assert labels[LANGUAGE_LABEL] == "python"
    finally:
        if image_exists(docker_client, plan.tag):
            docker_client.images.remove(plan.tag, force=True)


def test_missing_image_without_auto_build_names_the_command(
    docker_client: docker.DockerClient, images: dict[str, str], tmp_path: Path
) -> None:
    root = tmp_path / "images"
    shutil.copytree(language_folders(ImageSettings())["rust"], root / "rust")
    (root / "rust" / "extra.txt").write_text("changes the hash")
    from tdd_sandbox.errors import PrerequisiteError

    with pytest.raises(PrerequisiteError, match="tdd-sandbox images build rust"):
        ensure_image(docker_client, "rust", ImageSettings(dir=root, auto_build=False))


def test_every_release_an_image_builds_on_has_its_base(
    docker_client: docker.DockerClient, images: dict[str, str]
) -> None:
    assert needed_releases(ImageSettings()) == ["trixie"]
    assert missing_bases(docker_client, ImageSettings()) == []
    result = run_cli("images", "bootstrap")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "every base image is present"
