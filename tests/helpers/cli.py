"""Running `tdd-sandbox` as a test: through the entry point's own code (its exit codes,
one-line errors and crash logs), in this process or in a child."""

from __future__ import annotations

import os
import subprocess
import sys
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
