"""Options shared by several commands, and the progress sink for the terminal."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import annotated_types
import click
from rich.console import Console
from rich.markup import escape

from tdd_sandbox.repo.config import repo_config
from tdd_sandbox.repo.scaffolding import adoptable
from tdd_sandbox.settings import Settings

F = TypeVar("F", bound=Callable[..., Any])

stderr = Console(stderr=True, highlight=False)


class UserPath(click.Path):
    """A path as the user meant it: `~` expanded and made absolute against the working
    directory at once, so no later step (git runs in other directories) can read it
    relative to something else."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(path_type=Path, **kwargs)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """Expand and absolutise, then let click check existence and kind."""
        if isinstance(value, str | os.PathLike):
            value = Path(os.fspath(value)).expanduser().resolve()
        return super().convert(value, param, ctx)


def config_option(func: F) -> F:
    """`--config FILE`: a YAML settings file (else `tdd.yaml` where the command looks)."""
    return click.option(
        "--config",
        "config",
        type=UserPath(dir_okay=False),
        default=None,
        help="YAML settings file (default: tdd.yaml in the repo, if present).",
    )(func)


def progress(message: str) -> None:
    """Show one progress line on stderr."""
    stderr.print(f"[dim]» {escape(message)}[/dim]")


def default_repo(repo: Path | None, kata: Path) -> Path | None:
    """`--repo` if given, else the folder the kata file sits in when that is a repository
    (`init` puts kata.md at its root: `cd repo && tdd-sandbox run kata.md`) or holds only
    the user's kata.md and tdd.yaml (it is adopted); else None, and the run makes
    `./<kata>-<language>`."""
    if repo is not None:
        return repo
    folder = kata.parent
    return folder if (folder / ".git").exists() or adoptable(folder) else None


def default_config(config: Path | None, directory: Path | None) -> Path | None:
    """`--config` if given, else the repo's tdd.yaml when it exists and the user wrote it.

    Raises:
        ConfigError: a run's commit changed the repo's tdd.yaml.
    """
    if config is not None or directory is None:
        return config
    return repo_config(directory)


def transcript_options(func: F) -> F:
    """`--record FILE` and `--replay FILE`."""
    func = click.option(
        "--replay",
        type=UserPath(dir_okay=False),
        help="Answer from a recorded FILE; no endpoint needed.",
    )(func)
    return click.option(
        "--record",
        type=UserPath(dir_okay=False),
        help="Keep every model exchange in FILE.",
    )(func)


def setting_option(name: str, *flags: str, help: str) -> Callable[[F], F]:
    """An option that sets the root setting `name`, its bounds read from that field (its
    `ge`/`gt`/`le`), so each bound is declared once: on the setting. It defaults to None,
    which leaves the setting to the file, the environment or the field's own default."""
    field = Settings.model_fields[name]
    bounds: dict[str, Any] = {}
    for rule in field.metadata:
        if isinstance(rule, annotated_types.Ge | annotated_types.Gt):
            bounds["min"] = rule.ge if isinstance(rule, annotated_types.Ge) else rule.gt
            bounds["min_open"] = isinstance(rule, annotated_types.Gt)
        elif isinstance(rule, annotated_types.Le):
            bounds["max"] = rule.le
    kinds = {int: click.IntRange, float: click.FloatRange}
    if field.annotation not in kinds:
        raise TypeError(f"setting {name!r} is not a number: give it a click option of its own")
    return click.option(
        *flags, name, type=kinds[field.annotation](**bounds), default=None, help=help
    )
