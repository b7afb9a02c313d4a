"""`tdd-sandbox init` and `status`: a kata repository, and what its latest run did."""

from __future__ import annotations

from pathlib import Path

import click

from tdd_sandbox.cli.options import UserPath, language_option
from tdd_sandbox.cli.terminal import console, echo, echo_json
from tdd_sandbox.vocabulary.defaults import DEFAULT_LANGUAGE


@click.command()
@click.argument("directory", type=UserPath(), default=".")
@language_option("The kata's language.", default=DEFAULT_LANGUAGE, show_default=True)
@click.option(
    "--kata",
    type=UserPath(dir_okay=False, exists=True),
    help="Copy this kata.md in.",
)
def init(directory: Path, language: str, kata: Path | None) -> int:
    """Create a kata repository: git, scaffold, kata.md, tdd.yaml, a first green commit."""
    from tdd_sandbox.languages.registry import get_language
    from tdd_sandbox.repo.scaffolding import init_repo

    made = init_repo(directory, get_language(language), kata_source=kata)
    echo(
        f"initialised a {language} kata in {made}; describe it in {made / 'kata.md'}, "
        f"then: cd {made} && tdd-sandbox run kata.md"
    )
    return 0


@click.command()
@click.option("--repo", type=UserPath(file_okay=False), default=".", help="Kata repository.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def status(repo: Path, as_json: bool) -> int:
    """The latest run: cycle, phase, last commit, last failure, tokens and cost."""
    from rich.table import Table

    from tdd_sandbox.ops.status import read_status

    info = read_status(repo)
    if as_json:
        echo_json(info)
        return 0
    table = Table(title=f"{repo}: run {info.get('run_id', '-')}", show_header=False)
    for key, value in info.items():
        table.add_row(key, str(value))
    console().print(table)
    return 0
