"""Pushing a run's branch to the user's remote.

Unlike the tool's other git calls (`repo.environment`), a push runs with the user's own git
setup: their credentials, helpers and SSH keys are what the remote asks for. What it keeps
of the hardening: no hook runs (a push sends the run's commits, made of a model's files, and
no code of the repository's may run on the host for it), and git never prompts (a run is
not at a terminal; a missing credential is an error, not a hang).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tdd_sandbox.forge.body import one_line
from tdd_sandbox.forge.client import ForgeError

_TIMEOUT_S = 120.0
_ELSEWHERE = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
              "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR", "GIT_NAMESPACE")  # fmt: skip
"""Variables that would point git at another repository than the one named."""


def _git(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key not in _ELSEWHERE}
    env |= {"GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "", "SSH_ASKPASS": ""}
    argv = ["git", "-C", str(path), "-c", "core.hooksPath=/dev/null", *args]
    try:
        return subprocess.run(
            argv, env=env, capture_output=True, text=True, timeout=_TIMEOUT_S, check=False
        )
    except subprocess.TimeoutExpired:
        raise ForgeError(
            f"git {args[0]} took over {_TIMEOUT_S:.0f} s and was stopped: check the network "
            "and the remote, then `tdd-sandbox pr`"
        ) from None


def remote_url(path: Path, remote: str) -> str:
    """The URL `remote` pushes to.

    Raises:
        ForgeError: the repository has no such remote.
    """
    found = _git(path, "remote", "get-url", "--push", "--", remote)
    if found.returncode != 0:
        raise ForgeError(
            f"the repository at {path} has no remote {remote!r}: add it (git remote add "
            f"{remote} URL) or name another with --remote"
        )
    return found.stdout.strip()


def push_branch(path: Path, remote: str, branch: str) -> None:
    """Push `branch` to the branch of the same name on `remote`, never forced.

    Raises:
        ForgeError: no such remote, or the remote refused the push; the commits stay on the
            local branch either way.
    """
    remote_url(path, remote)
    pushed = _git(path, "push", "--no-verify", "--porcelain", "--", remote,
                  f"refs/heads/{branch}:refs/heads/{branch}")  # fmt: skip
    if pushed.returncode != 0:
        said = _first_error(pushed.stderr + pushed.stdout)
        raise ForgeError(
            f"the push of {branch} to {remote} was refused ({said}): the commits stay on the "
            f"local branch {branch}; fix that, then `tdd-sandbox pr --repo {path}`"
        )


def _first_error(text: str) -> str:
    """The line of git's output that says why, as one printable line."""
    lines = [one_line(line) for line in text.splitlines() if line.strip()]
    return next((line for line in lines if line.startswith(("!", "error", "fatal", "remote:"))),
                lines[0] if lines else "no reason given")  # fmt: skip
