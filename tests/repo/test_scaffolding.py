"""Making kata repositories from what the user has, never touching what is theirs."""

from __future__ import annotations

from pathlib import Path

import pytest

from tdd_sandbox.errors import UsageError
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.repo.hardened import HardenedRepo
from tdd_sandbox.repo.history import head_files
from tdd_sandbox.repo.scaffolding import add_scaffold, adoptable, init_repo
from tdd_sandbox.settings import CommitSettings
from tests.helpers.git import git


def test_init_refuses_a_folder_with_other_files_and_touches_nothing(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine\n")
    (tmp_path / "kata.md").write_text("# Mine\n")
    assert not adoptable(tmp_path)
    with pytest.raises(UsageError, match=r"holds files besides kata\.md and tdd\.yaml"):
        init_repo(tmp_path, get_language("python"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kata.md", "notes.txt"]


def test_init_adopts_the_users_kata_and_config_unchanged(tmp_path: Path) -> None:
    (tmp_path / "kata.md").write_text("# Mine\n")
    (tmp_path / "tdd.yaml").write_text("cycles: 3\n")
    assert adoptable(tmp_path)
    init_repo(tmp_path, get_language("rust"))
    assert (tmp_path / "kata.md").read_text() == "# Mine\n"
    assert (tmp_path / "tdd.yaml").read_text() == "cycles: 3\n"
    committed = git(tmp_path, "show", "--name-only", "--format=", "HEAD").split()
    assert {"kata.md", "tdd.yaml", "Cargo.toml", "src/lib.rs"} <= set(committed)


def test_a_go_repository_of_its_own_package_gets_only_what_fits_beside_it(
    tmp_path: Path,
) -> None:
    # The scaffold's `package kata` beside the repo's `package leap` was added before: a
    # folder of two packages, which never builds.
    git(tmp_path, "init", "-q", "-b", "main")
    (tmp_path / "go.mod").write_text("module leap\n\ngo 1.24\n")
    (tmp_path / "leap.go").write_text("package leap\n\nfunc IsLeapYear(year int) bool {\n")
    git(tmp_path, "add", "-A")
    git(tmp_path, "-c", "user.name=u", "-c", "user.email=u@x", "commit", "-qm", "mine")
    repo = HardenedRepo(tmp_path)
    try:
        added = add_scaffold(repo, get_language("go"), head_files(repo), CommitSettings())
    finally:
        repo.close()
    assert added == [".gitignore", "scaffold_test.go"]
    assert (tmp_path / "scaffold_test.go").read_text().startswith("package leap\n")
    assert (tmp_path / "go.mod").read_text() == "module leap\n\ngo 1.24\n"
    assert git(tmp_path, "status", "--porcelain") == ""
