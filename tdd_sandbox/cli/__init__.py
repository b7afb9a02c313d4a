"""The `tdd-sandbox` command line: thin click commands and the one error handler."""

from __future__ import annotations

import contextlib
import faulthandler
import importlib
import os
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Sequence
from pathlib import Path
from types import FrameType

import click
from typing_extensions import override

from tdd_sandbox import __version__
from tdd_sandbox.cli.terminal import echo
from tdd_sandbox.errors import TddSandboxError

EXIT_INTERRUPTED = 130
EXIT_CRASH = 70


COMMANDS = {
    "run": "run", "step": "run", "pr": "run", "init": "repo", "status": "repo", "bench": "bench",
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
@click.option("-q", "--quiet", is_flag=True, help="No progress lines: results and errors only.")
@click.option(
    "-v", "--verbose", is_flag=True,
    help="Every detail as it goes: rejections in full, gate times, each job's costs.",
)  # fmt: skip
def cli(quiet: bool, verbose: bool) -> None:
    """Strict test-driven development for LLM agents, with every gate in a Docker sandbox.

    \b
    Exit codes: 0 success; 1 not green (gates) or stuck (run); 2 bad usage or config;
    3 a prerequisite is missing (Docker, an image, an API key); 4 the sandbox is unusable;
    6 the model endpoint failed; 70 internal error (a crash log is written); 130 interrupted.
    """
    from tdd_sandbox.cli.options import VERBOSITY, Verbosity

    if quiet and verbose:
        raise click.UsageError("-q and -v ask for opposites: give one of them")
    VERBOSITY["level"] = (
        Verbosity.QUIET if quiet else Verbosity.VERBOSE if verbose else Verbosity.NORMAL
    )


class _Stopper:
    """What SIGINT, SIGTERM and SIGHUP (the terminal closed) do: the first unwinds like
    Ctrl-C, so every `with` block removes its containers and worktrees and the records say
    the run was interrupted; a later one while that clean-up runs is only acknowledged, as
    cutting the clean-up short would leave containers behind and the state "running"."""

    def __init__(self) -> None:
        self.stopping = False

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        if self.stopping:
            os.write(2, b"tdd-sandbox: stopping; removing containers and worktrees\n")
            return
        self.stopping = True
        raise KeyboardInterrupt


def main() -> None:
    """Entry point: run the CLI on the process's arguments and exit with its code."""
    stopper = _Stopper()
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        # A signal ignored from the start stays ignored: `nohup` asked for that of SIGHUP,
        # and a script's background job gets SIGINT ignored.
        if signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, stopper)
    # A run that seems stuck (a clean-up waiting on a thread, an engine that stopped
    # answering) says where each thread is on SIGUSR1, and goes on: C-level, so it answers
    # even while the interpreter is blocked.
    with contextlib.suppress(ValueError, OSError):  # no stderr to write to
        faulthandler.register(signal.SIGUSR1, all_threads=True)
    sys.exit(invoke(sys.argv[1:]))


def invoke(argv: Sequence[str]) -> int:
    """Run the CLI on `argv` and map every outcome to an exit code, each error said in one
    line on stderr (a crash is written to a log instead)."""
    try:
        code = cli.main(list(argv), prog_name="tdd-sandbox", standalone_mode=False)
    except click.exceptions.Abort:
        echo("tdd-sandbox: interrupted", err=True)
        return EXIT_INTERRUPTED
    except KeyboardInterrupt:
        echo("tdd-sandbox: interrupted; containers removed", err=True)
        return EXIT_INTERRUPTED
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except TddSandboxError as exc:
        echo(f"tdd-sandbox: error: {exc}", err=True)
        return exc.exit_code
    except Exception:  # noqa: BLE001 - the one place that turns a crash into a log
        log = _write_crash_log()
        echo(f"tdd-sandbox: internal error; details in {log}. Please report it.", err=True)
        return EXIT_CRASH
    return code if isinstance(code, int) else 0


def _write_crash_log() -> Path:
    directory = Path(tempfile.gettempdir()) / "tdd-sandbox"
    directory.mkdir(parents=True, exist_ok=True)
    log = directory / f"crash-{time.strftime('%Y%m%d-%H%M%S')}.log"
    log.write_text(traceback.format_exc(), encoding="utf-8")
    return log
