"""What every checker provides: gates checked on a set of files, whatever runs them.

The engine asks a checker one question: "what do the gates say about these files?" The Docker
checker answers by running them in a sandbox; the fake checker answers from a script, so
engine tests need no Docker. Either way the verdicts come from `grading`, so the rules the
engine is held to are the same.
"""

from __future__ import annotations

import uuid
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from tdd_sandbox.closing import Closing
from tdd_sandbox.grading.gates import GateReport
from tdd_sandbox.images.builder import Progress, quiet
from tdd_sandbox.languages.base import Language
from tdd_sandbox.repo.leftovers import reclaim_worktrees
from tdd_sandbox.sandbox.base import Sandbox
from tdd_sandbox.sandbox.snapshot import Snapshot
from tdd_sandbox.settings import Settings
from tdd_sandbox.vocabulary.cancel import CancelToken
from tdd_sandbox.vocabulary.cleanup import GcReport
from tdd_sandbox.vocabulary.results import GateKind


@dataclass(frozen=True)
class GateCheck:
    """One question to a checker: what do the gates say about these files?"""

    language: Language
    files: Mapping[str, bytes]
    kinds: frozenset[GateKind] | None = None
    """The gates to run; None: every gate."""
    snapshot: Snapshot | None = None
    """The files as a worktree holds them, where they sit in one (else made from `files`)."""
    tidy: Sequence[str] = ()
    """Paths to format with the language's formatter when the format gate fails."""
    timeout_s: float | None = None
    """Each gate's limit; None: `sandbox.timeout_s`."""
    perturbed: frozenset[str] = frozenset()
    """Tests whose expected values the files change (a probe): a checker that runs code
    needs no telling, the fake one fails them unless the code answers from tests."""
    names: Mapping[str, str] = field(default_factory=dict)
    """The neutral names the files' tests go by (a probe), and each test's own: a checker
    that runs code needs no telling, the fake one's code passes a test by its own name
    unless the code reads the names it is run under."""

    def sandboxed(self) -> Snapshot:
        """What goes into the sandbox: the worktree's snapshot, else one of `files`."""
        return self.snapshot or Snapshot(dict(self.files))


@dataclass(frozen=True)
class Checked:
    """The gates' report on some files, and those files formatted when that was asked for
    and the format gate failed (None otherwise)."""

    report: GateReport
    formatted: dict[str, bytes] | None = None


class Checker(Closing, ABC):
    """A backend that runs gates, chosen by `sandbox.type`; it owns what it starts."""

    kind: ClassVar[str]
    """The `sandbox.type` that builds it."""
    runs_code: ClassVar[bool]
    """Whether its verdicts come from really running the code (scores need that)."""

    def __init__(
        self, settings: Settings, *, progress: Progress = quiet, run_id: str | None = None
    ) -> None:
        self.settings = settings
        self.progress = progress
        self.run_id = run_id or uuid.uuid4().hex[:12]

    @abstractmethod
    def check(self, question: GateCheck, *, token: CancelToken | None = None) -> Checked:
        """Run the gates `question` asks for on its files. A cancelled `token` (the asking
        attempt lost its race) tears the check down.

        Raises:
            SandboxUnavailable: the backend failed, or the check was cancelled.
            PrerequisiteError: the backend cannot be used at all (no engine, no image).
        """

    @abstractmethod
    def open(self, language: Language, snapshot: Snapshot) -> Sandbox:
        """A sandbox of the language's image holding `snapshot`, for the caller to run
        commands in and close (acceptance drivers run in one).

        Raises:
            SandboxUnavailable: no sandbox could be started.
            PrerequisiteError: this backend runs no code, or has no image for the language.
        """

    def versions(self, language: Language) -> dict[str, str]:
        """What runs `language`'s sandboxes, for the records of every result: here the
        backend's kind alone."""
        del language  # a backend that runs no code uses no image
        return {"sandbox": self.kind}

    def reclaim(self, repo_dir: Path) -> GcReport:
        """Clear what a crashed run in `repo_dir` left behind (its worktrees, and whatever
        the backend itself started)."""
        report = GcReport(dry_run=False)
        reclaim_worktrees(repo_dir, report)
        return report
