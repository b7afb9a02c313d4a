"""Building language images on the engine, with visible progress."""

from __future__ import annotations

import io
import tarfile
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import docker
import docker.errors

from tdd_sandbox.errors import ImageBuildError, PrerequisiteError
from tdd_sandbox.images.catalog import (
    LANGUAGE_LABEL,
    bootstrap_image,
    folder_files,
    image_tag,
    language_folders,
    release_of,
)
from tdd_sandbox.sandbox.client import ENGINE_ERRORS
from tdd_sandbox.sandbox.labels import LABEL
from tdd_sandbox.settings import ImageSettings

Progress = Callable[[str], None]


def quiet(_: str) -> None:
    """A progress sink that drops everything."""


@dataclass(frozen=True)
class ImagePlan:
    """What a language image is built from and will be called."""

    language: str
    tag: str
    base_ref: str
    files: dict[str, bytes]


def configured_base(settings: ImageSettings, release: str) -> str:
    """The image named for `release`: the settings' choice, else `debian:<release>-slim`."""
    named = {str(name): ref for name, ref in settings.bases.items()}
    return named.get(release, f"debian:{release}-slim")


def resolve_base(
    client: docker.DockerClient, settings: ImageSettings, release: str
) -> tuple[str, str]:
    """The base image to build on for `release`, as (reference, id): the configured base if
    the engine has it, else the bootstrapped one, else the configured base pulled from its
    registry.

    Raises:
        PrerequisiteError: none of these is available.
    """
    configured = configured_base(settings, release)
    for ref in (configured, bootstrap_image(release)):
        try:
            return ref, str(client.images.get(ref).id)
        except docker.errors.ImageNotFound:
            continue
        except ENGINE_ERRORS as exc:
            raise PrerequisiteError(f"cannot query images on the Docker engine: {exc}") from None
    try:
        image = client.images.pull(configured)
    except ENGINE_ERRORS as exc:
        reason = str(exc).splitlines()[0][:160] if str(exc) else type(exc).__name__
        raise PrerequisiteError(
            f"base image {configured} is not on the engine and cannot be pulled ({reason}): "
            f"build one offline with `tdd-sandbox images bootstrap {release}`"
        ) from None
    return configured, str(image.id)


def plan_image(client: docker.DockerClient, language: str, settings: ImageSettings) -> ImagePlan:
    """The tag and build inputs of a language image.

    Raises:
        PrerequisiteError: the language has no image folder, or no base image is available.
    """
    folders = language_folders(settings)
    if language not in folders:
        raise PrerequisiteError(
            f"no image definition for {language!r}: expected {settings.dir}/{language}/"
            "Dockerfile (images.dir), or unset images.dir to use the packs' own images"
        )
    files = folder_files(folders[language])
    base_ref, base_id = resolve_base(client, settings, release_of(files))
    # Named by its folder: languages that share an image share its tag, and one build.
    tag = image_tag(folders[language].name, files, base_id)
    return ImagePlan(language, tag, base_ref, files)


def image_exists(client: docker.DockerClient, tag: str) -> bool:
    """Whether the engine holds `tag`."""
    try:
        client.images.get(tag)
    except docker.errors.ImageNotFound:
        return False
    return True


def ensure_image(
    client: docker.DockerClient,
    language: str,
    settings: ImageSettings,
    progress: Progress = quiet,
) -> str:
    """The tag of the language's current image, building it first if it is missing.

    Raises:
        PrerequisiteError: it is missing and auto-build is off, or it cannot be built.
    """
    plan = plan_image(client, language, settings)
    if image_exists(client, plan.tag):
        return plan.tag
    if not settings.auto_build:
        raise PrerequisiteError(
            f"image {plan.tag} is missing: build it with `tdd-sandbox images build {language}`"
        )
    return build_image(client, plan, settings, progress)


def build_image(
    client: docker.DockerClient,
    plan: ImagePlan,
    settings: ImageSettings,
    progress: Progress = quiet,
) -> str:
    """Build `plan` and return its tag, reporting each build step through `progress`.

    Raises:
        ImageBuildError: the build failed; the message holds the end of its output.
    """
    progress(f"building {plan.tag} on {plan.base_ref}")
    recent: deque[str] = deque(maxlen=20)
    try:
        chunks = client.api.build(
            fileobj=_context(plan, settings),
            custom_context=True,
            tag=plan.tag,
            buildargs={"BASE_IMAGE": plan.base_ref},
            labels={LABEL: "1", LANGUAGE_LABEL: plan.language},
            rm=True,
            forcerm=True,
            decode=True,
        )
        for chunk in chunks:
            if "error" in chunk:
                tail = "\n".join(recent)
                raise ImageBuildError(
                    f"building {plan.tag} failed: {str(chunk['error']).strip()}\n{tail}"
                )
            for line in str(chunk.get("stream", "")).splitlines():
                if line.strip():
                    recent.append(line)
                    if line.startswith("Step "):
                        progress(line)
    except ENGINE_ERRORS as exc:
        raise ImageBuildError(f"building {plan.tag} failed: {exc}") from None
    progress(f"built {plan.tag}")
    return plan.tag


def _context(plan: ImagePlan, settings: ImageSettings) -> io.BytesIO:
    files = dict(plan.files)
    bundle = settings.ca_bundle
    if bundle is not None and bundle.is_file():
        # Not part of the tag: it changes how packages are fetched, not what is installed.
        files["build-ca.pem"] = bundle.read_bytes()
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for name, data in sorted(files.items()):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mode = 0o644
            tar.addfile(info, io.BytesIO(data))
    buffer.seek(0)
    return buffer
