"""The small shell supervisor that wraps every command inside a container.

It runs as the sandbox user, so after the command exits it can kill everything that user
still runs (daemons, stray children) with one `kill -9 -1`, which spares only itself and
processes of other users. It then reports, on stderr behind a per-call nonce, the exit
status, the OOM-kill count of the container's cgroup, and what it had to kill. It uses
shell builtins only between the command and the sweep, so it forks nothing it would then
have to tell apart from leftovers.
"""

from __future__ import annotations

import base64
import binascii
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, replace

from tdd_sandbox.sandbox import zygote

COUNTERS = r"""
counted() {
  # counted KEY FILE...: sets c to KEY's count in the cgroup's FILE (v1's or v2's: the one
  # that can be read). Builtins only: counting forks nothing.
  key=$1; shift; c=0
  for f in "$@"; do
    if [ -r "$f" ]; then
      while read -r k v; do if [ "$k" = "$key" ]; then c=$v; fi; done < "$f"
    fi
  done
}
cg=/sys/fs/cgroup
count_oom() { counted oom_kill $cg/memory/memory.oom_control $cg/memory.events; o=$c; }
count_refused() { counted max $cg/pids/pids.events $cg/pids.events; r=$c; }
"""
"""`count_oom` sets `o` to the OOM kills the container's memory cgroup has counted;
`count_refused`, `r` to the forks its pids cgroup has refused at its limit."""

_LIVE = r"""
live() {
  # Sets `others` to 1 when a process of the sandbox user but this shell is alive (a zombie
  # is dead: only its parent's wait is left of it). Shell builtins only: checking forks nothing.
  others=0
  for d in /proc/[0-9]*; do
    [ "${d#/proc/}" = "$$" ] && continue
    state=
    while read -r key value rest; do
      case "$key" in
        State:) state=$value ;;
        Uid:) [ "$value" = 10001 ] && [ "$state" != Z ] && [ "$state" != X ] && others=1; break ;;
      esac
    # The error goes first: a process gone since the listing fails the read, silently.
    done 2>/dev/null < "$d/status"
    [ "$others" = 1 ] && return 0
  done
}
"""

_FUNCTIONS = (
    COUNTERS
    + _LIVE
    + r"""
sweep() {
  # `ps` and the sweep run only when there is something to sweep.
  live
  if [ "$others" = 1 ]; then
    list=/tmp/.tdd-ps-$1
    ps -u 10001 -o pid=,stat=,args= > "$list" 2>/dev/null
    kill -9 -1 2>/dev/null; kill -9 -1 2>/dev/null; kill -9 -1 2>/dev/null
    # A killed process can take a while to die (the kernel frees its heap first): the sweep
    # ends when every one is gone, or it would be found again, as the next command's.
    tries=0; live
    while [ "$others" = 1 ] && [ "$tries" -lt 100 ]; do
      sleep 0.01; kill -9 -1 2>/dev/null; tries=$((tries + 1)); live
    done
    while read -r pid st args; do
      case "$pid" in "$$") continue ;; esac
      case "$st" in Z*) continue ;; esac
      case "$args" in "ps -u 10001 -o pid=,stat=,args=") continue ;; esac
      printf '\n@@%s leftover %s\n' "$1" "$args" >&2
    done < "$list"
    rm -f "$list"
  fi
}
"""
)

SCRIPT = (
    _FUNCTIONS
    + r"""
n=$1; collect=$2; shift 2
count_oom; before=$o; count_refused; refused=$r
"$@"
rc=$?
count_oom; after=$o; count_refused; refused=$((r - refused))
sweep "$n"
# A results file rides along, base64 on one line ending in " end": if the stderr cap cuts it,
# the end is missing and the caller reads the file instead.
if [ -n "$collect" ] && [ -f "$collect" ] && [ -r "$collect" ]; then
  printf '\n@@%s file ' "$n" >&2
  base64 -w0 < "$collect" >&2
  printf ' end\n' >&2
fi
printf '\n@@%s rc=%s oom=%s pids=%s\n' "$n" "$rc" "$((after - before))" "$refused" >&2
exit "$rc"
"""
)

# Several commands in one exec (an exec costs the engine a runtime process): each behind a
# `begin` line on both streams, supervised as above, its report tagged `<nonce>.<index>` with
# its run time in hundredths of a second off /proc/uptime (read by a builtin: no fork).
BATCH = (
    _FUNCTIONS
    + r"""
now() {
  # Hundredths of a second; leading zeros go, as arithmetic would read them as octal.
  read -r up rest < /proc/uptime; t=${up%.*}${up#*.}; t=${t#"${t%%[!0]*}"}; t=${t:-0}
}
n=$1; shift; i=0
for cmd in "$@"; do
  printf '\n@@%s begin %s\n' "$n" "$i"; printf '\n@@%s begin %s\n' "$n" "$i" >&2
  count_oom; before=$o; count_refused; refused=$r
  now; t0=$t
  eval "set -- $cmd"
  "$@"
  rc=$?
  now; t1=$t
  count_oom; after=$o; count_refused
  sweep "$n.$i"
  printf '\n@@%s.%s rc=%s oom=%s pids=%s cs=%s\n' "$n" "$i" "$rc" "$((after - before))" \
    "$((r - refused))" "$((t1 - t0))" >&2
  i=$((i + 1))
done
printf '\n@@%s done\n' "$n" >&2
exit 0
"""
)

SWEEP = [
    "sh",
    "-c",
    _LIVE
    # Kill again until none is alive (`live`, not `kill -0 -1`: Linux counts a process it may
    # not signal as found, so under runc the keeper's own gave a success). One round does not
    # end a fork bomb, whose processes fork faster than a round reaches them; nor three (under
    # gVisor on a loaded machine, in 3 of 30 stops its shells still ran into the next command;
    # in 6 of 25 with one quiet look: a fork under way when the process was killed can still
    # bring its child to life). So each round stops them all before it kills them (a stopped
    # process forks nothing), and the sweep ends after three quiet looks 10 ms apart: none of
    # 30 left anything then, zombies included. Builtins but for the pause: a sweep that
    # cannot fork still kills, and gives up after ~300 rounds.
    + "i=0; quiet=0; while [ $quiet -lt 3 ]; do [ $i -ge 300 ] && exit 1; live;"
    " if [ $others = 1 ]; then quiet=0; kill -STOP -1 2>/dev/null; kill -STOP -1 2>/dev/null;"
    " kill -9 -1 2>/dev/null;"
    " else quiet=$((quiet + 1)); fi; i=$((i + 1)); sleep 0.01 2>/dev/null; done; exit 0",
]
"""Kills every process of the sandbox user and waits until each is gone; exits 1 when some
still live (the caller then discards the container). Used when a command must be stopped."""
SWEEP_S = 5.0
"""How long a sweep may take before the container is replaced instead. Under gVisor a fork
bomb's took 4 to 8 s when it ended (its exec starts late in a sandbox full of processes, and
its first look reads each one's status) and 20 to 55 s in one stop of three; replacing the
container takes under half a second, and an ordinary stop's sweep well under one."""


@dataclass(frozen=True)
class Report:
    """What the supervisor said about one command."""

    exit_code: int
    oom_kills: int
    leftovers: tuple[str, ...]
    collected: bytes | None = None
    """The file asked for, read after the command (small files only; else None)."""
    seconds: float | None = None
    """The command's run time, as a batch measures it (else None)."""
    refused: int = 0
    """Forks the pids cgroup refused while the command ran (`COUNTERS`)."""


@dataclass(frozen=True)
class Part:
    """One command's share of a batch's output, and its report."""

    stdout: str
    stderr: str
    report: Report


def wrap(
    nonce: str, command: Sequence[str], collect: str = "", *, shell: str = "sh", warm: str = ""
) -> list[str]:
    """The argv that runs `command` under the supervisor; `collect` names a file to hand back
    with the report, which saves a second round trip for a small results file. The
    supervisor, and a command that is a shell script, run in `shell`; an interpreter's
    command, in the warm interpreter named `warm` if there is one (`zygote.py`)."""
    return [shell, "-c", SCRIPT, "tdd-supervisor", nonce, collect, *_in(shell, command, warm)]


def wrap_batch(
    nonce: str, commands: Sequence[Sequence[str]], *, shell: str = "sh", warm: str = ""
) -> list[str]:
    """The argv that runs each of `commands` in turn under the supervisor (`BATCH`); each is
    handed over as shell-quoted words, which the supervisor turns back into its arguments."""
    words = (shlex.join(_in(shell, c, warm)) for c in commands)
    return [shell, "-c", BATCH, "tdd-supervisor", nonce, *words]


def _in(shell: str, command: Sequence[str], warm: str) -> list[str]:
    # The tools' own scripts (a guard reading a runner's exit status, a driver framing its
    # results) outlive the code they run, as the supervisor does: the same shell keeps them
    # out of that code's reach.
    if command and command[0] == "sh":
        return [shell, *command[1:]]
    return zygote.served(command, warm)


def split_batch(stdout: str, stderr: str, nonce: str, count: int) -> list[Part] | None:
    """Each command's output and report from a batch's streams; None unless all `count`
    reports and the closing line are there in order.

    A command can read the nonce (it is in its parent's arguments) and print any line the
    supervisor would, but only before the supervisor's own, which it prints after the
    command and its processes are gone: so the last of each line is the supervisor's. A
    supervisor killed before its last line leaves a batch that is not taken at all.
    """
    begins = [f"\n@@{nonce} begin {i}\n" for i in range(count)]
    done = f"\n@@{nonce} done"
    out_at = [stdout.rfind(mark) for mark in begins]
    err_at = [stderr.rfind(mark) for mark in begins] + [stderr.rfind(done)]
    if min(out_at) < 0 or min(err_at) < 0:
        return None
    if out_at != sorted(set(out_at)) or err_at != sorted(set(err_at)):
        return None
    out_at.append(len(stdout))
    parts = []
    for i, mark in enumerate(begins):
        out = stdout[out_at[i] + len(mark) : out_at[i + 1]]
        err, report = extract(stderr[err_at[i] + len(mark) : err_at[i + 1]], f"{nonce}.{i}")
        if report is None:
            return None
        parts.append(Part(out, err, report))
    return parts


def extract(stderr: str, nonce: str) -> tuple[str, Report | None]:
    """Split the supervisor's lines from `stderr`; None when it never reported (it was killed)."""
    pattern = re.compile(rf"\n?@@{re.escape(nonce)} (.*)\n?")
    leftovers: list[str] = []
    report: Report | None = None
    collected: bytes | None = None
    for match in pattern.finditer(stderr):
        body = match.group(1)
        if body.startswith("leftover "):
            leftovers.append(body.removeprefix("leftover "))
        elif body.startswith("file "):
            collected = _decode(body)
        elif status := re.fullmatch(
            r"rc=(\d+) oom=(-?\d+)(?: pids=(-?\d+))?(?: cs=(-?\d+))?", body
        ):
            seconds = int(status.group(4)) / 100 if status.group(4) else None
            refused = max(0, int(status.group(3) or 0))
            report = Report(int(status.group(1)), max(0, int(status.group(2))), (), None,
                            seconds, refused)  # fmt: skip
    cleaned = pattern.sub("", stderr)
    if report is None:
        return cleaned, None
    return cleaned, replace(report, leftovers=tuple(leftovers), collected=collected)


def _decode(body: str) -> bytes | None:
    # "file <base64> end" on one line: a line cut by the output cap has no " end".
    if not body.endswith(" end"):
        return None
    try:
        return base64.b64decode(body.removeprefix("file ").removesuffix(" end"), validate=True)
    except (ValueError, binascii.Error):
        return None
