"""The small shell supervisor that wraps every command inside a container.

It runs as the sandbox user, so after the command exits it can kill everything that user
still runs (daemons, stray children) with one `kill -9 -1`, which spares only itself and
processes of other users. It then reports, on stderr behind a per-call nonce, the exit
status, the OOM-kill count of the container's cgroup, and what it had to kill. It uses
shell builtins only between the command and the sweep, so it forks nothing it would then
have to tell apart from leftovers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SCRIPT = r"""
n=$1; shift
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


def wrap(nonce: str, command: list[str]) -> list[str]:
    """The argv that runs `command` under the supervisor."""
    return ["sh", "-c", SCRIPT, "tdd-supervisor", nonce, *command]


def extract(stderr: str, nonce: str) -> tuple[str, Report | None]:
    """Split the supervisor's lines from `stderr`; None when it never reported (it was killed)."""
    pattern = re.compile(rf"\n?@@{re.escape(nonce)} (.*)\n?")
    leftovers: list[str] = []
    report: Report | None = None
    for match in pattern.finditer(stderr):
        body = match.group(1)
        if body.startswith("leftover "):
            leftovers.append(body.removeprefix("leftover "))
        elif status := re.fullmatch(r"rc=(\d+) oom=(-?\d+)", body):
            report = Report(int(status.group(1)), max(0, int(status.group(2))), ())
    cleaned = pattern.sub("", stderr)
    if report is None:
        return cleaned, None
    return cleaned, Report(report.exit_code, report.oom_kills, tuple(leftovers))
