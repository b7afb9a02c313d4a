"""The `tdd-sandbox` command line: thin click commands and the one error handler."""

from __future__ import annotations

import importlib
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path
from types import FrameType

import click
from typing_extensions import override

from tdd_sandbox import __version__
from tdd_sandbox.errors import TddSandboxError

EXIT_INTERRUPTED = 130
EXIT_CRASH = 70


COMMANDS = {
    "run": "run", "step": "run", "init": "repo", "status": "repo", "bench": "bench",
    "score": "bench", "gates": "gates", "doctor": "doctor", "gc": "gc", "images": "images",
    "katas": "katas",
}  # fmt: skip
"""Each command and the `tdd_sandbox.cli` module defining it: a command imports only its own
module, so `status` does not wait for the model client and the bench to load."""


class _Commands(click.Group):
    """The commands of `COMMANDS`, imported when used."""

    @override
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    @override
    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module = importlib.import_module(f"tdd_sandbox.cli.{COMMANDS[cmd_name]}")
        command: click.Command = getattr(module, cmd_name)
        return command


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="tdd-sandbox")
def cli() -> None:
    """Strict test-driven development for LLM agents, with every gate in a Docker sandbox.

    \b
    Exit codes: 0 success; 1 not green (gates) or stuck (run); 2 bad usage or config;
    3 a prerequisite is missing (Docker, an image, an API key); 4 the sandbox is unusable;
    6 the model endpoint failed; 70 internal error (a crash log is written); 130 interrupted.
    """


def _terminate(signum: int, frame: FrameType | None) -> None:
    # SIGTERM and SIGHUP (the terminal closed) unwind like Ctrl-C, so every `with` block
    # removes its containers and worktrees and the records say the run was interrupted.
    raise KeyboardInterrupt


def main() -> None:
    """Entry point: run the CLI and map every outcome to an exit code."""
    signal.signal(signal.SIGTERM, _terminate)
    signal.signal(signal.SIGHUP, _terminate)
    try:
        code = cli.main(standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("tdd-sandbox: interrupted", err=True)
        sys.exit(EXIT_INTERRUPTED)
    except KeyboardInterrupt:
        click.echo("tdd-sandbox: interrupted; containers removed", err=True)
        sys.exit(EXIT_INTERRUPTED)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except TddSandboxError as exc:
        click.echo(f"tdd-sandbox: error: {exc}", err=True)
        sys.exit(exc.exit_code)
    except Exception:  # noqa: BLE001 - the one place that turns a crash into a log
        log = _write_crash_log()
        click.echo(f"tdd-sandbox: internal error; details in {log}. Please report it.", err=True)
        sys.exit(EXIT_CRASH)
    sys.exit(code if isinstance(code, int) else 0)


def _write_crash_log() -> Path:
    directory = Path(tempfile.gettempdir()) / "tdd-sandbox"
    directory.mkdir(parents=True, exist_ok=True)
    log = directory / f"crash-{time.strftime('%Y%m%d-%H%M%S')}.log"
    log.write_text(traceback.format_exc(), encoding="utf-8")
    return log
