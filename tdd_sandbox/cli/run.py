"""`tdd-sandbox run` and `step`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from tdd_sandbox.cli.options import (
    UserPath,
    config_option,
    default_config,
    default_repo,
    language_option,
    progress,
    setting_option,
    transcript_options,
    verbose,
)
from tdd_sandbox.cli.terminal import console, echo, echo_json

if TYPE_CHECKING:
    from rich.console import Console

    from tdd_sandbox.engine.phases import RunSummary
    from tdd_sandbox.settings import Settings

EXIT_BY_STATUS = {"completed": 0, "max_cycles": 0, "stuck": 1, "error": 6, "interrupted": 130}
EXIT_NO_PULL_REQUEST = 7


@click.command()
@click.argument("kata", type=UserPath())
@click.option(
    "--repo",
    type=UserPath(file_okay=False),
    help="Kata repository (created if missing; default: the repository KATA sits in, "
    "else ./<kata>-<language>).",
)
@language_option("The kata's language (default: tdd.yaml, the kata's front matter, or python).")
@setting_option("cycles", "--cycles", "--steps", help="Most red-green-refactor cycles.")
@setting_option("parallel", "--parallel", help="Implementer attempts raced at once.")
@setting_option(
    "parallel_refactor", "--parallel-refactor", help="Refactorer attempts raced at once."
)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON summary instead of a table.")
@click.option(
    "--pr",
    is_flag=True,
    help="Commit to a branch of the run's own, then push it and open its pull request.",
)
@click.option("--remote", default="origin", show_default=True, help="The remote --pr pushes to.")
@transcript_options
@config_option
def run(
    kata: Path,
    repo: Path | None,
    language: str | None,
    cycles: int | None,
    parallel: int | None,
    parallel_refactor: int | None,
    as_json: bool,
    pr: bool,
    remote: str,
    record: Path | None,
    replay: Path | None,
    config: Path | None,
) -> int:
    """Drive tester, implementer and refactorer through red-green-refactor on KATA.

    \b
    Exit codes: 0 completed or all cycles done; 1 stuck; 6 the model endpoint failed;
    7 the run's pull request could not be opened (its commits stay on its branch);
    2 bad usage; 3 missing prerequisite.
    """
    from tdd_sandbox.cli.view import RunView
    from tdd_sandbox.engine.session import run_kata
    from tdd_sandbox.settings import load_settings

    repo = default_repo(repo, kata)
    config = default_config(config, repo)
    overrides = {
        "language": language,
        "cycles": cycles,
        "parallel": parallel,
        "parallel_refactor": parallel_refactor,
    }
    settings = load_settings(config, overrides)
    if pr:
        from tdd_sandbox.forge.client import ForgeError
        from tdd_sandbox.ops.proposal import check_proposal

        try:
            check_proposal(repo, settings, remote)
        except ForgeError as exc:
            echo(f"error: {exc} (nothing was run)", err=True)
            return EXIT_NO_PULL_REQUEST
    screen = console(stderr=as_json)
    with RunView(screen, verbose=verbose()) as view:
        summary = run_kata(
            kata, settings, repo_dir=repo, record=record, replay=replay,
            observer=view, progress=progress, own_branch=pr,
        )  # fmt: skip
    failed = _propose(summary, settings, remote) if pr else ""
    if as_json:
        echo_json({**summary.to_json(), **({"pull_request_error": failed} if failed else {})})
    else:
        render_summary(summary, console())
    if failed:
        echo(f"error: {failed}", err=True)
        return EXIT_NO_PULL_REQUEST
    return EXIT_BY_STATUS.get(summary.status, 1)


def _propose(summary: RunSummary, settings: Settings, remote: str) -> str:
    """Open the run's pull request (`summary.pull_request`); what stopped it, if anything."""
    from tdd_sandbox.forge.client import ForgeError
    from tdd_sandbox.ops.proposal import propose, record

    if not summary.commits:
        progress("no green commit: no pull request to open")
        return ""
    try:
        made = propose(summary, settings, remote=remote, progress=progress)
    except ForgeError as exc:
        return str(exc)
    record(summary, made)
    progress(f"pull request {'opened' if made.created else 'updated'}: {made.url}")
    return ""


@click.command()
@click.option("--repo", type=UserPath(file_okay=False), help="Kata repository (default: here).")
@click.option("--remote", default="origin", show_default=True, help="The remote to push to.")
@click.option("--json", "as_json", is_flag=True, help="Print the pull request as JSON.")
@config_option
def pr(repo: Path | None, remote: str, as_json: bool, config: Path | None) -> int:
    """Push the last `run --pr`'s branch and open or update its pull request again (after
    a push or a forge that failed)."""
    from tdd_sandbox.forge.client import ForgeError
    from tdd_sandbox.ops.proposal import last_run
    from tdd_sandbox.settings import load_settings

    directory = (repo or Path.cwd()).resolve()
    settings = load_settings(default_config(config, directory))
    try:
        summary = last_run(directory)
    except ForgeError as exc:
        echo(f"error: {exc}", err=True)
        return EXIT_NO_PULL_REQUEST
    failed = _propose(summary, settings, remote)
    if failed:
        echo(f"error: {failed}", err=True)
        return EXIT_NO_PULL_REQUEST
    if as_json:
        echo_json({"pull_request": summary.pull_request})
    elif summary.pull_request is not None:
        echo(str(summary.pull_request["url"]))
    return 0


def render_summary(summary: RunSummary, console: Console) -> None:
    """The end-of-run table."""
    from rich.table import Table

    table = Table(title=f"run {summary.run_id}: {summary.status}")
    for column in ("role", "requests", "prompt tokens", "completion tokens", "model time", "cost"):
        table.add_column(column, justify="left" if column == "role" else "right")
    for role, usage in summary.usage.items():
        counts = (usage["requests"], usage["prompt_tokens"], usage["completion_tokens"])
        timing = (f"{usage['model_time_s']:.1f}s", f"{usage['cost']:.4f}")
        table.add_row(role, *(str(n) for n in counts), *timing)
    console.print(table)
    console.print(
        f"{summary.cycles} cycles, {len(summary.commits)} commits in {summary.repo}, "
        f"{summary.wall_time_s:.0f}s. {summary.reason}"
    )


@click.command()
@click.argument("kata", type=UserPath())
@click.option("--repo", type=UserPath(file_okay=False), help="Kata repository.")
@language_option("The kata's language.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@transcript_options
@config_option
def step(
    kata: Path,
    repo: Path | None,
    language: str | None,
    as_json: bool,
    record: Path | None,
    replay: Path | None,
    config: Path | None,
) -> int:
    """Run only the next phase (red, then green, then refactor) of the current cycle."""
    from tdd_sandbox.cli.view import RunView
    from tdd_sandbox.engine.stepper import step_kata
    from tdd_sandbox.settings import load_settings

    repo = default_repo(repo, kata)
    settings = load_settings(default_config(config, repo), {"language": language})
    with RunView(console(stderr=True), verbose=verbose()) as view:
        result = step_kata(
            kata, settings, repo_dir=repo, record=record, replay=replay,
            observer=view, progress=progress,
        )  # fmt: skip
    if as_json:
        echo_json(result.to_json())
    else:
        echo(f"{result.phase}: {result.status}: {result.detail}")
        if result.next_phase:
            echo(f"next: {result.next_phase}")
    return 0 if result.status in ("ok", "completed") else EXIT_BY_STATUS.get(result.status, 1)
