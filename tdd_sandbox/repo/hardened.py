"""Running git on a repository whose content came from a model.

Every git process the tool starts (gitpython's included) gets the environment of
`environment.py`, which turns off what could run code or read config we did not choose.
Paths always follow `--`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import git
import git.exc

from tdd_sandbox.errors import UsageError
from tdd_sandbox.repo.environment import (
    git_environment,
    git_missing,
    not_a_repository,
    scrub_git_environment,
)


class HardenedRepo:
    """A gitpython `Repo` whose every git process runs hardened."""

    def __init__(self, path: Path) -> None:
        scrub_git_environment()
        try:
            self.repo = git.Repo(path, search_parent_directories=False)
        except git.exc.InvalidGitRepositoryError:
            raise not_a_repository(path) from None
        except git.exc.NoSuchPathError:
            raise UsageError(f"{path} does not exist: pass the kata repository") from None
        except git.exc.GitCommandNotFound:
            raise git_missing() from None
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
