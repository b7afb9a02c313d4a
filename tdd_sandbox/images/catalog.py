"""Where image definitions live and what each built image is called.

Each language pack's image is a folder of the project's `images/` (`images/<name>/`); `images.dir`
may point at a folder of one sub-folder per language instead. A language image is tagged
`tdd-sandbox/<language>:<hash>`, the hash covering the image folder's files and the base
image's id: an unchanged image is reused, a changed one rebuilt.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import get_args

from tdd_sandbox.errors import PrerequisiteError
from tdd_sandbox.languages.registry import LANGUAGES
from tdd_sandbox.settings import DebianRelease, ImageSettings

REPOSITORY = "tdd-sandbox"
BOOTSTRAP_REPOSITORY = f"{REPOSITORY}/base"
LANGUAGE_LABEL = "tdd-sandbox.language"
RELEASES: tuple[str, ...] = get_args(DebianRelease)
_BASE_ARG = re.compile(rb"^ARG BASE_IMAGE=debian:(?P<release>[a-z]+)-slim\s*$", re.MULTILINE)


def images_root(settings: ImageSettings) -> Path:
    """The folder `images.dir` names, holding one sub-folder per language.

    Raises:
        PrerequisiteError: it is not set, or not a folder.
    """
    root = settings.dir
    if root is None or not root.is_dir():
        raise PrerequisiteError(
            f"image definitions not found at {root}: set images.dir "
            "(TDD_SANDBOX_IMAGES__DIR) to a folder holding <language>/Dockerfile, or unset it "
            "to use the language packs' own images"
        )
    return root


def language_folders(settings: ImageSettings) -> dict[str, Path]:
    """Each language's image folder, by name: the packs' own (`images/<name>/`, or the
    folder of the pack whose image it shares), or the sub-folders holding a Dockerfile of
    `images.dir` where that is set.

    Raises:
        PrerequisiteError: `images.dir` is set but not a folder.
    """
    if settings.dir is None:
        return {name: language.image for name, language in LANGUAGES.items()}
    root = images_root(settings)
    found = {
        child.name: child
        for child in sorted(root.iterdir())
        if child.is_dir() and (child / "Dockerfile").is_file()
    }
    # A pack that runs in another's image (TypeScript in JavaScript's) finds it there too.
    shared = {n: found[p.image.name] for n, p in LANGUAGES.items() if p.image.name in found}
    return {**shared, **found}


def folder_files(folder: Path) -> dict[str, bytes]:
    """The build context files of an image folder, by relative path."""
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and not path.is_symlink()
    }


def content_hash(files: dict[str, bytes], base_id: str) -> str:
    """12 hex digits over the folder's files and the base image id."""
    digest = hashlib.sha256(base_id.encode())
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    return digest.hexdigest()[:12]


def image_tag(language: str, files: dict[str, bytes], base_id: str) -> str:
    """`tdd-sandbox/<language>:<hash>`."""
    return f"{REPOSITORY}/{language}:{content_hash(files, base_id)}"


def release_of(files: dict[str, bytes]) -> str:
    """The Debian release an image folder builds on, as its Dockerfile's
    `ARG BASE_IMAGE=debian:<release>-slim` names it.

    Raises:
        PrerequisiteError: the Dockerfile names no release this tool knows.
    """
    match = _BASE_ARG.search(files.get("Dockerfile", b""))
    if match is None or match["release"].decode() not in RELEASES:
        raise PrerequisiteError(
            "an image's Dockerfile must start from `ARG BASE_IMAGE=debian:<release>-slim` "
            f"with a release among {', '.join(RELEASES)}"
        )
    return match["release"].decode()


def bootstrap_image(release: str) -> str:
    """What `images bootstrap` calls the base it makes for `release`."""
    return f"{BOOTSTRAP_REPOSITORY}:{release}"
