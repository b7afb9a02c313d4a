"""`tdd-sandbox doctor`: what this machine has and lacks, with the fix for each gap."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import docker

from tdd_sandbox.errors import TddSandboxError
from tdd_sandbox.images.builder import image_exists, plan_image
from tdd_sandbox.languages import LANGUAGES
from tdd_sandbox.sandbox.docker import ENGINE_ERRORS, connect
from tdd_sandbox.settings import Settings

MIN_FREE_BYTES = 5 * 1024**3


@dataclass(frozen=True)
class Check:
    """One line of the doctor's report."""

    name: str
    ok: bool
    detail: str
    fix: str = ""


def diagnose(settings: Settings, workdir: Path) -> list[Check]:
    """Every check, in order; a failed one never stops the others."""
    checks = [_git()]
    client, engine = _docker()
    checks.append(engine)
    if client is not None:
        checks.extend(_images(client, settings))
    checks.append(_disk(workdir))
    return checks


def _git() -> Check:
    git = shutil.which("git")
    if git is None:
        return Check("git", False, "not found", "install git (`apt-get install -y git`)")
    version = subprocess.run(
        [git, "--version"], capture_output=True, text=True, check=False
    ).stdout.strip()
    return Check("git", True, version)


def _docker() -> tuple[docker.DockerClient | None, Check]:
    try:
        client = connect(timeout_s=10)
        version = client.version()
    except TddSandboxError as exc:
        return None, Check("docker", False, str(exc))
    except ENGINE_ERRORS as exc:
        return None, Check("docker", False, str(exc), "check that the engine is healthy")
    detail = f"engine {version.get('Version', '?')} (API {version.get('ApiVersion', '?')})"
    return client, Check("docker", True, detail)


def _images(client: docker.DockerClient, settings: Settings) -> list[Check]:
    checks = []
    for language in LANGUAGES:
        name = f"image {language}"
        try:
            plan = plan_image(client, language, settings.images)
        except TddSandboxError as exc:
            checks.append(Check(name, False, "not buildable", str(exc)))
            continue
        if image_exists(client, plan.tag):
            checks.append(Check(name, True, f"{plan.tag} present"))
        else:
            detail = f"{plan.tag} missing; buildable on {plan.base_ref}"
            checks.append(
                Check(
                    name,
                    True,
                    detail,
                    f"built on first use, or `tdd-sandbox images build {language}`",
                )
            )
    return checks


def _disk(workdir: Path) -> Check:
    free = shutil.disk_usage(workdir if workdir.exists() else Path.cwd()).free
    detail = f"{free / 1024**3:.1f} GiB free"
    if free < MIN_FREE_BYTES:
        return Check("disk", False, detail, "free space: images need about 2 GiB, builds more")
    return Check("disk", True, detail)
