"""Where an attempt's candidate files sit while they are judged.

A lone attempt works in memory: the runtime ships the files themselves. A racing attempt
works in its own git worktree, made from HEAD with the phase's starting files written in,
so that the racers never share a directory and a loser's tree is removed whole.
"""

from __future__ import annotations

from collections.abc import Mapping

from typing_extensions import override

from tdd_sandbox.closing import Closing
from tdd_sandbox.engine.writing import write_changes
from tdd_sandbox.grading.verdicts import VerdictError
from tdd_sandbox.repo.hardened import HardenedRepo
from tdd_sandbox.repo.worktrees import create_worktree, remove_worktree
from tdd_sandbox.sandbox.snapshot import Snapshot
from tdd_sandbox.vocabulary.failures import Failure


class Workspace(Closing):
    """In memory: nothing to place, nothing to remove."""

    def place(self, files: Mapping[str, bytes]) -> Snapshot | None:
        """Put `files` in the workspace; the snapshot of them to judge, or None when the
        runtime is to ship `files` as they are.

        Raises:
            VerdictError: the workspace does not hold what was placed.
            OSError, EditRejected: the files could not be written.
        """
        return None

    def close(self) -> None:
        """Remove what the workspace made."""


class WorktreeSpace(Workspace):
    """A git worktree of its own, on its own branch."""

    def __init__(
        self,
        repo: HardenedRepo,
        name: tuple[str, int, str, int],
        head: Mapping[str, bytes],
        start: Mapping[str, bytes],
    ) -> None:
        """A worktree at HEAD (whose files are `head`) holding `start`; `name` is the run,
        cycle, phase and attempt it belongs to.

        Raises:
            git.exc.GitCommandError: git could not make it.
        """
        self._repo = repo
        self._tree = create_worktree(repo, *name)
        try:
            write_changes(self._tree.path, head, start)
        except BaseException:
            self.close()
            raise
        self._written: Mapping[str, bytes] = start

    @override
    def place(self, files: Mapping[str, bytes]) -> Snapshot:
        """Write what changed since the last placing, and read the tree back."""
        write_changes(self._tree.path, self._written, files)
        self._written = files
        placed = Snapshot.from_directory(self._tree.path)
        if dict(placed.files) != dict(files):
            raise VerdictError("the worktree does not hold the planned files", Failure.SANDBOX)
        return placed

    @override
    def close(self) -> None:
        """Remove the worktree and its branch."""
        remove_worktree(self._repo, self._tree)
