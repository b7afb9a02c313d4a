"""Making kata repositories from what the user has, never touching what is theirs."""

from __future__ import annotations

from pathlib import Path

import pytest

from tdd_sandbox.errors import UsageError
from tdd_sandbox.languages import get_language
from tdd_sandbox.repo.scaffolding import adoptable, init_repo
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
