"""`tdd-sandbox gc`."""

from __future__ import annotations

from pathlib import Path

import click

from tdd_sandbox.cli.options import UserPath, config_option, default_config
from tdd_sandbox.cli.terminal import console, echo, echo_json
from tdd_sandbox.errors import UsageError


@click.command()
@click.option(
    "--repo",
    type=UserPath(file_okay=False),
    help="Kata repository to clean of worktrees, branches and logs (default: this directory).",
)
@click.option("--dry-run", is_flag=True, help="Print what would be removed; remove nothing.")
@click.option("--older-than", help="Only remove what is older than this (90s, 30m, 2h, 1d).")
@click.option("--images", is_flag=True, help="Also remove superseded sandbox images.")
@click.option("--logs", is_flag=True, help="Also remove old runs' records under .tdd/runs.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@config_option
def gc(
    repo: Path | None,
    dry_run: bool,
    older_than: str | None,
    images: bool,
    logs: bool,
    as_json: bool,
    config: Path | None,
) -> int:
    """Remove containers, worktrees and branches of runs that are no longer alive."""
    from rich.table import Table

    from tdd_sandbox.ops.gc import collect_garbage, parse_age
    from tdd_sandbox.sandbox.client import connect
    from tdd_sandbox.settings import load_settings

    try:
        age = parse_age(older_than) if older_than else None
    except ValueError as exc:
        raise UsageError(f"--older-than: {exc}") from None
    directory = repo or (Path.cwd() if (Path.cwd() / ".git").exists() else None)
    settings = load_settings(default_config(config, directory or Path.cwd()))
    report = collect_garbage(
        repo_dir=directory, client=connect(), images=settings.images if images else None,
        older_than_s=age, logs=logs, dry_run=dry_run,
    )  # fmt: skip
    verb = "would remove" if dry_run else "removed"
    if as_json:
        document = {
            "dry_run": dry_run,
            "removed": [vars(item) for item in report.removed],
            "kept": [vars(item) for item in report.kept],
            "freed_bytes": report.freed_bytes,
        }
        echo_json(document)
        return 0
    table = Table(title=f"gc: {verb} {len(report.removed)} items")
    for column in ("kind", "name", "why", "size"):
        table.add_column(column)
    for item in report.removed:
        table.add_row(item.kind, item.name, item.reason, f"{item.bytes / 1024**2:.1f} MiB")
    console().print(table)
    echo(f"{verb} {report.freed_bytes / 1024**2:.1f} MiB; kept {len(report.kept)} live items")
    return 0
