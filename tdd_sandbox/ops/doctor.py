"""`tdd-sandbox doctor`: what this machine has and lacks, with the fix for each gap: git,
the Docker engine, the images, free disk, and each role's model endpoint."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import docker

from tdd_sandbox.errors import SandboxUnavailable, TddSandboxError
from tdd_sandbox.images.builder import image_exists, plan_image
from tdd_sandbox.languages.registry import LANGUAGES
from tdd_sandbox.llm.endpoint import Endpoint, resolve_endpoint
from tdd_sandbox.sandbox.client import ENGINE_ERRORS, connect
from tdd_sandbox.sandbox.docker_provider import DockerSandboxProvider
from tdd_sandbox.sandbox.snapshot import Snapshot
from tdd_sandbox.sandbox.versions import read_versions, registered_runtimes, runc_unpatched
from tdd_sandbox.settings import Settings
from tdd_sandbox.vocabulary.roles import Role

MIN_FREE_BYTES = 5 * 1024**3


@dataclass(frozen=True)
class Check:
    """One line of the doctor's report."""

    name: str
    ok: bool
    detail: str
    fix: str = ""
    warn: bool = False
    """Usable, but worth the fix: said, without failing the doctor."""


def diagnose(settings: Settings, workdir: Path, *, models: bool = True) -> list[Check]:
    """Every check, in order; a failed one never stops the others. `models`: each role's
    endpoint and key too (a replay, an import, gates and scores need none)."""
    checks = [_git()]
    client, engine = _docker()
    checks.append(engine)
    if client is not None:
        images, present = _images(client, settings)
        checks.append(_runtime(client, settings, present))
        checks.extend(images)
    checks.append(_disk(workdir))
    if models:
        checks.extend(endpoints(settings))
    return checks


def endpoints(
    settings: Settings, label: str = "", seen: dict[tuple[str, str | None], Check] | None = None
) -> list[Check]:
    """Each role's endpoint answers `GET /models` (the key is used, never shown); `label`
    heads each check's name (a bench model's); `seen` keeps each endpoint probed once."""
    checks = []
    seen = {} if seen is None else seen
    for role in Role:
        role_settings = getattr(settings.roles, role.value)
        name = f"{label}{role.value} endpoint"
        try:
            endpoint = resolve_endpoint(role.value, role_settings, settings.llm)
        except TddSandboxError as exc:
            checks.append(Check(name, False, role_settings.model, str(exc)))
            continue
        key = (endpoint.base_url, endpoint.api_key_env)
        if key not in seen:
            seen[key] = _probe(name, endpoint)
        found = seen[key]
        checks.append(
            Check(
                name,
                found.ok,
                f"{role_settings.model} at {endpoint.base_url}: {found.detail}",
                found.fix,
            )
        )
    return checks


def _probe(name: str, endpoint: Endpoint) -> Check:
    import openai  # 0.4 s to load: only when an endpoint is probed

    client = openai.OpenAI(
        base_url=endpoint.base_url, api_key=endpoint.api_key or "unused", timeout=5, max_retries=0
    )
    try:
        models = [model.id for model in client.models.list()]
    except openai.APIStatusError as exc:
        return Check(name, False, f"HTTP {exc.status_code}", "check the key and the base URL")
    except openai.APIError as exc:
        return Check(name, False, type(exc).__name__, "start the server or fix llm.base_url")
    finally:
        client.close()
    listed = "listed" if endpoint.model in models else "not listed (may still work)"
    return Check(name, True, f"reachable, model {listed}")


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


def _runtime(client: docker.DockerClient, settings: Settings, image: str | None) -> Check:
    """The OCI runtime the sandboxes start under: registered with the engine, able to start a
    hardened container of `image` (when one is here yet), and (runc) not older than the fixes
    for known breakouts."""
    wanted = settings.sandbox.runtime
    if wanted not in registered_runtimes(client):
        return Check(
            "runtime", False, f"{wanted} is not registered with the engine",
            f"run `bash scripts/setup.sh` (it installs runsc and registers it), or add "
            f'"runtimes": {{"{wanted}": {{"path": "/usr/bin/{wanted}", "runtimeArgs": '
            '["--network=none"]}} to /etc/docker/daemon.json and `kill -HUP $(pidof dockerd)`; '
            "or set sandbox.runtime: runc",
        )  # fmt: skip
    versions = read_versions(client, wanted)
    detail = f"{versions.runtime or '?'} {versions.runtime_version}, kernel {versions.kernel}"
    failure = _start_under(client, settings, image) if image is not None else ""
    if failure:
        return Check(
            "runtime", False, f"{detail}: a hardened container does not start: {failure}",
            f"see the engine's log; `sandbox.runtime: runc` runs without {wanted}"
            if wanted != "runc" else "see the engine's log",
        )  # fmt: skip
    unpatched = runc_unpatched(versions.runtime_version) if versions.runtime == "runc" else False
    if unpatched is False:
        return Check("runtime", True, detail)
    known = "predates" if unpatched else "does not say whether it has"
    return Check(
        "runtime", True,
        f"{detail}: {known} the fixes for the 2025 runc container breakouts "
        "(CVE-2025-31133, CVE-2025-52565, CVE-2025-52881)",
        "give the engine runc 1.2.8, 1.3.3 or later (or a distribution build that backports "
        "the fixes) and restart dockerd",
        warn=True,
    )  # fmt: skip


def _start_under(client: docker.DockerClient, settings: Settings, image: str) -> str:
    """Why a sandbox of `image`, with every hardening flag and the configured isolation, does
    not run a command under the configured runtime ("" when it does). Removed either way."""
    sandbox = settings.sandbox.model_copy(update={"warm": 0})
    try:
        with (
            DockerSandboxProvider(sandbox, run_id="doctor", client=client) as provider,
            provider.open(image, Snapshot({"doctor.txt": b"ok\n"})) as box,
        ):
            result = box.exec(["cat", "doctor.txt"], timeout_s=60)
    except SandboxUnavailable as exc:
        return str(exc)
    if result.ok and result.stdout == "ok\n":
        return ""
    return f"`cat` exited with {result.exit_code}: {result.stderr.strip()[-200:]}"


def _images(client: docker.DockerClient, settings: Settings) -> tuple[list[Check], str | None]:
    """A check per language's image, and the first image present (to try the runtime on)."""
    checks = []
    present: str | None = None
    for language in LANGUAGES:
        name = f"image {language}"
        try:
            plan = plan_image(client, language, settings.images)
        except TddSandboxError as exc:
            checks.append(Check(name, False, "not buildable", str(exc)))
            continue
        if image_exists(client, plan.tag):
            checks.append(Check(name, True, f"{plan.tag} present"))
            present = present or plan.tag
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
    return checks, present


def _disk(workdir: Path) -> Check:
    free = shutil.disk_usage(workdir if workdir.exists() else Path.cwd()).free
    detail = f"{free / 1024**3:.1f} GiB free"
    if free < MIN_FREE_BYTES:
        return Check("disk", False, detail, "free space: images need about 2 GiB, builds more")
    return Check("disk", True, detail)
