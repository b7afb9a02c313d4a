"""Landing a green state: the only code that writes the user's working tree, and commits.

A state lands only if the tree is as the run left it: nothing uncommitted, HEAD where the
phase started. Then the changed files are written (never through a symlink) and committed
with a conventional message carrying the next agent's context.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from tdd_sandbox.agents.team import Team
from tdd_sandbox.engine.commits import CommitFacts, compose, diff_summary
from tdd_sandbox.engine.events import Committed, Event
from tdd_sandbox.engine.writing import write_changes
from tdd_sandbox.errors import TddSandboxError
from tdd_sandbox.grading.gates import GateReport
from tdd_sandbox.katas.kata import Kata
from tdd_sandbox.protocol import EditPlan
from tdd_sandbox.repo.hardened import HardenedRepo
from tdd_sandbox.repo.history import commit_paths, dirty_paths, head_files
from tdd_sandbox.settings import CommitSettings


@dataclass(frozen=True)
class Landing:
    """What one commit says about itself."""

    cycle: int
    kind: str
    """The conventional commit type: feat or refactor."""
    rationale: str
    attempts: dict[str, int]


@dataclass
class Lander:
    """Writes green states to the working tree and commits them."""

    repo: HardenedRepo
    kata: Kata
    team: Team
    run_id: str
    settings: CommitSettings
    emit: Callable[[Event], None]
    scripted: bool = False
    """The runtime scripts its verdicts (the fake): every message says so."""
    commits: list[str] = field(default_factory=list)

    def land(
        self,
        landing: Landing,
        before: Mapping[str, bytes],
        after: Mapping[str, bytes],
        report: GateReport,
        plan: EditPlan,
    ) -> str:
        """Write `after` over `before` in the working tree and commit it; its sha.

        Raises:
            TddSandboxError: the working tree changed under the run.
        """
        if dirty := dirty_paths(self.repo):
            raise TddSandboxError(
                f"the working tree changed during the run ({', '.join(dirty[:3])}): "
                "commit or discard those changes, then run again"
            )
        if head_files(self.repo) != dict(before):
            raise TddSandboxError("HEAD moved during the run: run again to continue from it")
        changed = write_changes(self.repo.path, before, after)
        message = compose(
            CommitFacts(
                kind=landing.kind,
                scope=self.kata.slug,
                model_message=plan.commit_message,
                kata_title=self.kata.title,
                cycle=landing.cycle,
                run_id=self.run_id,
                models=self.team.models(),
                attempts=landing.attempts,
                rationale=landing.rationale,
                diff_summary=diff_summary(before, after),
                report=report,
                scripted=self.scripted,
            )
        )
        sha = commit_paths(self.repo, changed, message, self.settings)
        self.commits.append(sha)
        self.emit(Committed(landing.cycle, landing.kind, sha, message.splitlines()[0]))
        return sha
