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
from dataclasses import dataclass

SCRIPT = r"""
n=$1; collect=$2; shift 2
count_oom() {
  o=0
  for f in /sys/fs/cgroup/memory/memory.oom_control /sys/fs/cgroup/memory.events; do
    if [ -r "$f" ]; then
      while read -r k v; do if [ "$k" = oom_kill ]; then o=$v; fi; done < "$f"
    fi
  done
}
count_oom; before=$o
"$@"
rc=$?
count_oom; after=$o
# Any other process of the sandbox user left? Shell builtins only, so that checking forks
# nothing; `ps` and the sweep run only when there is something to sweep.
others=0
for d in /proc/[0-9]*; do
  [ "${d#/proc/}" = "$$" ] && continue
  while read -r key uid rest; do
    if [ "$key" = "Uid:" ]; then [ "$uid" = 10001 ] && others=1; break; fi
  done < "$d/status" 2>/dev/null
done
if [ "$others" = 1 ]; then
  list=/tmp/.tdd-ps-$n
  ps -u 10001 -o pid=,stat=,args= > "$list" 2>/dev/null
  kill -9 -1 2>/dev/null; kill -9 -1 2>/dev/null; kill -9 -1 2>/dev/null
  while read -r pid st args; do
    case "$pid" in "$$") continue ;; esac
    case "$st" in Z*) continue ;; esac
    case "$args" in "ps -u 10001 -o pid=,stat=,args=") continue ;; esac
    printf '\n@@%s leftover %s\n' "$n" "$args" >&2
  done < "$list"
  rm -f "$list"
fi
# A results file rides along, base64 on one line ending in " end": if the stderr cap cuts it,
# the end is missing and the caller reads the file instead.
if [ -n "$collect" ] && [ -f "$collect" ] && [ -r "$collect" ]; then
  printf '\n@@%s file ' "$n" >&2
  base64 -w0 < "$collect" >&2
  printf ' end\n' >&2
fi
printf '\n@@%s rc=%s oom=%s\n' "$n" "$rc" "$((after - before))" >&2
exit "$rc"
"""

SWEEP = ["sh", "-c", "kill -9 -1; kill -9 -1; kill -9 -1; exit 0"]
"""Kills every process of the sandbox user; used when a command must be stopped."""


@dataclass(frozen=True)
class Report:
    """What the supervisor said about one command."""

    exit_code: int
    oom_kills: int
    leftovers: tuple[str, ...]
    collected: bytes | None = None
    """The file asked for, read after the command (small files only; else None)."""


def wrap(nonce: str, command: list[str], collect: str = "") -> list[str]:
    """The argv that runs `command` under the supervisor; `collect` names a file to hand back
    with the report, which saves a second round trip for a small results file."""
    return ["sh", "-c", SCRIPT, "tdd-supervisor", nonce, collect, *command]


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
        elif status := re.fullmatch(r"rc=(\d+) oom=(-?\d+)", body):
            report = Report(int(status.group(1)), max(0, int(status.group(2))), ())
    cleaned = pattern.sub("", stderr)
    if report is None:
        return cleaned, None
    return cleaned, Report(report.exit_code, report.oom_kills, tuple(leftovers), collected)


def _decode(body: str) -> bytes | None:
    # "file <base64> end" on one line: a line cut by the output cap has no " end".
    if not body.endswith(" end"):
        return None
    try:
        return base64.b64decode(body.removeprefix("file ").removesuffix(" end"), validate=True)
    except (ValueError, binascii.Error):
        return None
