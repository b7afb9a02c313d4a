"""A finished run proposed for review: its branch pushed and its pull request opened, or
found open and brought up to date (`run --pr`)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tdd_sandbox.engine.events import EventName
from tdd_sandbox.engine.journal import latest_run, read_events, run_dir
from tdd_sandbox.engine.phases import RunSummary
from tdd_sandbox.forge.body import RunReport, body, title
from tdd_sandbox.forge.client import Forge, ForgeError, PullRequest, repository_of
from tdd_sandbox.forge.push import push_branch, remote_url
from tdd_sandbox.repo.environment import git_environment
from tdd_sandbox.settings import Settings
from tdd_sandbox.vocabulary.failures import Failure
from tdd_sandbox.vocabulary.files import write_atomic


def propose(summary: RunSummary, settings: Settings, *, remote: str) -> PullRequest:
    """Push the run's branch to `remote` and open (or update) its pull request into the
    branch the run started from.

    Raises:
        ForgeError: the push or the forge failed; the commits stay on the local branch.
    """
    directory = Path(summary.repo)
    if not summary.base:
        raise ForgeError("the run did not work on a branch of its own: run it with --pr")
    repository = settings.forge.repository or repository_of(remote_url(directory, remote))
    if repository is None:
        raise ForgeError(
            f"cannot tell the forge's repository from the URL of remote {remote!r}: set "
            "forge.repository to owner/name"
        )
    forge = Forge(settings.forge, repository)  # no token: nothing is pushed either
    report = RunReport(
        kata=summary.kata, status=summary.status, cycles=summary.cycles, run_id=summary.run_id,
        subjects=_subjects(directory, summary.base, summary.branch), models=summary.models,
        green_commits=len(summary.commits),
        tamper_events=_tamper_events(directory, summary.run_id),
    )  # fmt: skip
    try:
        push_branch(directory, remote, summary.branch)
        return forge.open_or_update(summary.branch, summary.base, title(report), body(report))
    finally:
        forge.close()


def _subjects(directory: Path, base: str, branch: str) -> list[str]:
    """The subjects of the commits on `branch` and not on `base`, oldest first."""
    listed = subprocess.run(  # hardened: the subjects come from commits a model's files fed
        ["git", "-C", str(directory), "log", "--reverse", "--format=%s",
         f"refs/heads/{base}..refs/heads/{branch}", "--"],
        env=git_environment(), capture_output=True, text=True, check=True,
    )  # fmt: skip
    return listed.stdout.splitlines()


def _tamper_events(directory: Path, run_id: str) -> int:
    """How many of the run's attempts were refused as a forged verdict (its journal)."""
    return sum(
        event.get("event") == EventName.REJECTED and Failure.read(event.get("kind")).is_tamper
        for event in read_events(run_dir(directory, run_id))
    )


def last_run(repo_dir: Path) -> RunSummary:
    """The summary of the last run in `repo_dir`.

    Raises:
        ForgeError: no run ended there yet.
    """
    found = latest_run(repo_dir)
    summary = found / "summary.json" if found is not None else None
    if summary is None or not summary.is_file():
        raise ForgeError(
            f"no finished run in {repo_dir}: run `tdd-sandbox run KATA --repo {repo_dir} --pr`"
        )
    return RunSummary.from_json(json.loads(summary.read_text(encoding="utf-8")))


def record(summary: RunSummary, made: PullRequest) -> None:
    """Keep `made` in the run's summary (`summary.pull_request`, and its `summary.json`,
    which `status` and `pr` read)."""
    summary.pull_request = {"url": made.url, "number": made.number, "created": made.created}
    found = run_dir(Path(summary.repo), summary.run_id) / "summary.json"
    if found.is_file():
        data = json.loads(found.read_text(encoding="utf-8"))
        write_atomic(found, json.dumps({**data, "pull_request": summary.pull_request}, indent=2))
