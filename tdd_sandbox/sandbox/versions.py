"""What ran the sandboxes: the engine, its OCI runtime and the kernel, recorded on every
result so that a score says what isolated the code it scored, and so `doctor` can say when
the runtime predates the fixes for known container breakouts."""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import asdict, dataclass, fields
from typing import Any

import docker

from tdd_sandbox.sandbox.client import ENGINE_ERRORS

RUNC_FIXED = ((1, 2, 8), (1, 3, 3))
"""The first runc releases of the 1.2 and 1.3 lines with the fixes for the 2025 breakouts
(CVE-2025-31133, CVE-2025-52565, CVE-2025-52881); 1.4 and later carry them too."""


@dataclass(frozen=True)
class EngineVersions:
    """The engine's version, its default OCI runtime and that runtime's version, and the
    kernel the containers share ("" where the engine does not say)."""

    engine: str
    runtime: str
    runtime_version: str
    kernel: str

    def to_json(self) -> dict[str, str]:
        """The versions as a record's fields."""
        return asdict(self)

    def line(self) -> str:
        """One line for a report: `docker 27.5.1, runc 1.2.8, kernel 6.8.0`."""
        runtime = f"{self.runtime} {self.runtime_version}".strip()
        return f"docker {self.engine}, {runtime or 'runtime unknown'}, kernel {self.kernel}"


ENGINE_FIELDS = tuple(field.name for field in fields(EngineVersions))
"""The fields a record of `EngineVersions.to_json` holds."""


def read_versions(client: docker.DockerClient, runtime: str | None = None) -> EngineVersions:
    """What the engine says of itself and of `runtime`, the OCI runtime the sandboxes start
    under (None: the engine's default). Two calls; an engine that fails them is unknown."""
    try:
        info: dict[str, Any] = client.info()
        version: dict[str, Any] = client.version()
    except ENGINE_ERRORS:
        return EngineVersions("", "", "", "")
    runtime = runtime or str(info.get("DefaultRuntime") or "")
    components = {
        str(part.get("Name", "")).lower(): str(part.get("Version", ""))
        for part in version.get("Components") or []
    }
    runtime_version = components.get(runtime, "")
    if not runtime_version and runtime == "runc":
        runtime_version = str((info.get("RuncCommit") or {}).get("ID", ""))
    if not runtime_version:
        registered = (info.get("Runtimes") or {}).get(runtime) or {}
        runtime_version = _local_version(str(registered.get("path") or ""))
    return EngineVersions(
        engine=str(version.get("Version") or info.get("ServerVersion") or ""),
        runtime=runtime,
        runtime_version=runtime_version,
        kernel=str(info.get("KernelVersion") or ""),
    )


def registered_runtimes(client: docker.DockerClient) -> frozenset[str]:
    """The OCI runtimes the engine can start containers under (empty if it does not say)."""
    try:
        return frozenset((client.info().get("Runtimes") or {}).keys())
    except ENGINE_ERRORS:
        return frozenset()


def _local_version(path: str) -> str:
    """`runsc --version`'s version, when the engine runs on this machine (the engine names the
    runtime's binary but not its version); "" for a remote engine or a binary that is not here."""
    if not path or os.environ.get("DOCKER_HOST", "unix://").split("://")[0] != "unix":
        return ""
    try:
        done = subprocess.run(
            [path, "--version"], capture_output=True, text=True, timeout=5, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    first = done.stdout.splitlines()[0] if done.stdout else ""
    return first.rsplit(" ", 1)[-1] if "version" in first else ""


def runc_unpatched(version: str) -> bool | None:
    """Whether a runc of `version` predates the breakout fixes (`RUNC_FIXED`); None when the
    version cannot be read. A distribution's own build (`1.1.5+ds1-1+deb12u1`) is judged by
    the release it is built from: backported fixes do not show in the version."""
    match = re.match(r"v?(\d+)\.(\d+)\.(\d+)", version.strip())
    if match is None:
        return None
    release = (int(match[1]), int(match[2]), int(match[3]))
    first, second = RUNC_FIXED
    if release < first:
        return True
    return release[:2] == second[:2] and release < second
