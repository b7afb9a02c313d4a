"""Making a Debian base image without any registry: debootstrap, then `docker import`."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import docker

from tdd_sandbox.errors import ImageBuildError, PrerequisiteError
from tdd_sandbox.images.builder import Progress, quiet
from tdd_sandbox.images.catalog import bootstrap_image
from tdd_sandbox.sandbox.client import ENGINE_ERRORS
from tdd_sandbox.settings import ImageSettings

_CHANGES = [
    "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    'CMD ["bash"]',
]


def bootstrap_base(
    client: docker.DockerClient, settings: ImageSettings, release: str, progress: Progress = quiet
) -> str:
    """Build a minimal Debian `release` root with debootstrap and import it as
    `tdd-sandbox/base:<release>`.

    Raises:
        PrerequisiteError: debootstrap is missing or this is not root.
        ImageBuildError: debootstrap or the import failed.
    """
    if shutil.which("debootstrap") is None:
        raise PrerequisiteError(
            "debootstrap is not installed: install it with `apt-get install -y debootstrap`"
        )
    if os.geteuid() != 0:
        raise PrerequisiteError("debootstrap needs root: run `sudo tdd-sandbox images bootstrap`")
    target = bootstrap_image(release)
    with tempfile.TemporaryDirectory(prefix="tdd-sandbox-bootstrap-") as scratch:
        root = Path(scratch) / "rootfs"
        progress(f"debootstrap {release} from {settings.mirror} (a minute or two)")
        _run(
            ["debootstrap", "--variant=minbase", release, str(root), settings.mirror],
            progress,
            "debootstrap",
        )
        shutil.rmtree(root / "var/cache/apt/archives", ignore_errors=True)
        archive = Path(scratch) / "rootfs.tar"
        _run(["tar", "-C", str(root), "-cf", str(archive), "."], progress, "tar")
        progress(f"importing as {target}")
        repository, tag = target.split(":")
        try:
            client.api.import_image_from_file(
                str(archive), repository=repository, tag=tag, changes=_CHANGES
            )
        except ENGINE_ERRORS as exc:
            raise ImageBuildError(f"importing the bootstrapped root failed: {exc}") from None
    progress(f"base image {target} ready")
    return target


def _run(command: list[str], progress: Progress, what: str) -> None:
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    last: list[str] = []
    for line in process.stdout:
        line = line.rstrip()
        last = [*last[-9:], line]
        if line.startswith(("I: Retrieving", "I: Validating")):
            continue  # hundreds of these; the stage lines are enough
        progress(line)
    if process.wait() != 0:
        raise ImageBuildError(f"{what} failed (exit {process.returncode}): " + " | ".join(last))
