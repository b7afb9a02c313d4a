"""A finished run proposed for review: its branch pushed and its pull request opened, or
found open and brought up to date (`run --pr`)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tdd_sandbox.acceptance.scorer import score_kata
from tdd_sandbox.acceptance.suite import has_suite
from tdd_sandbox.engine.events import EventName
from tdd_sandbox.engine.journal import latest_run, read_events, run_dir
from tdd_sandbox.engine.phases import RunSummary
from tdd_sandbox.errors import TddSandboxError
from tdd_sandbox.execution.checkers import CHECKERS, open_checker
from tdd_sandbox.forge.body import RunReport, body, one_line, title
from tdd_sandbox.forge.client import Forge, ForgeError, PullRequest, repository_of
from tdd_sandbox.forge.push import push_branch, remote_url
from tdd_sandbox.images.builder import Progress, quiet
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.repo.environment import git_environment
from tdd_sandbox.repo.hardened import HardenedRepo
from tdd_sandbox.repo.history import files_at
from tdd_sandbox.settings import Settings
from tdd_sandbox.vocabulary.failures import Failure
from tdd_sandbox.vocabulary.files import write_atomic


def propose(
    summary: RunSummary, settings: Settings, *, remote: str, progress: Progress = quiet
) -> PullRequest:
    """Push the run's branch to `remote` and open (or update) its pull request into the
    branch the run started from; its body carries the kata's hidden suite's score on the
    branch when the kata has one (`summary.acceptance`, scored once).

    Raises:
        ForgeError: the push or the forge failed; the commits stay on the local branch.
    """
    directory = Path(summary.repo)
    if not summary.base:
        raise ForgeError("the run did not work on a branch of its own: run it with --pr")
    forge = Forge(settings.forge, _repository(directory, settings, remote))
    if summary.acceptance is None:
        summary.acceptance = score_branch(summary, settings, progress)
        _keep(summary, "acceptance")  # a retry after a failed push need not score again
    accepted = summary.acceptance
    report = RunReport(
        kata=summary.kata, status=summary.status, cycles=summary.cycles, run_id=summary.run_id,
        subjects=_subjects(directory, summary.base, summary.branch), models=summary.models,
        green_commits=len(summary.commits),
        tamper_events=_tamper_events(directory, summary.run_id),
        acceptance=(accepted["passed"], accepted["total"]) if accepted else None,
    )  # fmt: skip
    try:
        push_branch(directory, remote, summary.branch)
        return forge.open_or_update(summary.branch, summary.base, title(report), body(report))
    finally:
        forge.close()


def check_proposal(directory: Path | None, settings: Settings, remote: str) -> None:
    """What `run --pr` needs to end in a pull request, checked before any model is asked:
    a repository with the remote, the forge's repository told from it (or set), a token.
    It ran the whole kata first, then could not tell the forge from `origin`.

    Raises:
        ForgeError: one of them is missing; the message says which and how to set it.
    """
    if directory is None or not (directory / ".git").exists():
        raise ForgeError(
            f"--pr pushes to remote {remote!r} of the kata's repository, and there is none "
            "yet: make it with `tdd-sandbox init`, add the remote, then run with --repo"
        )
    Forge(settings.forge, _repository(directory, settings, remote)).close()


def _repository(directory: Path, settings: Settings, remote: str) -> str:
    """The forge's `owner/name`: `forge.repository`, else told from the remote's URL.

    Raises:
        ForgeError: no such remote, or its URL names no repository.
    """
    repository = settings.forge.repository or repository_of(remote_url(directory, remote))
    if repository is None:
        raise ForgeError(
            f"cannot tell the forge's repository from the URL of remote {remote!r}: set "
            "forge.repository to owner/name"
        )
    return repository


def score_branch(
    summary: RunSummary, settings: Settings, progress: Progress = quiet
) -> dict[str, int] | None:
    """`{"passed", "total"}`: the kata's hidden suite run on the tip of the run's branch;
    None when the kata has none, the sandbox runs no code, or the scoring failed (said
    through `progress`: the pull request is still opened, without a score)."""
    kata_dir = Path(summary.kata_dir) if summary.kata_dir else None
    if kata_dir is None or not summary.language or not has_suite(kata_dir, summary.language):
        return None
    if not CHECKERS[settings.sandbox.type].runs_code:
        return None  # scripted verdicts are no score
    repo = HardenedRepo(Path(summary.repo))
    try:
        files = files_at(repo, f"refs/heads/{summary.branch}")
    finally:
        repo.close()
    try:
        with open_checker(
            settings, for_scores="a pull request's score", run_id=f"{summary.run_id}-accept"
        ) as checker:
            report = score_kata(checker, get_language(summary.language), files, kata_dir)
    except TddSandboxError as exc:
        progress(f"the hidden suite was not scored: {one_line(str(exc))}")
        return None
    progress(f"hidden acceptance suite: {report.passed} of {report.total} cases passed")
    return {"passed": report.passed, "total": report.total}


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
    _keep(summary, "pull_request")


def _keep(summary: RunSummary, name: str) -> None:
    """Write `summary`'s field `name` into the run's `summary.json`."""
    found = run_dir(Path(summary.repo), summary.run_id) / "summary.json"
    if found.is_file():
        data = json.loads(found.read_text(encoding="utf-8"))
        data[name] = summary.to_json()[name]
        write_atomic(found, json.dumps(data, indent=2))
