"""A tmpfs of its own for each check of a warm container: `/work` and `/tmp` new, not wiped.

A wipe empties the container's mounts between checks, but a tmpfs hands out inode numbers in
order and never gives them back: the second check's files got higher numbers than the
first's, and a test could tell the reference's early runs from the mutants' later ones (#76).
So each check's commands run in user and mount namespaces of its own, made by the sandbox
user's command server before its first command (`server.CommandServer.nest`): a new tmpfs
on `/tmp`, and a new tmpfs on `/work` holding a copy of the snapshot the keeper unpacked
beneath it, made read-only. Its inode numbers, free space and free inodes are the first
check's again (`tests/sandbox/test_counters.py`).

An unprivileged user namespace maps one user: every file of the copy belongs to the sandbox
user, so neither the keeper's ownership nor the readers' group can stand between the code and
the snapshot there. The read-only mount stands for the first: made in the check's user
namespace, the code, one namespace further in, can neither remount nor unmount it (runc locks
it; under gVisor, which does not, the code may make no user namespace: `seccomp.
NO_USER_NAMESPACES`). A sealed command, for the second, gets each sealable file hidden behind
a file no one may read (`namespaces.SETUP`).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from tdd_sandbox.errors import SandboxUnavailable
from tdd_sandbox.sandbox.client import ENGINE_ERRORS, short_error
from tdd_sandbox.sandbox.namespaces import refused
from tdd_sandbox.sandbox.pool import Containers
from tdd_sandbox.sandbox.server import CommandServer, serve
from tdd_sandbox.sandbox.stream import CappedText, Ending
from tdd_sandbox.settings import SandboxSettings, parse_memory

_READ_S = 60.0
"""How long reading a file back may take (a FIFO where a file was expected never ends)."""

_REFUSED = "tdd-sandbox: could not make the check's mounts: "

CHECK = rf"""
fail() {{ echo "{_REFUSED}$1" >&2; exit 125; }}
w=$1; t=$2; shift 2
# Copied from beneath the new mount: the working directory is still the keeper's /work.
cd /work || fail /work
mount -t tmpfs -o size="$w",mode=755,nosuid,nodev,noexec tdd-work /work || fail /work
cp -R --preserve=mode,timestamps . /work/ || fail "the snapshot's copy"
mount -o remount,bind,ro /work || fail "/work read-only"
cd /tmp || fail /tmp
mount -t tmpfs -o size="$t",mode=1777,nosuid,nodev,exec tdd-tmp /tmp || fail /tmp
# The keeper's guarded folder (its unreadable shell), as it was: bound by its relative name
# (mount would make it absolute, which names the new /tmp now).
if [ -d .tdd ]; then
  mkdir /tmp/.tdd && mount --no-canonicalize --bind .tdd /tmp/.tdd || fail /tmp/.tdd
fi
cd /work && unset OLDPWD && exec "$@"
"""
"""Runs as root of the check's new user namespace (the sandbox user outside it), in a new
mount namespace: given `/work`'s and `/tmp`'s sizes and the nested server's argv."""


def check_argv(settings: SandboxSettings) -> list[str]:
    """The argv that makes a check's namespaces and mounts, then runs the argv after it
    (`server.CommandServer.nest` appends the nested server's)."""
    sizes = (str(parse_memory(settings.work_size)), str(parse_memory(settings.tmp_size)))
    return [
        "unshare", "--user", "--map-root-user", "--mount", "--propagation", "private",
        "sh", "-c", CHECK, "tdd-check", *sizes,
    ]  # fmt: skip


def nested(provider: Containers, container: str, user: str) -> CommandServer:
    """`container`'s server for `user`, serving a check's namespaces and mounts from now on
    if it did not yet.

    Raises:
        SandboxUnavailable: the engine or the kernel refuses them (the message says how).
        OSError: they could not be made otherwise, or the server is gone.
    """
    server = provider.server(container, user)
    if not server.nested:
        try:
            server.nest(check_argv(provider.settings))
        except OSError as exc:
            if why := refused(str(exc), _REFUSED):
                raise SandboxUnavailable(why) from None  # no code ran: not a verdict
            raise
    return server


def read_back(
    server: Callable[[], CommandServer], stop: Callable[[], None], argv: list[str], limit: int
) -> bytes | None:
    """What `argv` (a `head -c limit` of a file) prints, run by `server()` in the check's
    mounts, where the check's commands wrote; None when it fails. `stop` sweeps a read that
    did not end.

    Raises:
        SandboxUnavailable: the sandbox could not run it.
    """
    room = 2 * limit + 4096
    out, err = CappedText(room), CappedText(4096)
    deadline = time.monotonic() + _READ_S
    try:
        served = serve(server, stop, argv, out, err, env=None, stdin=None, deadline=deadline,
                       flood_limit=room)  # fmt: skip
    except ENGINE_ERRORS as exc:
        raise SandboxUnavailable(
            f"could not read {argv[-1]} in the sandbox: {short_error(exc)}"
        ) from None
    if served.ending is not Ending.EOF:
        stop()
    return out.tail(out.kept) if served.code == 0 else None
