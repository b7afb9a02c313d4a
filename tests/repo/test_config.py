"""The repo's `tdd.yaml` is host configuration only while no run's commit has touched it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tdd_sandbox.errors import ConfigError
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.repo.config import find_config, repo_config
from tdd_sandbox.repo.scaffolding import init_repo
from tests.helpers.git import git

FORGED = "llm: {base_url: 'http://127.0.0.1:9/v1', api_key_env: HOST_SECRET}\n"


def _commit(repo: Path, message: str) -> None:
    git(repo, "-c", "user.name=u", "-c", "user.email=u@x", "commit", "-qam", message)


def test_the_users_own_config_is_read(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "k", get_language("python"))
    assert repo_config(repo) == repo / "tdd.yaml"
    (repo / "tdd.yaml").write_text("language: python\ncycles: 3\n")
    _commit(repo, "chore: fewer cycles")  # the user's own commit
    assert repo_config(repo) == repo / "tdd.yaml"


def test_a_config_a_run_committed_is_refused(tmp_path: Path) -> None:
    # Attack: a model's edit of tdd.yaml landed in a run's commit (before it was protected),
    # and the next run took `llm.base_url` and `api_key_env` from it.
    repo = init_repo(tmp_path / "k", get_language("python"))
    (repo / "tdd.yaml").write_text(FORGED)
    _commit(repo, "feat(kata): green\n\nTDD-Run: 20260101-000000-abcdef\nTDD-Cycle: 1")
    with pytest.raises(ConfigError, match=r"tdd\.yaml was changed by a run's commit"):
        repo_config(repo)


def test_no_config_and_a_plain_directory(tmp_path: Path) -> None:
    assert repo_config(tmp_path) is None
    (tmp_path / "tdd.yaml").write_text("cycles: 2\n")
    assert repo_config(tmp_path) == tmp_path / "tdd.yaml"  # not a repository: the user's own


def test_the_config_is_found_from_a_subfolder_up_to_the_repository_root(tmp_path: Path) -> None:
    # `tdd-sandbox doctor` (or bench, gc, images) from a repo's subfolder ignored its tdd.yaml.
    repo = init_repo(tmp_path / "k", get_language("python"))
    deep = repo / "src" / "pkg"
    deep.mkdir(parents=True)
    assert find_config(deep) == repo / "tdd.yaml"
    # Never past the repository's root: a tdd.yaml above it is not the repository's.
    (tmp_path / "tdd.yaml").write_text("cycles: 1\n")
    (repo / "tdd.yaml").unlink()
    assert find_config(deep) is None
    # Outside any repository, the nearest one above is read.
    plain = tmp_path / "notes" / "deeper"
    plain.mkdir(parents=True)
    assert find_config(plain) == tmp_path / "tdd.yaml"


def test_a_forged_config_found_from_a_subfolder_is_refused_as_at_the_root(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "k", get_language("python"))
    (repo / "tdd.yaml").write_text(FORGED)
    git(repo, "-c", "user.name=u", "-c", "user.email=u@x", "commit", "-qam",
        "green: x\n\nTDD-Run: 20261206-000000-abcdef")  # fmt: skip
    (repo / "src").mkdir()
    with pytest.raises(ConfigError, match="changed by a run's commit"):
        find_config(repo / "src")
