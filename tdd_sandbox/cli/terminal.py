"""The only ways the commands write to the terminal: every one of them shows what a model
wrote as text (its control characters escaped, its long lines cut), never as instructions to
the terminal (the console itself is `escaping.EscapingConsole`). `tests/cli/test_terminal.py`
refuses a command module that writes another way.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import click

from tdd_sandbox.vocabulary.printable import escape_controls

if TYPE_CHECKING:
    from rich.console import Console


def console(*, stderr: bool = False, **options: Any) -> Console:
    """A console for a command's output (`stderr` for progress beside a JSON document).
    rich is imported here, not with the commands: `--help` answers before it would load."""
    from tdd_sandbox.cli.escaping import EscapingConsole

    return EscapingConsole(stderr=stderr, **options)


def echo(message: str, *, err: bool = False) -> None:
    """One message line (or several) on stdout, or on stderr with `err`."""
    click.echo(escape_controls(message), err=err)


def echo_json(document: Any, *, indent: int | None = 2) -> None:
    """A JSON document on stdout. JSON writes every control character as an escape of its own
    (and everything past ASCII as one), so nothing in it reaches the terminal raw."""
    click.echo(json.dumps(document, indent=indent, ensure_ascii=True))
