"""The sections that bound where code runs: each container's limits, the images, the gates'
commands."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    field_validator,
)

_SANDBOX_ENV = re.compile(r"KATA_[A-Z0-9_]+|TZ|LANG|LANGUAGE|LC_[A-Z]+")
_MEMORY_UNITS = {"": 1, "b": 1, "k": 1024, "m": 1024**2, "g": 1024**3}


def parse_memory(value: str | int) -> int:
    """Turn `512m`, `1g` or a byte count into bytes.

    Raises:
        ValueError: the value is not a positive size.
    """
    if isinstance(value, int):
        size = value
    else:
        text = value.strip().lower()
        unit = text[-1] if text and text[-1] in _MEMORY_UNITS else ""
        number = text[: len(text) - len(unit)]
        try:
            size = int(float(number) * _MEMORY_UNITS[unit])
        except ValueError:
            raise ValueError(f"{value!r} is not a size; write e.g. 512m or 1g") from None
    if size <= 0:
        raise ValueError(f"{value!r} must be positive")
    return size


class Section(BaseModel):
    """Base of every nested section: unknown keys are an error, not silently ignored."""

    # The docstring under each field is its description (`docs/configuration.md` is made of
    # them), so a field is explained once, where it is declared.
    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


OciRuntime = Literal["runc", "runsc"]
"""The OCI runtimes a sandbox may start under."""

Isolation = Literal["container", "namespace"]
"""What makes each check's environment fresh: a container of its own, or new namespaces in a
warm container."""


class SandboxSettings(Section):
    """Limits of every container a gate runs in."""

    type: Literal["docker", "fake"] = "docker"
    """Where gates run: `docker` (`DOCKER_HOST` selects a remote engine), or `fake`, which
    runs nothing and scripts every gate from marks in the files (for testing the engine and
    measuring its overhead; `bench` refuses it)."""
    runtime: OciRuntime = "runc"
    """The OCI runtime every container starts under: `runc`, the engine's own, or `runsc`
    (gVisor), whose application kernel stands between model code and the host's kernel, so a
    kernel or runc flaw is not a way out. `runsc` must be registered with the engine
    (`scripts/setup.sh` does it for the engine it starts; `tdd-sandbox doctor` checks)."""
    isolation: Isolation = "namespace"
    """What each check gets that nothing ran in before. `container`: a container of its own,
    destroyed after it. `namespace`: a warm container that serves one check at a time and is
    emptied and checked between them, each command of a check in new user, mount, pid, IPC,
    UTS and network namespaces with its own `/proc`, no `/sys` and no capability (about half
    a second of the engine's CPU less per check). Under runc the container then runs with a
    system-call profile that also allows `unshare` and `mount` (`sandbox/seccomp.py` says
    which and why) and with `/proc` unmasked for the commands to mount their own, which they
    mask again before any code runs."""
    fake_gate_s: float = Field(0.0, ge=0)
    """How long each gate check of the fake backend takes."""
    timeout_s: float = Field(120.0, gt=0)
    """Wall-clock limit of one gate command; past it the whole process tree is killed."""
    memory: str = "1g"
    """Memory limit, swap included (memory = memory+swap)."""
    cpus: float = Field(1.0, gt=0)
    """CPU share of one container."""
    pids: int = Field(256, ge=16)
    """Most processes and threads a container may hold (stops fork bombs)."""
    work_size: str = "256m"
    """Size of the tmpfs that holds the repository snapshot."""
    tmp_size: str = "512m"
    """Size of the tmpfs at /tmp (build outputs, test scratch)."""
    nofile: int = Field(1024, ge=64)
    """Open file limit."""
    fsize: str = "128m"
    """Largest file a process may write."""
    output_limit: str = "256k"
    """Output kept per stream; the middle of longer output is cut with a marker."""
    flood_limit: str = "16m"
    """Output past which a command is stopped as a flood."""
    env: dict[str, str] = Field(default_factory=dict)
    """Extra variables for the container: `KATA_*` for the kata's own code, `TZ`, `LANG`,
    `LANGUAGE`, `LC_*`. Only these reach it: never the host environment, never a variable
    that steers a toolchain (`PYTHON*`, `PYTEST_*`, `RUST*`, `CARGO*`, `LD_*`...)."""
    warm: int = Field(3, ge=0, le=16)
    """Containers kept started ahead of need, so a gate costs little more than its command.
    With `isolation: container` each serves one snapshot and is then destroyed; with
    `namespace` each serves check after check, one at a time, emptied between them. Three,
    because the pool refills only when a sandbox closes (a start would compete with
    the command for the CPU), a container takes ~0.4 s to start, and a code change opens two
    at once (its gates and its probe): with fewer, a check that follows another at once (a
    fast model, a replay, a second racer) waits for one."""

    @field_validator("memory", "work_size", "tmp_size", "fsize", "output_limit", "flood_limit")
    @classmethod
    def _check_size(cls, value: str) -> str:
        parse_memory(value)
        return value

    @field_validator("env")
    @classmethod
    def _check_env(cls, value: dict[str, str]) -> dict[str, str]:
        for name in value:
            if any(word in name.upper() for word in ("KEY", "TOKEN", "SECRET", "PASSWORD")):
                raise ValueError(f"{name} looks like a secret; secrets never enter the sandbox")
            # An allowlist, not a denylist: a variable read by a runner or compiler
            # (PYTEST_ADDOPTS, RUSTC_WRAPPER, LD_PRELOAD) would change how the judge runs.
            if not _SANDBOX_ENV.fullmatch(name):
                raise ValueError(
                    f"sandbox.env may not set {name}: only KATA_*, TZ, LANG, LANGUAGE and LC_* "
                    "variables reach the sandbox"
                )
        return value


DebianRelease = Literal["bookworm", "trixie"]
"""The Debian releases a sandbox image may build on (12 and 13)."""


class ImageSettings(Section):
    """Where sandbox images come from."""

    bases: dict[DebianRelease, str] = {}
    """The image to build on, by Debian release (`{trixie: mirror.local/debian:13}`); a
    release not named here builds on `debian:<release>-slim`. When that cannot be found or
    pulled, the image made by `tdd-sandbox images bootstrap` is used instead."""
    mirror: str = "http://deb.debian.org/debian"
    """Debian mirror for `images bootstrap`."""
    auto_build: bool = True
    """Build a missing language image on first use."""
    dir: Path | None = None
    """Folder holding `<language>/Dockerfile`, used in place of the language packs' own
    images (the project's `images/<language>/`); unset: the packs' own."""
    ca_bundle: Path | None = Path("/etc/ssl/certs/ca-certificates.crt")
    """CA bundle handed to image builds so that pip works behind an intercepting proxy;
    skipped when the file does not exist."""


class GateOverride(Section):
    """Replacement commands for one language's gates; a missing key keeps the default."""

    format: list[str] | None = None
    lint: list[str] | None = None
    typecheck: list[str] | None = None
    build: list[str] | None = None
    test: list[str] | None = None
