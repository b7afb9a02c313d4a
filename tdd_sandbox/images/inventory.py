"""Building and listing every language's image at once."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import docker
import docker.errors

from tdd_sandbox.errors import UsageError
from tdd_sandbox.images.builder import (
    Progress,
    build_image,
    configured_base,
    image_exists,
    plan_image,
    quiet,
)
from tdd_sandbox.images.catalog import bootstrap_image, folder_files, language_folders, release_of
from tdd_sandbox.settings import ImageSettings


@dataclass(frozen=True)
class ImageRow:
    """One language's image as `images list` shows it."""

    language: str
    tag: str
    present: bool
    size_bytes: int


def _chosen(settings: ImageSettings, languages: Sequence[str]) -> list[str]:
    known = language_folders(settings)
    for name in languages:
        if name not in known:
            raise UsageError(f"no image for {name!r}: choose from {', '.join(sorted(known))}")
    return list(languages) or sorted(known)


def build_images(
    client: docker.DockerClient,
    settings: ImageSettings,
    languages: Sequence[str],
    *,
    force: bool = False,
    progress: Progress = quiet,
) -> list[str]:
    """Build each chosen language image that is missing (or all of them with `force`).

    Raises:
        UsageError: a language has no image folder.
        ImageBuildError: a build failed.
    """
    tags = []
    for language in _chosen(settings, languages):
        plan = plan_image(client, language, settings)
        if force or not image_exists(client, plan.tag):
            build_image(client, plan, settings, progress)
        else:
            progress(f"{plan.tag} is up to date")
        tags.append(plan.tag)
    return tags


def list_images(client: docker.DockerClient, settings: ImageSettings) -> list[ImageRow]:
    """Every language's current tag, and whether the engine has it."""
    rows = []
    for language in _chosen(settings, ()):
        plan = plan_image(client, language, settings)
        try:
            size = int(client.images.get(plan.tag).attrs.get("Size", 0))
            present = True
        except docker.errors.ImageNotFound:
            size, present = 0, False
        rows.append(ImageRow(language, plan.tag, present, size))
    return rows


def needed_releases(settings: ImageSettings) -> list[str]:
    """The Debian releases the image definitions build on.

    Raises:
        PrerequisiteError: a Dockerfile names no known release.
    """
    folders = language_folders(settings).values()
    return sorted({release_of(folder_files(folder)) for folder in folders})


def missing_bases(client: docker.DockerClient, settings: ImageSettings) -> list[str]:
    """The releases some image builds on for which the engine holds no base image yet."""
    return [
        release
        for release in needed_releases(settings)
        if not image_exists(client, configured_base(settings, release))
        and not image_exists(client, bootstrap_image(release))
    ]
