"""Running `tdd-sandbox` as a test: through the entry point's own code (its exit codes,
one-line errors and crash logs), in this process or in a child."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from click.testing import CliRunner

from tdd_sandbox.cli import invoke


def run_cli(
    *args: str, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run `tdd-sandbox ARGS` (in `cwd`, with `env` over this process's environment) as the
    console script does, in this process: a child interpreter would spend most of a test's
    time starting and importing. Its streams, environment and working directory are its own
    and restored after; `run_entry_point` is the child process, for what only a process has
    (signals, a terminal's end)."""
    runner = CliRunner()
    before = Path.cwd()
    with runner.isolation(env=env) as (stdout, stderr, _):
        try:
            if cwd is not None:
                os.chdir(cwd)
            code = invoke(list(args))
        finally:
            os.chdir(before)
        sys.stdout.flush()
        sys.stderr.flush()
        out = stdout.getvalue().decode("utf-8", "replace")
        err = stderr.getvalue().decode("utf-8", "replace")
    return subprocess.CompletedProcess(["tdd-sandbox", *args], code, out, err)


def run_entry_point(
    *args: str, env: dict[str, str] | None = None, cwd: Path | None = None, timeout_s: float = 600
) -> subprocess.CompletedProcess[str]:
    """Run `tdd-sandbox ARGS` in a child process, as a user would (in `cwd` if given)."""
    return subprocess.run(
        [sys.executable, "-m", "tdd_sandbox", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        timeout=timeout_s,
        check=False,
    )


def as_from_a_terminal() -> None:
    """`preexec_fn` for a child that must take signals as one started at a terminal does.

    A shell starts background commands with SIGINT ignored, and an ignored signal stays
    ignored across exec, so under `.ci/run &` Python would install no Ctrl-C handler and the
    child would shrug the signal off (and under nohup, SIGHUP). A user at a terminal has each
    at its default."""
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_DFL)


PROMPTLY_S = 30.0
"""What a test allows a stopped run or bench: far short of the ten minutes that what it was
blocked on would take, so the signal did cut it short, and long enough for a loaded machine
(CI took 3.6 s where a quiet machine takes 1.5). The target, 2 s, is `benchmarks/stop.py`'s
figure: a timed assertion in a test measures the machine's load as much as the code."""


def wait_until(
    ready: Callable[[], bool],
    child: subprocess.Popen[str],
    *,
    timeout_s: float = 120,
    settle_s: float = 0.5,
    what: str = "the child never got there",
) -> None:
    """Poll `ready` while `child` runs (its stderr is the failure if it ends first), then
    give it `settle_s` to be well inside whatever it waits on."""
    deadline = time.monotonic() + timeout_s
    while not ready():
        assert child.poll() is None, child.stderr.read() if child.stderr else ""
        assert time.monotonic() < deadline, what
        time.sleep(0.05)
    time.sleep(settle_s)
