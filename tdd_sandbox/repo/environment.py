"""The environment every git process of the tool's runs in, on a repository whose content
came from a model: no system or global config, no hooks, no fsmonitor, no external diff or
textconv drivers, no pager or prompt, and bare repositories only when named explicitly.

Apart from `hardened.py` so that a command that only reads (`status`) runs git without
loading gitpython.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

from tdd_sandbox.errors import PrerequisiteError, UsageError

# Passed as GIT_CONFIG_COUNT/KEY/VALUE: it beats the repository's own config.
_FORCED_CONFIG = {
    "core.hooksPath": "/dev/null",
    "core.fsmonitor": "false",
    "core.untrackedCache": "false",
    "core.pager": "cat",
    "core.editor": "false",
    "core.sshCommand": "false",
    "diff.external": "",
    "commit.gpgSign": "false",
    "tag.gpgSign": "false",
    "safe.bareRepository": "explicit",
    "protocol.allow": "never",
    "init.defaultBranch": "main",
}


def git_environment(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for every git call: the host's PATH and locale, nothing else of it."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "HOME": "/nonexistent",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": "/dev/null",
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_OPTIONAL_LOCKS": "0",
        "GIT_NO_REPLACE_OBJECTS": "1",
        "GIT_CONFIG_COUNT": str(len(_FORCED_CONFIG)),
    }
    for index, (key, value) in enumerate(_FORCED_CONFIG.items()):
        env[f"GIT_CONFIG_KEY_{index}"] = key
        env[f"GIT_CONFIG_VALUE_{index}"] = value
    env.update(extra or {})
    return env


def scrub_git_environment() -> None:
    """Drop the host's GIT_* variables from this process's environment.

    gitpython starts git with a copy of our environment; a stray GIT_DIR, GIT_WORK_TREE or
    GIT_INDEX_FILE there would point every call at some other repository.
    """
    for name in [name for name in os.environ if name.startswith("GIT_")]:
        del os.environ[name]


def not_a_repository(path: Path) -> UsageError:
    """The error for a folder that holds no repository of its own."""
    return UsageError(f"{path} is not a git repository: run `tdd-sandbox init {path}`")


def git_missing() -> PrerequisiteError:
    """The error for a host without git."""
    return PrerequisiteError("git is not installed: `apt-get install -y git`")


def head_summary(path: Path) -> str | None:
    """The first line of HEAD's message in the repository at `path` (its own `.git`, never a
    parent's); None when it has no commit yet, or git will not read it (a repository another
    user owns). Read with `cat-file`, which runs nothing a config could name (`git log` would
    run a signature program for `log.showSignature`).

    Raises:
        UsageError: `path` holds no `.git`.
        PrerequisiteError: git is not installed.
    """
    if not (path / ".git").exists():
        raise not_a_repository(path)
    # A ceiling at the parent: a `.git` git cannot use never sends it looking further up.
    env = git_environment({"GIT_CEILING_DIRECTORIES": str(path.resolve().parent)})
    try:
        found = subprocess.run(
            ["git", "-C", str(path), "cat-file", "commit", "HEAD"],
            env=env, capture_output=True, check=False,
        )  # fmt: skip
    except FileNotFoundError:
        raise git_missing() from None
    if found.returncode != 0:
        return None
    _, _, message = found.stdout.partition(b"\n\n")
    return message.decode("utf-8", "replace").split("\n", 1)[0]
