"""Fresh namespaces for every command, inside a warm container that serves check after check.

A container costs the engine about half a second of CPU to create, start and remove; new
namespaces cost a command a few milliseconds. So with `sandbox.isolation: namespace` a
container is started once and serves one check at a time, and each command of a check runs
in new user, mount, pid, IPC, UTS and network namespaces (util-linux's `unshare`, in every
image, and measured faster than bubblewrap would be to install: see `benchmarks/
container_start.py`). Inside them it gets its own `/proc` (its processes alone, the host's
files masked as the engine masks them), an empty read-only `/sys` (no cgroup counters to
read another check's traces in), a fresh `/dev/shm`, its own System V IPC and abstract
sockets, and a loopback interface of its own. Then it drops every capability it had in its
namespace, may not gain one (`no_new_privs`), and may not make a user namespace, before the
supervisor runs the code as the namespace's pid 1: when that exits, the kernel kills every
process left in it.

Commands reach the container through its command servers (`server.py`), one exec per user
for the container's life, not an exec each; a check's commands run in user and mount
namespaces of the check's own, with a new `/tmp` and a read-only copy of the snapshot
(`mounts.py`). Between checks, the work tree and `/tmp` are emptied, every process of the
sandbox user but those servers killed, and the container's cleanliness checked before the
next snapshot goes in: a container that is not clean is destroyed (`WIPE`, `SHIP`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence

from tdd_sandbox.errors import SandboxUnavailable
from tdd_sandbox.sandbox import supervisor
from tdd_sandbox.sandbox.client import ENGINE_ERRORS, short_error
from tdd_sandbox.sandbox.container import (
    GUARDED_DIR,
    GUARDED_SHELL,
    SHIPPED,
    SHIPPER_USER,
    unpack_failed,
)
from tdd_sandbox.sandbox.pool import Containers
from tdd_sandbox.sandbox.seccomp import NO_USER_NAMESPACES
from tdd_sandbox.sandbox.server import CommandServer
from tdd_sandbox.sandbox.stream import CappedText
from tdd_sandbox.settings.sandbox import OciRuntime

_SHIP_S = 60.0

_PROC_FILES = "kcore keys latency_stats timer_list timer_stats sched_debug sysrq-trigger"
"""Host files of `/proc` hidden behind /dev/null, as the engine hides them in a container."""
_PROC_DIRS = "acpi scsi irq bus fs asound driver"
"""Host folders of `/proc` hidden behind an empty read-only tmpfs."""

_REFUSED = "tdd-sandbox: could not make fresh namespaces: "

SETUP = rf"""
fail() {{ echo "{_REFUSED}$1" >&2; exit 125; }}
n=$1; g=$2; host=$3; k=$4; shift 4
mount -t tmpfs -o size=16m,mode=1777,nosuid,nodev,noexec tdd-shm /dev/shm || fail /dev/shm
mount -t tmpfs -o size=4k,mode=555,nosuid,nodev,noexec tdd-sys /sys || fail /sys
# A sealed command's sealable files (the $k arguments after these), each hidden behind a file
# that no one may read: the check's copy of the snapshot is the sandbox user's own.
[ "$k" -eq 0 ] || (umask 777 && : > /sys/sealed) || fail "the seal"
mount -o remount,bind,ro /sys || fail /sys
while [ "$k" -gt 0 ]; do
  mount --bind /sys/sealed "/work/$1" && mount -o remount,bind,ro "/work/$1" ||
    fail "the seal over $1"
  shift; k=$((k - 1))
done
# The code runs as the sandbox user of a user namespace inside this one: every mount made here
# is locked under it, and it starts with no capability (it is not root there, and its execve
# clears them) and can gain none (no_new_privs, set on every process of the container).
if [ "$host" != 1 ]; then
  # gVisor: its /proc holds none of the host's files, its loopback is up, and its kernel,
  # not a limit on user namespaces, stands between the code and the host's; but the code
  # gets no user namespace (a filter, whose ready line comes once it holds). Each process
  # costs gVisor ~10 ms: none is started that is not needed.
  exec unshare --user --map-user=10001 --map-group="$g" -- \
    perl -e '{NO_USER_NAMESPACES}' "$n" "{_REFUSED}" "$@"
fi
for f in {_PROC_FILES}; do
  if [ -e "/proc/$f" ]; then mount --bind /dev/null "/proc/$f" || fail "/proc/$f"; fi
done
for d in {_PROC_DIRS}; do
  if [ -d "/proc/$d" ]; then
    mount -t tmpfs -o ro,size=4k,nosuid,nodev,noexec tdd-mask "/proc/$d" || fail "/proc/$d"
  fi
done
# One more user namespace, the code's own (below), and none of the code's, where it would
# hold every capability.
echo 1 > /proc/sys/user/max_user_namespaces || fail "the user namespace limit"
mount --bind /proc/sys /proc/sys && mount -o remount,bind,ro /proc/sys || fail /proc/sys
# Loopback up (SIOCGIFFLAGS, then SIOCSIFFLAGS with IFF_UP|IFF_RUNNING): runners that talk
# to themselves on 127.0.0.1 keep working, and nothing else is on this network. perl is in
# every Debian (perl-base is essential).
perl -e 'socket(my $s, 2, 2, 0) or die; my $r = pack("Z16 s x22", "lo", 0);
  ioctl($s, 0x8913, $r) or die; my $f = unpack("x16 s", $r); exit 0 if $f & 1;
  $r = pack("Z16 s x22", "lo", $f | 0x41); ioctl($s, 0x8914, $r) or die' || fail loopback
# The code's bounding set emptied too, with the capabilities kept for that one step (gVisor
# has no ambient capabilities to keep them by).
printf '\n@@%s ns ready\n' "$n" >&2
exec unshare --user --map-user=10001 --map-group="$g" --keep-caps \
  setpriv --inh-caps=-all --ambient-caps=-all --bounding-set=-all -- "$@"
"""
"""Runs as root of the new user namespace (the sandbox user outside it), as pid 1 of the new
pid namespace, with `/proc` already fresh; its arguments: the group the code runs as, 1 on
the host's kernel (runc), the number of sealed paths, those paths, and the supervisor's argv,
which it runs as the sandbox user with nothing (under gVisor, and no new user namespace:
`seccomp.NO_USER_NAMESPACES`)."""

ENTER = (
    supervisor.COUNTERS
    + r"""
n=$1; g=$2; host=$3; z=$4; shift 4
count_oom; before=$o; count_refused; refused=$r
set -- unshare --user --map-root-user --mount --pid --ipc --uts --net --fork \
  --mount-proc --propagation private sh -c "$0" tdd-setup "$n" "$g" "$host" "$@"
# A warm interpreter's socket (zygote.py) is reached only from the container's own network
# namespace, so the connection is made here and handed down as fd 3, to `zygote.CLIENT`
# (AF_UNIX, SOCK_STREAM; $^F: fd 3 stays open across exec). Plain perl: its modules cost 20 ms.
[ -n "$z" ] && set -- perl -e '$^F = 3; my ($z, $s) = shift;
  socket($s, 1, 1, 0) && fileno($s) == 3 && connect($s, pack("S", 1) . "\0$z");
  exec { $ARGV[0] } @ARGV' "$z" "$@"
"$@"
rc=$?
count_oom; after=$o; count_refused
printf '\n@@%s ns oom=%s pids=%s\n' "$n" "$((after - before))" "$((r - refused))" >&2
exit "$rc"
"""
)
"""Runs in the container as the sandbox user, outside the command's namespaces: it counts the
cgroup's OOM kills around the command (which cannot see the counter), and its line comes
after everything the command printed."""

_OTHERS = (
    # Every process of the sandbox user but this shell and the servers named as arguments
    # (`server.CommandServer`): shell builtins only, so that listing them forks nothing.
    'spare=" $$ $* "; others=""\n'
    "for d in /proc/[0-9]*; do\n"
    '  p=${d#/proc/}; case "$spare" in *" $p "*) continue ;; esac\n'
    '  while read -r k u rest; do if [ "$k" = Uid: ]; then\n'
    '    [ "$u" = 10001 ] && others="$others $p"; break; fi\n'
    '  done 2>/dev/null < "$d/status"\n'
    "done\n"
)

WIPE = [
    "sh",
    "-c",
    "for round in 1 2; do\n" + _OTHERS + '  [ -n "$others" ] && kill -9 $others 2>/dev/null\n'
    "done\n"
    "cd /tmp || exit 1\n"
    "for f in * .[!.]* ..?*; do\n"
    f'  case "$f" in {GUARDED_DIR.removeprefix("/tmp/")}) continue ;; esac\n'
    '  if [ -e "$f" ] || [ -L "$f" ]; then chmod -R u+rwX -- "$f" 2>/dev/null; '
    'rm -rf -- "$f" || exit 1; fi\n'
    "done\n",
    "tdd-wipe",
]
"""Run as the sandbox user after a check, the pids of the container's servers after it: kills
what the check left and empties /tmp."""

SHIP = [
    "sh",
    "-c",
    # Clean means: no process of the sandbox user but the servers, nothing in /tmp but the
    # guarded folder.
    _OTHERS + '[ -n "$others" ] && { echo "tdd-dirty process"; exit 3; }\n'
    "for f in /tmp/* /tmp/.[!.]* /tmp/..?*; do\n"
    f'  case "$f" in {GUARDED_DIR}) continue ;; esac\n'
    '  if [ -e "$f" ] || [ -L "$f" ]; then echo "tdd-dirty $f"; exit 3; fi\n'
    "done\n"
    "{ find /work -mindepth 1 -delete && tar -x -m --no-same-owner -C /work -f - && "
    f"{{ [ -x {GUARDED_SHELL} ] || {{ mkdir -m 711 {GUARDED_DIR} && "
    f'cp "$(command -v sh)" {GUARDED_SHELL} && chmod 711 {GUARDED_SHELL}; }}; }}; }} 2>&1\n'
    f'echo "{SHIPPED}$?"\n',
    "tdd-ship",
]
"""Run as the keeper before a check, the pids of the container's servers after it: checks the
container is clean, then unpacks the snapshot from stdin into the emptied work tree and prints
tar's status after `SHIPPED`."""


def enter(
    nonce: str,
    argv: list[str],
    user: str,
    runtime: OciRuntime,
    *,
    zygote: str = "",
    sealed: Sequence[str] = (),
) -> list[str]:
    """The argv that runs `argv` (the supervisor's) in fresh namespaces as `user` (uid:gid,
    as the exec runs) under `runtime`, with a connection to the warm interpreter named
    `zygote` (if any) as fd 3 and the snapshot's `sealed` paths unreadable; `nonce` tags the
    line that reports the OOM kills."""
    host = "1" if runtime == "runc" else "0"
    group = user.split(":")[1]
    return ["sh", "-c", ENTER, SETUP, nonce, group, host, zygote, str(len(sealed)), *sealed,
            *argv]  # fmt: skip


def oom_kills(stderr: str, nonce: str) -> int:
    """The OOM kills `ENTER` counted around a command (`counts`)."""
    return counts(stderr, nonce)[0]


def counts(stderr: str, nonce: str) -> tuple[int, int]:
    """The OOM kills and the forks the pids cgroup refused at its limit that `ENTER` counted
    around a command (0 and 0 when it did not report: the command ran in no namespaces of its
    own). The last such line is `ENTER`'s: a command can print the same line, but only
    before it."""
    found = re.findall(rf"\n@@{re.escape(nonce)} ns oom=(-?\d+)(?: pids=(-?\d+))?\n", stderr)
    if not found:
        return 0, 0
    oom, pids = found[-1]
    return max(0, int(oom)), max(0, int(pids or 0))


def ship(provider: Containers, container: str, archive: bytes, *, last: bool) -> bool:
    """Unpack a snapshot's tar `archive` into the emptied work tree of a warm `container`
    (`SHIP`, run by its keeper's server); False when the container is not clean (a process
    other than its servers, or a file of the last check, is still there), and nothing was
    unpacked.

    Raises:
        SandboxUnavailable: the archive could not be sent or unpacked, or (`last`) the
            container was not clean either.
    """
    out, err = CappedText(4096), CappedText(4096)
    try:
        spare = [str(pid) for pid in provider.spared(container)]
        served = provider.server(container, SHIPPER_USER).run(
            [*SHIP, *spare], out, err, env=None, stdin=archive,
            deadline=time.monotonic() + _SHIP_S, flood_limit=1 << 20,
        )  # fmt: skip
    except ENGINE_ERRORS as exc:
        raise SandboxUnavailable(
            f"could not copy the repo into the sandbox: {short_error(exc)}"
        ) from None
    lines = (out.text() + err.text()).splitlines() or ["no answer"]
    if served.code is not None and lines[-1] == f"{SHIPPED}0":
        return True
    if served.code is not None and lines[-1].startswith("tdd-dirty") and not last:
        return False
    raise unpack_failed(lines, provider.settings)


def wipe(server: CommandServer, spare: Sequence[int]) -> bool:
    """Empty a used container (`WIPE`, run by its sandbox user's `server`, sparing the
    servers `spare`); whether it is clean now."""
    out, err = CappedText(4096), CappedText(4096)
    served = server.run([*WIPE, *map(str, spare)], out, err, env=None, stdin=None,
                        deadline=time.monotonic() + _SHIP_S, flood_limit=1 << 20)  # fmt: skip
    return served.code == 0


def refusal(stderr: str, nonce: str) -> str | None:
    """Why a command's fresh namespaces could not be made, from its raw stderr; None when
    nothing says so, or when the setup got as far as the code (`SETUP`'s ready line, which
    comes before anything the code prints): past that line every byte may be the code's.
    Said once, with the fix."""
    text, _, _ = stderr.partition(f"\n@@{nonce} ns ready\n")
    if len(text) < len(stderr):
        return None
    return refused(text, _REFUSED)


def refused(text: str, prefix: str) -> str | None:
    """The first line of `text` that says namespaces were refused (it starts with `prefix`
    or is util-linux's), said with the fix; None when there is none."""
    for line in text.splitlines():
        if line.startswith((prefix, "unshare: ", "setpriv: ")):
            return (
                f"{line.removeprefix('tdd-sandbox: ')} (the engine, its seccomp or AppArmor "
                "profile, or the kernel refuses unprivileged user namespaces: set "
                "sandbox.isolation: container)"
            )
    return None
