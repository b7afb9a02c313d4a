"""A whole run: from a kata file to commits, as `tdd-sandbox run` does it, and `init`."""

from __future__ import annotations

import contextlib
import re
import secrets
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from tdd_sandbox.acceptance.suite import interface
from tdd_sandbox.agents.team import Team, build_team
from tdd_sandbox.engine.events import Resumed, RunEnded, RunStarted
from tdd_sandbox.engine.journal import Journal, read_state
from tdd_sandbox.engine.loop import Loop, Observer
from tdd_sandbox.engine.phases import RunResult, RunStatus, RunSummary
from tdd_sandbox.errors import TddSandboxError, UsageError
from tdd_sandbox.execution.checkers import open_checker
from tdd_sandbox.forge.body import one_line
from tdd_sandbox.images.builder import Progress, quiet
from tdd_sandbox.katas.kata import load_kata
from tdd_sandbox.languages.base import Language
from tdd_sandbox.languages.registry import LANGUAGES, get_language
from tdd_sandbox.llm.chat import InfrastructureError
from tdd_sandbox.llm.transcript import check_transcript
from tdd_sandbox.repo.hardened import HardenedRepo
from tdd_sandbox.repo.history import commit_paths, dirty_paths, exclude_locally, head_files
from tdd_sandbox.repo.lock import hold_lock
from tdd_sandbox.repo.scaffolding import KATA_FILE, USER_FILES, add_scaffold, init_repo
from tdd_sandbox.settings import DEFAULT_LANGUAGE, Settings
from tdd_sandbox.vocabulary.cancel import CancelToken
from tdd_sandbox.vocabulary.files import TDD_DIR

RUN_BRANCH_PREFIX = "tdd-run/"
"""A run's own branch (`run --pr`): not under `tdd/`, where each attempt's branch is
`tdd/<run id>/...` and git cannot hold `tdd/<run id>` beside them."""


def next_cycle(repo: HardenedRepo) -> int:
    """One past the highest `TDD-Cycle` trailer on the branch (1 for a new kata)."""
    if not repo.repo.head.is_valid():
        return 1
    output = repo.run("log", "--format=%(trailers:key=TDD-Cycle,valueonly,separator=%x2C)")
    numbers = [int(n) for n in re.findall(r"\d+", output)]
    return max(numbers, default=0) + 1


@dataclass
class Session:
    """Everything a run or a single step works with, opened and closed together."""

    loop: Loop
    repo: HardenedRepo
    team: Team
    journal: Journal
    run_id: str
    directory: Path
    started: float
    branch: str
    base: str = ""
    """The branch the run started from, when it works on a branch of its own."""
    kata_dir: Path | None = None
    """The folder of the kata's file (its hidden suite, if any, is there)."""


@contextlib.contextmanager
def open_session(
    kata_file: Path,
    settings: Settings,
    *,
    repo_dir: Path | None = None,
    record: Path | None = None,
    replay: Path | None = None,
    observer: Observer | None = None,
    progress: Progress = quiet,
    stop: CancelToken | None = None,
    own_branch: bool = False,
) -> Iterator[Session]:
    """Load the kata, check the endpoints, create or open the repo, and start the sandbox
    checker; everything is released on exit, however the block ends. `own_branch`: the run
    commits to a new branch `tdd-run/<run id>` made from HEAD, and the branch it started
    from does not move.

    Raises:
        UsageError, ConfigError, PrerequisiteError: bad input or a missing prerequisite.
    """
    started = time.monotonic()
    kata = load_kata(kata_file)
    language_name = settings.language
    if replay is not None:
        # A transcript answers only the run it was recorded from: same kata, same language,
        # as many attempts raced.
        language_name = (
            check_transcript(replay, kata.slug, language_name, race=_race(settings))
            or language_name
        )
    language_name = language_name or kata.metadata.get("language")
    # The name becomes a pack here, once: a bad one is the user's first news, before keys
    # and Docker.
    asked = get_language(language_name) if language_name is not None else None
    directory = repo_dir or Path.cwd() / f"{kata.slug}-{language_name or DEFAULT_LANGUAGE}"
    run_id = time.strftime("%Y%m%d-%H%M%S") + "-" + secrets.token_hex(3)
    with contextlib.ExitStack() as stack:
        # Endpoints and keys are checked before anything is created on disk.
        header = {"kata": kata.slug, "language": language_name, "run_id": run_id,
                  "race": _race(settings)}  # fmt: skip
        team = build_team(settings, record=record, replay=replay, header=header, notify=progress)
        stack.callback(team.close)
        if not (directory / ".git").exists():
            progress(f"creating the kata repository {directory}")
            init_repo(directory, asked or get_language(DEFAULT_LANGUAGE), kata_source=kata_file)
        repo = HardenedRepo(directory)
        stack.callback(repo.close)
        files = head_files(repo)
        if not files:
            raise UsageError(f"{directory} has no commit yet: run `tdd-sandbox init {directory}`")
        language = _language_of(directory, files, asked)
        exclude_locally(repo, f"/{TDD_DIR}/")
        if repo.repo.head.is_detached:
            raise UsageError(f"{directory} has a detached HEAD: check out a branch to commit on")
        branch = base = repo.repo.active_branch.name
        if branch.startswith(RUN_BRANCH_PREFIX) and not own_branch:
            # A `--pr` run that died left HEAD here; a plain run carried on on it, unsaid.
            raise UsageError(
                f"{directory} is on {branch}, the branch of an earlier --pr run: switch back "
                "to your own branch first (`git switch -`); `tdd-sandbox pr` opens that "
                "run's pull request"
            )
        stack.enter_context(hold_lock(repo, run_id))
        dirty = dirty_paths(repo)
        theirs = bool(dirty) and set(dirty) <= {_kata_path_in_repo(directory, kata_file),
                                                *USER_FILES}  # fmt: skip
        if dirty and not theirs:
            raise UsageError(
                f"{directory} has uncommitted changes ({', '.join(dirty[:3])}): "
                "commit or stash them first"
            )
        # The sandbox before anything of the user's moves: a run that cannot start (Docker
        # down) leaves their branch, tree and history as they were (it had committed their
        # tdd.yaml and switched to its branch, then failed).
        checker = stack.enter_context(open_checker(settings, progress=progress, run_id=run_id))
        if own_branch:
            branch = f"{RUN_BRANCH_PREFIX}{run_id}"
            repo.run("switch", "-q", "-c", branch)
            # However the run ends, the user is left on the branch they started from.
            stack.callback(_switch_back, repo, base, progress)
        progress(f"commits go to branch {branch}" + (f", from {base}" if own_branch else ""))
        if theirs:
            # The files `init` asks the user to edit: theirs, never a model's (no role may
            # write them), so they are committed on their own rather than refused.
            listed = ", ".join(dirty)
            commit_paths(repo, dirty, f"chore(kata): the user's {listed}\n", settings.commit)
            progress(f"committed your changes to {listed} first")
        if added := add_scaffold(repo, language, files, settings.commit):
            progress(f"added the {language.name} scaffold ({', '.join(added)}) in a commit")
        interrupted = read_state(directory)
        journal = Journal(directory, run_id)
        with journal.failure_noted():
            versions = checker.versions(language)
            journal.event(
                RunStarted(kata.title, language.name, team.models(), checker.kind, versions)
            )
            if not checker.runs_code:
                progress(f"sandbox.type {checker.kind}: no code runs, every gate is scripted")
            if interrupted is not None and interrupted.get("state") == "running":
                # The last run died (kill, crash, power): clear what it left, go on from HEAD,
                # which only ever holds green commits.
                reclaimed = checker.reclaim(directory)
                removed = [item.name for item in reclaimed.removed]
                journal.event(Resumed(interrupted.get("run_id"), removed))
                progress(f"resuming after interrupted run {interrupted.get('run_id')}")
            loop = Loop(
                repo=repo, kata=kata, kata_path=_kata_path_in_repo(directory, kata_file),
                language=language, settings=settings, checker=checker, team=team,
                journal=journal, observer=observer, stop=stop,
                interface=interface(kata_file.resolve().parent, language.name),
            )  # fmt: skip
        stack.callback(loop.close)
        yield Session(loop, repo, team, journal, run_id, directory, started, branch,
                      base if own_branch else "", kata_file.resolve().parent)  # fmt: skip


def run_kata(
    kata_file: Path,
    settings: Settings,
    *,
    repo_dir: Path | None = None,
    record: Path | None = None,
    replay: Path | None = None,
    observer: Observer | None = None,
    progress: Progress = quiet,
    stop: CancelToken | None = None,
    own_branch: bool = False,
) -> RunSummary:
    """Run the loop on a kata, creating its repository on first use. Cancelling `stop`
    ends the run as interrupted at once, whatever it waits on.

    Raises:
        UsageError, ConfigError, PrerequisiteError: bad input or a missing prerequisite.
    """
    with open_session(
        kata_file, settings, repo_dir=repo_dir, record=record, replay=replay,
        observer=observer, progress=progress, stop=stop, own_branch=own_branch,
    ) as session:  # fmt: skip
        loop = session.loop
        result: RunResult | None = None
        try:
            result = loop.run(next_cycle(session.repo), settings.cycles)
        except InfrastructureError as exc:
            result = RunResult(RunStatus.ERROR, loop.cycles_done, loop.commits, str(exc))
        except TddSandboxError as exc:
            # Docker gone mid-run, say: an error, never `interrupted` (what a stop records).
            result = RunResult(RunStatus.ERROR, loop.cycles_done, loop.commits, str(exc))
            raise
        finally:
            if result is None:  # interrupted: count what the loop did get done
                result = RunResult(
                    RunStatus.INTERRUPTED, loop.cycles_done, loop.commits, "interrupted"
                )
            loop.close()  # lost attempts still waiting on a model finish first
            summary = summarise(result, session)
            session.journal.summary(summary.to_json())
            session.journal.event(RunEnded(summary.status, summary.reason))
        return summary


def _switch_back(repo: HardenedRepo, base: str, progress: Progress) -> None:
    """Check `base` out again after a run on a branch of its own; said if git will not."""
    try:
        repo.run("switch", "-q", base)
    except Exception as exc:  # noqa: BLE001 - a failed switch must not hide the run's end
        progress(f"could not switch back to {base} ({one_line(str(exc))}): `git switch {base}`")


def _race(settings: Settings) -> list[int]:
    """How many attempts a run races: implementers, then refactorers."""
    return [settings.parallel, settings.parallel_refactor]


def _language_of(directory: Path, files: Mapping[str, bytes], asked: Language | None) -> Language:
    """The language a run uses in a repository: the one asked for, which the repo must be in
    unless it holds no code yet (the scaffold is then added); else the one detected, or
    Python in a repo without code.

    Raises:
        UsageError: the repo is in another language than the one asked for.
    """
    detected = next((lang for lang in LANGUAGES.values() if lang.detect(files)), None)
    if asked is None:
        return detected or get_language(DEFAULT_LANGUAGE)
    if detected is not None and not asked.detect(files):
        raise UsageError(
            f"{directory} is a {detected.name} repository, but the run asks for "
            f"--language {asked.name}: drop --language, or use a {asked.name} repo"
        )
    return asked


def _kata_path_in_repo(directory: Path, kata_file: Path) -> str:
    try:
        return kata_file.resolve().relative_to(directory.resolve()).as_posix()
    except ValueError:
        return KATA_FILE


def summarise(result: RunResult, session: Session) -> RunSummary:
    """The summary of a run (or step) that ended with `result`."""
    ledger = session.team.ledger
    usage = {role: vars(numbers) for role, numbers in ledger.by_role().items()}
    total = ledger.total()
    return RunSummary(
        status=result.status.value,
        cycles=result.cycles,
        commits=result.commits,
        tokens={
            "prompt": total.prompt_tokens,
            "completion": total.completion_tokens,
            "total": total.tokens,
        },
        cost=total.cost,
        run_id=session.run_id,
        repo=str(session.directory),
        reason=result.reason,
        branch=session.branch,
        kata=session.loop.kata.title,
        kata_dir=str(session.kata_dir or ""),
        language=session.loop.language.name,
        base=session.base,
        models=session.team.models(),
        wall_time_s=time.monotonic() - session.started,
        usage=usage,
    )
