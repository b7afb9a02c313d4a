"""The sandbox interface: a place holding one repository snapshot where commands run.

A command that fails, times out or is killed for memory is *data* (an `ExecResult`); only a
sandbox that cannot be used at all raises `SandboxUnavailable`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from tdd_sandbox.closing import Closing
from tdd_sandbox.sandbox.snapshot import Snapshot

WORKDIR = "/work"
"""Where the snapshot lives inside every sandbox (read-only for the commands)."""


@dataclass(frozen=True)
class ExecResult:
    """What one command did. Output is capped; `output_truncated` says whether text was cut."""

    exit_code: int | None
    """The command's exit status; None when it was killed before it could report one."""
    stdout: str
    stderr: str
    duration_s: float
    timed_out: bool = False
    """The wall-clock limit ran out and the whole process tree was killed."""
    oom_killed: bool = False
    """The kernel killed a process of the command for exceeding the memory limit."""
    process_limit: bool = False
    """The kernel refused the command a process or thread: it met the sandbox's process
    limit (counted by the pids cgroup, under runc; gVisor's tasks are not in it)."""
    output_truncated: bool = False
    """Output past the cap was cut (a marker stands where it was)."""
    flooded: bool = False
    """The command printed past the flood limit and was stopped."""
    leftover_processes: tuple[str, ...] = field(default_factory=tuple)
    """Processes the command left running (daemons); they were killed."""
    collected: bytes | None = None
    """The file `exec(collect=...)` asked for, when it could be handed back with the result."""

    @property
    def ok(self) -> bool:
        """The command exited 0 on its own, cleanly, and nothing was cut short."""
        return (
            self.exit_code == 0
            and not (self.timed_out or self.oom_killed or self.flooded)
            and not self.leftover_processes
        )


class Sandbox(Closing, ABC):
    """One isolated environment holding one snapshot. Use it as a context manager."""

    @abstractmethod
    def exec(
        self,
        command: Sequence[str],
        *,
        timeout_s: float | None = None,
        env: Mapping[str, str] | None = None,
        collect: str | None = None,
        stdin: bytes | None = None,
        sealed: bool = False,
    ) -> ExecResult:
        """Run `command` in the snapshot directory as the unprivileged sandbox user.

        When it returns, nothing the command started is still running. `collect` names a
        small file to return in `ExecResult.collected` (None when it could not be; use
        `read_file` then). `stdin` is what the command reads on its standard input, then
        end of file; None: nothing is attached. A `sealed` command cannot read the
        snapshot's sealable files, as the operating system enforces it: nothing it runs
        can undo that.

        Raises:
            SandboxUnavailable: the sandbox cannot run commands at all.
        """

    def exec_each(
        self, commands: Sequence[Sequence[str]], *, timeout_s: float | None = None
    ) -> list[ExecResult]:
        """Run each of `commands` in turn, as `exec` runs one (each with its own limits and
        its own result). A backend may run them in one round trip, with the same results.

        Raises:
            SandboxUnavailable: the sandbox cannot run commands at all.
        """
        return [self.exec(command, timeout_s=timeout_s) for command in commands]

    @property
    @abstractmethod
    def sealable(self) -> frozenset[str]:
        """The snapshot's files that a sealed command cannot read."""

    @abstractmethod
    def read_file(self, path: str, *, max_bytes: int = 8 * 1024 * 1024) -> bytes | None:
        """The content of a file inside the sandbox, or None when it does not exist.

        Raises:
            SandboxUnavailable: the sandbox cannot be read.
        """

    @abstractmethod
    def close(self) -> None:
        """Destroy the sandbox and everything in it. Safe to call twice."""


class SandboxProvider(Closing, ABC):
    """Makes sandboxes for one backend and owns what it started."""

    @abstractmethod
    def open(self, image: str, snapshot: Snapshot) -> Sandbox:
        """A new sandbox from `image` holding `snapshot`.

        Raises:
            SandboxUnavailable: the backend cannot start one.
        """

    def prewarm(self, image: str, *, preload: tuple[str, ...] = ()) -> None:
        """Start sandboxes of `image` ahead of need, where the backend can; `preload`: the
        modules a warm interpreter there imports, where the backend has one."""

    @abstractmethod
    def close(self) -> None:
        """Destroy every sandbox this provider still holds."""
