"""The repository's `tdd.yaml`: host configuration, so read only while the user wrote it.

No agent may write `tdd.yaml` (see `edits.check_permission`), but a repository can carry one
that a model wrote before that rule, or that reached a run's commit some other way. The
newest commit that changed the file decides: the user's own commit is trusted, a run's
commit (it carries a `TDD-Run` trailer) is refused, since a model may have chosen the
endpoint, the key variable or the gate commands in it.
"""

from __future__ import annotations

from pathlib import Path

from tdd_sandbox.errors import ConfigError
from tdd_sandbox.repo.hardened import HardenedRepo

CONFIG_FILE = "tdd.yaml"


def find_config(start: Path) -> Path | None:
    """The `tdd.yaml` that governs `start`, found as pytest finds its configuration: in
    `start` or the nearest folder above it that holds one, stopping at the repository's root
    (a folder with `.git`), whose configuration is the repository's own; checked as
    `repo_config` checks it.

    Raises:
        ConfigError: as `repo_config`.
    """
    for folder in (start.resolve(), *start.resolve().parents):
        if (folder / CONFIG_FILE).is_file() or (folder / ".git").exists():
            return repo_config(folder)
    return None


def repo_config(directory: Path) -> Path | None:
    """The `tdd.yaml` of `directory` when it exists and the user wrote it, else None.

    Raises:
        ConfigError: the newest commit that changed it was made by a run.
    """
    candidate = directory / CONFIG_FILE
    if not candidate.is_file():
        return None
    if not (directory / ".git").exists():
        return candidate  # a plain folder of the user's: nothing of a model's is in it
    repo = HardenedRepo(directory)
    try:
        if not repo.repo.head.is_valid():
            return candidate
        newest = repo.run(
            "log", "-1", "--format=%H%x00%(trailers:key=TDD-Run,valueonly,separator=%x2C)",
            paths=[CONFIG_FILE],
        )  # fmt: skip
    finally:
        repo.close()
    sha, _, run = newest.strip().partition("\0")
    if run.strip():
        raise ConfigError(
            f"{candidate} was changed by a run's commit {sha[:12]} (TDD-Run {run.strip()}), "
            "so a model may have written it: commit a version of your own, or pass --config"
        )
    return candidate
