"""Labels that mark every container the tool creates, and who owns it.

`gc` relies on these: it only ever touches containers carrying `LABEL`, and only when the
owner process named in `OWNER_LABEL` is gone.
"""

from __future__ import annotations

import os
import socket
from functools import cache
from pathlib import Path

LABEL = "tdd-sandbox"
RUN_LABEL = "tdd-sandbox.run"
OWNER_LABEL = "tdd-sandbox.owner"
CREATED_LABEL = "tdd-sandbox.created"
PROVIDER_LABEL = "tdd-sandbox.provider"
"""Which provider made a container: the one that removes it all when it closes."""


@cache
def owner_id() -> str:
    """`host:pid:start`, naming this process so that a reused pid is never mistaken for it."""
    return f"{socket.gethostname()}:{os.getpid()}:{_start_time(os.getpid())}"


def owner_is_local(owner: str) -> bool:
    """Whether `owner` names a process on this machine."""
    return owner.rsplit(":", 2)[0] == socket.gethostname()


def owner_alive(owner: str) -> bool:
    """Whether the process named by `owner` still runs. Unknown hosts count as alive."""
    try:
        host, pid_text, start = owner.rsplit(":", 2)
        pid = int(pid_text)
    except ValueError:
        return False
    if host != socket.gethostname():
        return True  # another machine's run: never ours to judge
    return _start_time(pid) == start


def _start_time(pid: int) -> str:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return "gone"
    # Field 22 (start time in clock ticks) counts after the parenthesised command name,
    # which may itself hold spaces.
    return stat.rsplit(")", 1)[1].split()[19]
