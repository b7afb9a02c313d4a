"""Options shared by several commands, and the progress sink for the terminal."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click
from rich.console import Console
from rich.markup import escape

F = TypeVar("F", bound=Callable[..., Any])

stderr = Console(stderr=True, highlight=False)


def config_option(func: F) -> F:
    """`--config FILE`: a YAML settings file (else `tdd.yaml` where the command looks)."""
    return click.option(
        "--config",
        "config",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help="YAML settings file (default: tdd.yaml in the repo, if present).",
    )(func)


def progress(message: str) -> None:
    """Show one progress line on stderr."""
    stderr.print(f"[dim]» {escape(message)}[/dim]")


def default_config(config: Path | None, directory: Path) -> Path | None:
    """`--config` if given, else the repo's tdd.yaml when it exists."""
    if config is not None:
        return config
    candidate = directory / "tdd.yaml"
    return candidate if candidate.is_file() else None


def transcript_options(func: F) -> F:
    """`--record FILE` and `--replay FILE`."""
    func = click.option(
        "--replay",
        type=click.Path(dir_okay=False, path_type=Path),
        help="Answer from a recorded FILE; no endpoint needed.",
    )(func)
    return click.option(
        "--record",
        type=click.Path(dir_okay=False, path_type=Path),
        help="Keep every model exchange in FILE.",
    )(func)
