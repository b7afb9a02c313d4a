"""`tdd-sandbox doctor`."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from tdd_sandbox.cli.options import config_option, default_config
from tdd_sandbox.doctor import diagnose
from tdd_sandbox.settings import load_settings


@click.command()
@config_option
def doctor(config: Path | None) -> int:
    """Check Docker, images, git and disk space; print the fix for each problem."""
    settings = load_settings(default_config(config, Path.cwd()))
    checks = diagnose(settings, Path.cwd())
    table = Table(title="tdd-sandbox doctor")
    for column in ("check", "ok", "detail", "fix"):
        table.add_column(column)
    for check in checks:
        mark = "[green]yes[/green]" if check.ok else "[red]no[/red]"
        table.add_row(check.name, mark, check.detail, check.fix)
    Console().print(table)
    return 0 if all(check.ok for check in checks) else 1
