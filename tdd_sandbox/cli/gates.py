"""`tdd-sandbox gates DIR`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from tdd_sandbox.cli.options import (
    UserPath,
    config_option,
    default_config,
    language_option,
    progress,
)
from tdd_sandbox.cli.terminal import console, echo_json

if TYPE_CHECKING:
    from rich.console import Console

    from tdd_sandbox.grading.gates import GateReport


@click.command()
@click.argument("directory", type=UserPath())
@language_option("The repo's language (default: detected from the repo).")
@click.option("--timeout", type=click.FloatRange(min=0.1), help="Seconds each gate may run.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@config_option
def gates(
    directory: Path, language: str | None, timeout: float | None, as_json: bool, config: Path | None
) -> int:
    """Judge DIRECTORY as the loop judges green: its policy, then every gate (format, lint,
    type-check, build, test) in the sandbox, then the probe (the tests again with their
    expected values changed: code that read its answers passes them still).

    Exits 0 only when every gate passed.
    """
    from tdd_sandbox.execution.checkers import check_directory
    from tdd_sandbox.settings import load_settings

    settings = load_settings(default_config(config, directory))
    report = check_directory(
        directory,
        settings,
        language=language,
        timeout_s=timeout,
        progress=(lambda _: None) if as_json else progress,
    )
    if as_json:
        echo_json(report.to_json())
    else:
        render(report, console())
    return 0 if report.ok else 1


def render(report: GateReport, console: Console) -> None:
    """The report as a table, then the output tail of each gate that did not pass."""
    from rich.table import Table

    from tdd_sandbox.grading.gates import GateStatus

    styles = {GateStatus.PASSED: "green", GateStatus.FAILED: "red"}
    table = Table(title=f"{report.language} gates")
    for column in ("gate", "status", "time", "passed", "failed", "skipped", "errors", "why"):
        table.add_column(column, justify="right" if column in {"time"} else "left")
    for gate in report.gates:
        counts = gate.counts
        style = styles.get(gate.status, "yellow")
        table.add_row(
            gate.kind.value,
            f"[{style}]{gate.status.value}[/{style}]",
            f"{gate.result.duration_s:.2f}s",
            *(str(n) for n in (counts.passed, counts.failed, counts.skipped, counts.errors)),
            gate.reason,
        )
    console.print(table)
    for gate in report.gates:
        if not gate.passed and gate.output_tail.strip():
            tail = "\n".join(gate.output_tail.strip().splitlines()[-15:])
            console.rule(f"{gate.kind.value}: end of output")
            console.print(tail, markup=False, highlight=False)
    verdict = "[green]all gates green[/green]" if report.ok else "[red]not green[/red]"
    console.print(verdict)
