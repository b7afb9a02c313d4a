"""Where image definitions live and what each built image is called.

A language image is tagged `tdd-sandbox/<language>:<hash>`, the hash covering the image
folder's files and the base image's id: an unchanged image is reused, a changed one rebuilt.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from tdd_sandbox.errors import PrerequisiteError
from tdd_sandbox.settings import ImageSettings

REPOSITORY = "tdd-sandbox"
BOOTSTRAP_IMAGE = f"{REPOSITORY}/base:bookworm"
LANGUAGE_LABEL = "tdd-sandbox.language"


def images_root(settings: ImageSettings) -> Path:
    """The folder holding one sub-folder per language.

    Raises:
        PrerequisiteError: it cannot be found.
    """
    root = settings.dir or Path(__file__).resolve().parents[2] / "images"
    if not root.is_dir():
        raise PrerequisiteError(
            f"image definitions not found at {root}: set images.dir "
            "(TDD_SANDBOX_IMAGES__DIR) to the images/ folder of a tdd-sandbox checkout"
        )
    return root


def language_folders(settings: ImageSettings) -> dict[str, Path]:
    """Each language folder that holds a Dockerfile, by name."""
    root = images_root(settings)
    return {
        child.name: child
        for child in sorted(root.iterdir())
        if child.is_dir() and (child / "Dockerfile").is_file()
    }


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
