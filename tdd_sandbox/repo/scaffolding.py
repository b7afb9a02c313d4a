"""Making a kata repository out of what the user has: a new directory, a `git init`ed empty
one, a folder holding only their kata.md and tdd.yaml, or an existing repository that lacks
the language's scaffold. Nothing of the user's is ever overwritten or removed."""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from pathlib import Path

import yaml

from tdd_sandbox.errors import UsageError
from tdd_sandbox.languages.parts import Layout
from tdd_sandbox.repo.config import CONFIG_FILE
from tdd_sandbox.repo.hardened import HardenedRepo, init_repository
from tdd_sandbox.repo.history import commit_paths, exclude_locally
from tdd_sandbox.settings import CommitSettings
from tdd_sandbox.vocabulary.files import TDD_DIR

KATA_FILE = "kata.md"
USER_FILES = frozenset({KATA_FILE, CONFIG_FILE, "tdd.yml"})
"""What a user writes to set a kata up: a folder holding only these is adopted, and a run
commits the user's uncommitted changes to them (no role may write them)."""
_GITIGNORE = "__pycache__/\n*.pyc\n.pytest_cache/\n.mypy_cache/\n.ruff_cache/\ntarget/\n.tdd/\n"
_PLACEHOLDER = "# My Kata\n\nDescribe the kata here.\n\n## Requirements\n- ...\n"


def adoptable(directory: Path) -> bool:
    """A folder that `init_repo` takes as it is: missing, or holding at most the user's
    kata.md and tdd.yaml and an empty `git init`."""
    if not directory.exists():
        return True
    names = {p.name for p in directory.iterdir()}
    if ".git" in names and not _is_empty_repository(directory):
        return False
    return names - {".git"} <= USER_FILES


def starting_files(
    language: Layout, kata_dir: Path | None, *, overlay: str = "scaffold"
) -> dict[str, str]:
    """What a kata's repository starts with in `language`: the language's scaffold, with
    the kata's own starting files (`scaffold/<language>/`, such as an Exercism stub) over
    it; `overlay="reference"` lays the kata's reference solution over those as well. What
    of the scaffold no longer fits beside them (a lock file naming another crate, a package
    of another name) the language leaves out."""
    own: dict[str, str] = {}
    layers = ["scaffold"] if overlay == "scaffold" else ["scaffold", overlay]
    for layer in layers:
        folder = kata_dir / layer / language.name if kata_dir is not None else None
        if folder is None or not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*")):
            if path.is_file() and not path.is_symlink():
                own[path.relative_to(folder).as_posix()] = path.read_text(encoding="utf-8")
    return language.scaffold_under(own) | own


def init_repo(directory: Path, language: Layout, *, kata_source: Path | None = None) -> Path:
    """Create a kata repository: git, the language scaffold, kata.md, tdd.yaml, one commit.
    The user's own kata.md and tdd.yaml, where the folder has them, are kept as they are.

    Raises:
        UsageError: the directory already holds a repository or other files.
    """
    if (directory / ".git").exists() and not _is_empty_repository(directory):
        raise UsageError(f"{directory} is already a git repository: run the kata in it instead")
    if not adoptable(directory):
        raise UsageError(
            f"{directory} holds files besides kata.md and tdd.yaml: pick a new directory for "
            "the kata repo, or commit those files in a git repository there (a run then adds "
            "the scaffold in a commit of its own)"
        )
    empty_repo = (directory / ".git").exists()
    files = starting_files(language, kata_source.parent if kata_source else None)
    files[".gitignore"] = _GITIGNORE
    if not (directory / KATA_FILE).exists():
        text = kata_source.read_text(encoding="utf-8") if kata_source else _PLACEHOLDER
        files[KATA_FILE] = text
    if not any((directory / name).exists() for name in USER_FILES - {KATA_FILE}):
        config = {"kata_description": KATA_FILE, "language": language.name}
        files[CONFIG_FILE] = yaml.safe_dump(config, sort_keys=False)
    existed = directory.exists()
    users = sorted(p.name for p in directory.iterdir() if p.name != ".git") if existed else []
    directory.mkdir(parents=True, exist_ok=True)
    try:
        _write_new(directory, files)
        if not empty_repo:
            init_repository(directory)
        repo = HardenedRepo(directory)
        try:
            exclude_locally(repo, f"/{TDD_DIR}/")
            message = f"chore(kata): scaffold a {language.name} kata\n"
            commit_paths(repo, sorted([*files, *users]), message, CommitSettings())
        finally:
            repo.close()
    except BaseException:
        # Never leave a half-made repository behind, nor remove anything of the user's.
        for name in files:
            (directory / name).unlink(missing_ok=True)
        if not existed:
            shutil.rmtree(directory, ignore_errors=True)
        elif not empty_repo:
            shutil.rmtree(directory / ".git", ignore_errors=True)
        raise
    return directory


def add_scaffold(
    repo: HardenedRepo, language: Layout, head: Mapping[str, bytes], author: CommitSettings
) -> list[str]:
    """Commit the scaffold files `head` lacks, in a commit of their own; none of the repo's
    files is touched, a repo with runner configuration of its own (its own crate, its own
    pyproject) keeps it whole, and what of the scaffold does not fit beside the repo's code
    (a Go package of another name) is left out. Returns the paths added (none when nothing
    lacks)."""
    own_config = any(language.is_runner_config(path) for path in head)
    texts = {path: data.decode("utf-8", "replace") for path, data in head.items()}
    missing = {
        path: text
        for path, text in language.scaffold_under(texts).items()
        if path not in head and not (own_config and language.is_runner_config(path))
    }
    if not missing:
        return []
    if ".gitignore" not in head:
        missing[".gitignore"] = _GITIGNORE
    _write_new(repo.path, missing)
    commit_paths(repo, sorted(missing), f"chore(kata): add the {language.name} scaffold\n", author)
    return sorted(missing)


def _write_new(directory: Path, files: dict[str, str]) -> None:
    """Write files that must not exist yet (`x` mode: an existing one is never overwritten)."""
    for name, text in files.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("x", encoding="utf-8") as handle:
            handle.write(text)


def _is_empty_repository(directory: Path) -> bool:
    """A `git init`ed directory with no commit yet."""
    if not (directory / ".git").is_dir():
        return False
    repo = HardenedRepo(directory)
    try:
        return not repo.repo.head.is_valid()
    finally:
        repo.close()
