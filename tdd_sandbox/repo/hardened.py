"""Running git on a repository whose content came from a model.

Every git process the tool starts (gitpython's included) gets an environment that turns off
what could run code or read config we did not choose: no system or global config, no hooks,
no fsmonitor, no external diff or textconv drivers, no pager or prompt, and bare
repositories only when named explicitly. Paths always follow `--`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

import git
import git.exc

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


class HardenedRepo:
    """A gitpython `Repo` whose every git process runs hardened."""

    def __init__(self, path: Path) -> None:
        scrub_git_environment()
        try:
            self.repo = git.Repo(path, search_parent_directories=False)
        except git.exc.InvalidGitRepositoryError:
            raise UsageError(
                f"{path} is not a git repository: run `tdd-sandbox init {path}`"
            ) from None
        except git.exc.NoSuchPathError:
            raise UsageError(f"{path} does not exist: pass the kata repository") from None
        except git.exc.GitCommandNotFound:
            raise PrerequisiteError("git is not installed: `apt-get install -y git`") from None
        self.repo.git.update_environment(**git_environment())
        self.path = Path(self.repo.working_tree_dir or path)

    def run(
        self, *args: str, paths: Sequence[str] = (), env: Mapping[str, str] | None = None
    ) -> str:
        """`git ARGS -- PATHS` in the repository; returns stdout.

        Raises:
            git.exc.GitCommandError: git failed.
        """
        argv = ["git", *args]
        if paths:
            argv += ["--", *paths]
        output = self.repo.git.execute(
            argv,
            env=git_environment(env),
            with_extended_output=False,
            strip_newline_in_stdout=False,
        )
        return str(output)

    def close(self) -> None:
        """Stop gitpython's persistent helper processes."""
        self.repo.close()


def init_repository(path: Path) -> None:
    """`git init` at `path` (hardened)."""
    scrub_git_environment()
    # git runs inside `path`, so a relative `path` would name `path/path` to it.
    where = str(path.resolve())
    git.Git(where).execute(["git", "init", "-q", where], env=git_environment())
