"""`tdd-sandbox doctor`."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import TYPE_CHECKING

import click

from tdd_sandbox.cli.options import config_option, default_config
from tdd_sandbox.cli.terminal import console, echo_json

if TYPE_CHECKING:
    from tdd_sandbox.ops.doctor import Check
    from tdd_sandbox.settings import Settings


@click.command()
@click.option(
    "--models/--no-models",
    default=True,
    show_default=True,
    help="Check each role's endpoint and key; --no-models for what needs none (a --replay, "
    "katas import, gates, score).",
)
@click.option(
    "--bench",
    "bench_models",
    default="",
    metavar="MODELS",
    help="Check these bench models' endpoints and keys (as `bench --models` names them: "
    "provider:model or a bench.models entry) instead of the roles'.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the checks as JSON.")
@config_option
def doctor(models: bool, bench_models: str, as_json: bool, config: Path | None) -> int:
    """Check Docker, images, git and disk space (and the models' endpoints); print the fix for
    each problem. `doctor` checks what `run` needs, `--bench MODELS` what that bench needs,
    `--no-models` what a replay, an import, `gates` and `score` need.

    \b
    Exit codes: 0 every check passed; 3 one failed (a prerequisite is missing).
    """
    from rich.text import Text

    from tdd_sandbox.ops.doctor import diagnose
    from tdd_sandbox.settings import load_settings

    settings = load_settings(default_config(config, Path.cwd()))
    checks = diagnose(settings, Path.cwd(), models=models and not bench_models)
    if bench_models and models:
        checks += _bench_endpoints(settings, bench_models)
    # A failed check is a missing prerequisite, as every command's exit 3 says.
    code = 0 if all(check.ok for check in checks) else 3
    if as_json:
        echo_json([vars(check) for check in checks])
        return code

    screen = console(highlight=False)
    screen.print(Text("tdd-sandbox doctor", style="bold"))
    width = max(len(check.name) for check in checks)
    for check in checks:
        # A list, not a table: a fix is read and copied whole, so nothing is ever cut to fit
        # a column; long lines wrap under their own indent.
        mark, style = (" warn ", "yellow") if check.warn else ("  ok  ", "green")
        line = Text.assemble(
            (mark if check.ok else "  no  ", style if check.ok else "bold red"),
            f"{check.name:<{width}}  ",
            check.detail,
        )
        screen.print(line)
        if check.fix:
            fix = textwrap.fill(
                check.fix, width=screen.width, initial_indent="      fix: ",
                subsequent_indent="      ", break_on_hyphens=False,
            )  # fmt: skip
            screen.print(Text(fix), soft_wrap=True)
    return code


def _bench_endpoints(settings: Settings, names: str) -> list[Check]:
    """Each bench model's endpoints, as its jobs would call them, each probed once.

    Raises:
        UsageError: a name is neither provider:model nor a bench.models entry.
    """
    from tdd_sandbox.bench.jobs import model_settings, resolve_models
    from tdd_sandbox.ops.doctor import endpoints

    checks: list[Check] = []
    seen: dict[tuple[str, str | None], Check] = {}
    for entry in resolve_models([n for n in names.split(",") if n.strip()], settings.bench):
        checks += endpoints(model_settings(settings, entry), f"{entry.name}: ", seen)
    return checks
