"""The hardened container every gate runs in: one place that states each restriction."""

from __future__ import annotations

import socket
import time
from collections.abc import Mapping
from typing import Any

from docker import APIClient, DockerClient
from docker.models.containers import _create_container_args  # type: ignore[attr-defined]
from docker.types import LogConfig, Ulimit

from tdd_sandbox.errors import SandboxUnavailable
from tdd_sandbox.sandbox import seccomp
from tdd_sandbox.sandbox.client import ENGINE_ERRORS, hijacked, short_error
from tdd_sandbox.sandbox.labels import (
    CREATED_LABEL,
    LABEL,
    OWNER_LABEL,
    PROVIDER_LABEL,
    RUN_LABEL,
    owner_id,
)
from tdd_sandbox.sandbox.stream import CappedText, pump
from tdd_sandbox.settings import SandboxSettings, parse_memory

SANDBOX_USER = "10001:10003"
"""Runs every command. It owns nothing but what it creates under /tmp and /work; its group,
the readers', may read the snapshot's sealable files."""
SEALED_USER = "10001:10001"
"""The sandbox user outside the readers' group: runs sealed commands, which cannot read the
snapshot's sealable files. No command can join a group (no capability, no set-id program),
so sealing costs no command of its own. (In a warm container a check's commands read a copy
of the snapshot that is the sandbox user's own: there a mount seals it, `mounts.py`.)"""
KEEPER_USER = "10002:10002"
"""Owns the snapshot and reads files back; the sandbox user can neither signal nor change
what it owns."""
SHIPPER_USER = "10002:10003"
"""The keeper in the readers' group: the main process, which unpacks the snapshot (so every
file it owns belongs to that group) and then idles."""

SHIPPED = "tdd-shipped rc="
"""The last line the main process prints once the snapshot is unpacked, with tar's exit status
after it; tar's own messages, on the same stream, come before it."""
GUARDED_DIR = "/tmp/.tdd"
"""The keeper's folder (mode 711) in the sticky /tmp, made before any command runs: the
sandbox user can neither replace it nor put anything in it."""
GUARDED_SHELL = f"{GUARDED_DIR}/sh"
"""A copy of the image's `sh` that the sandbox user may run but not read. Linux marks a
process that runs a binary its user cannot read as not dumpable: no process of the same user
may then trace it or read or write its memory (`/proc/<pid>/mem`), as one could any shell of
its own user's (there is no capability to drop for that). So the supervisor and the tools'
scripts run in it under runc; gVisor refuses to run such a binary, and refuses a command any
trace of its ancestors anyway."""

SHIP_COMMAND = (
    "sh",
    "-c",
    # The snapshot arrives on the main process's stdin (attached once, closed after the tar):
    # no exec, so no runtime process to start for it. Nothing else ever writes this stdout:
    # no command has run when it is read, and none can reach another user's descriptors.
    f"{{ tar -x -m --no-same-owner -C /work -f - && mkdir -m 711 {GUARDED_DIR} "
    f'&& cp "$(command -v sh)" {GUARDED_SHELL} && chmod 711 {GUARDED_SHELL}; }} 2>&1; '
    f'echo "{SHIPPED}$?"; exec sleep infinity',
)

SENTRY_THREADS = 256
"""Host threads allowed to gVisor itself on top of `sandbox.pids`. Under runsc the
container's pids cgroup holds the Sentry and the Gofer (about 40 threads idle, more per
exec), not the code's processes, which are the Sentry's tasks: with no room for them the
sandbox hangs. The code's processes are then bounded by RLIMIT_NPROC, which gVisor's kernel
counts in this sandbox alone (under runc that limit would be shared host-wide by uid, and is
not set)."""

SENTRY_MEMORY = 256 * 1024 * 1024
"""Memory allowed to gVisor itself on top of `sandbox.memory`. Under runsc the container's
memory cgroup holds the Sentry's own memory (its kernel structures, one stub process per
guest process) beside the code's: with none to spare, code that fills `sandbox.pids` at 256m
(128 Go-spawned processes) left the Sentry starved, and the engine needed ~90 s to remove the
sandbox after the deadline (the verdict waited for it)."""

BASE_ENV = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TZ": "UTC"}
"""The whole environment a container gets besides the image's own and `sandbox.env`: the
host's environment (API keys included) never reaches it."""


IDLE = ["sleep", "infinity"]
"""The main process of a container whose checks run in fresh namespaces: its snapshots
arrive by exec, one check at a time (`namespaces.SHIP`)."""


def container_options(
    image: str, settings: SandboxSettings, *, run_id: str, provider: str
) -> dict[str, Any]:
    """Keyword arguments for `containers.create` that start an idle hardened container of
    run `run_id`, made by `provider` (`PROVIDER_LABEL`)."""
    warm = settings.isolation == "namespace"
    security = ["no-new-privileges:true"]
    if warm and settings.runtime == "runc":
        security.append(seccomp.security_option())
    memory = parse_memory(settings.memory)
    fsize = parse_memory(settings.fsize)
    ulimits = [
        Ulimit(name="nofile", soft=settings.nofile, hard=settings.nofile),
        Ulimit(name="fsize", soft=fsize, hard=fsize),
        Ulimit(name="core", soft=0, hard=0),
    ]
    pids = settings.pids
    if settings.runtime == "runsc":
        ulimits.append(Ulimit(name="nproc", soft=settings.pids, hard=settings.pids))
        pids += SENTRY_THREADS
        memory += SENTRY_MEMORY
    return {
        "image": image,
        "command": list(IDLE if warm else SHIP_COMMAND),
        "user": SHIPPER_USER,
        # Stdin open until the one attach that brings the snapshot closes it (`detach=False`
        # is how the SDK asks for StdinOnce; the container still starts detached).
        "stdin_open": not warm,
        "working_dir": "/work",
        "environment": sandbox_environment(settings.env),
        "labels": {
            LABEL: "1",
            RUN_LABEL: run_id,
            PROVIDER_LABEL: provider,
            OWNER_LABEL: owner_id(),
            CREATED_LABEL: str(int(time.time())),
        },
        "hostname": "sandbox",
        "runtime": settings.runtime,
        "network_mode": "none",
        "cap_drop": ["ALL"],
        "security_opt": security,
        "read_only": True,
        "tmpfs": {
            # The snapshot, owned by the keeper: commands can read it but change nothing in
            # it (tests, runner config, a planted .git), and nothing needs to run from it.
            "/work": f"size={parse_memory(settings.work_size)},uid=10002,gid=10002,mode=755,"
            "nosuid,nodev,noexec",
            # Build output (cargo runs test binaries from here) needs exec.
            "/tmp": f"size={parse_memory(settings.tmp_size)},mode=1777,nosuid,nodev,exec",
        },
        "shm_size": 16 * 1024 * 1024,
        "ipc_mode": "private",
        "pids_limit": pids,
        "mem_limit": memory,
        "memswap_limit": memory,  # equal to mem_limit: no swap to hide in
        "nano_cpus": int(settings.cpus * 1e9),
        "ulimits": ulimits,
        "init": True,  # reaps orphans, so a daemonising test leaves no zombies behind
        "log_config": LogConfig(
            type=LogConfig.types.JSON, config={"max-size": "1m", "max-file": "1"}
        ),
        "stop_signal": "SIGKILL",
        "detach": False,
    }


def create_container(
    client: DockerClient, options: dict[str, Any], settings: SandboxSettings
) -> str:
    """Create a container from `container_options`; its id.

    Under runc with `isolation: namespace`, the engine's masks over `/proc` are lifted for
    the container: a command cannot mount the fresh `/proc` of its pid namespace over a
    `/proc` with parts hidden (the kernel calls that "too revealing"). Nothing but our own
    tools runs in the container's `/proc`; each command masks its own again
    (`namespaces.SETUP`) before any code runs.

    Raises:
        docker.errors.APIError: the engine refused it.
    """
    # docker-py's own translation of `containers.create` arguments, so that the host config
    # can carry the two fields its keyword arguments have no name for.
    args = _create_container_args({**options, "version": client.api.api_version})
    if settings.isolation == "namespace" and settings.runtime == "runc":
        args["host_config"].update(MaskedPaths=[], ReadonlyPaths=[])
    return str(client.api.create_container(**args)["Id"])


def sandbox_environment(extra: Mapping[str, str]) -> dict[str, str]:
    """The allowlisted environment: fixed locale and time zone plus `sandbox.env`."""
    return {**BASE_ENV, **extra}


def ship(api: APIClient, container: str, archive: bytes, settings: SandboxSettings) -> None:
    """Unpack a snapshot's tar `archive` in `container`: on the stdin of its main process
    (`SHIP_COMMAND`), which prints tar's status when done.

    Raises:
        SandboxUnavailable: the archive could not be sent or unpacked.
    """
    out, err = CappedText(4096), CappedText(4096)

    def said() -> list[str]:
        return out.text().splitlines()

    def done() -> bool:
        return out.text().endswith("\n") and said()[-1].startswith(SHIPPED)

    try:
        sock = api.attach_socket(
            container, params={"stdin": 1, "stdout": 1, "stderr": 1, "stream": 1}
        )
        with hijacked(sock) as raw:
            raw.sendall(archive)
            raw.shutdown(socket.SHUT_WR)
            pump(raw, out, err, deadline=time.monotonic() + 60, flood_limit=1 << 20,
                 until=done)  # fmt: skip
    except ENGINE_ERRORS as exc:
        raise SandboxUnavailable(
            f"could not copy the repo into the sandbox: {short_error(exc)}"
        ) from None
    if not done():
        raise SandboxUnavailable("could not copy the repo into the sandbox: it stopped")
    lines = said()
    if lines[-1] != f"{SHIPPED}0":
        raise unpack_failed(lines, settings)


def unpack_failed(lines: list[str], settings: SandboxSettings) -> SandboxUnavailable:
    """The error for a snapshot that did not unpack, from what the unpacking printed (tar's
    first message, or its status line when there is none)."""
    problem = lines[0] if len(lines) > 1 else lines[-1]
    return SandboxUnavailable(
        f"unpacking the repo in the sandbox failed: {problem} (if the repo is larger than "
        f"sandbox.work_size, {settings.work_size}, raise it)"
    )
