from __future__ import annotations

import os
from pathlib import Path

import pytest

from tdd_sandbox.engine.edits import EditRejected, apply_plan, check_path
from tdd_sandbox.engine.writing import check_on_disk, write_changes
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.protocol import Edit, EditPlan
from tdd_sandbox.vocabulary.roles import Role

PYTHON = get_language("python")


def _plan(*edits: tuple[str, str, str]) -> EditPlan:
    return EditPlan(
        plan="p",
        edits=[Edit(path=p, action=a, content=c) for p, a, c in edits],
        commit_message="feat: x",
        done=False,
    )


@pytest.mark.parametrize(
    "path",
    [
        "/etc/passwd",
        "../outside.py",
        "a/../../b.py",
        "./a.py",
        "a//b.py",
        ".git/hooks/pre-commit",
        ".GIT/config",
        "sub/.git/config",
        ".git./config",
        ".git /config",
        "git~1/config",
        ".gitattributes",
        ".gitmodules",
        ".tdd/state.json",
        "a\\b.py",
        "C:/x.py",
        "nul\0.py",
        "",
        "x" * 300,
    ],
)
def test_unsafe_paths_are_rejected(path: str) -> None:
    with pytest.raises(EditRejected):
        check_path(path)


def test_safe_paths_pass() -> None:
    for path in ("a.py", "tests/test_a.py", "src/lib.rs", ".gitignore", "dir/.hidden"):
        assert check_path(path) == path


def test_roles_are_held_to_their_files() -> None:
    files = {"tests/test_a.py": b"", "a.py": b""}
    with pytest.raises(EditRejected, match="tester may only change test files"):
        apply_plan(files, _plan(("a.py", "upsert", "x")), Role.TESTER, PYTHON)
    with pytest.raises(EditRejected, match="implementer may not change test files"):
        apply_plan(files, _plan(("tests/test_a.py", "upsert", "x")), Role.IMPLEMENTER, PYTHON)
    with pytest.raises(EditRejected, match="test-runner configuration"):
        apply_plan(files, _plan(("pyproject.toml", "upsert", "x")), Role.IMPLEMENTER, PYTHON)
    with pytest.raises(EditRejected, match="refactorer may not change test-runner configuration"):
        apply_plan(files, _plan(("tests/conftest.py", "upsert", "x")), Role.REFACTORER, PYTHON)


def test_one_bad_edit_rejects_the_whole_plan() -> None:
    files = {"a.py": b"old"}
    plan = _plan(("a.py", "upsert", "new"), ("../evil.py", "upsert", "x"))
    with pytest.raises(EditRejected):
        apply_plan(files, plan, Role.IMPLEMENTER, PYTHON)
    assert files == {"a.py": b"old"}


def test_size_directory_and_delete_checks() -> None:
    files = {"pkg/mod.py": b"x", "a.py": b"x"}
    with pytest.raises(EditRejected, match="over"):
        apply_plan(files, _plan(("b.py", "upsert", "x" * 300_000)), Role.IMPLEMENTER, PYTHON)
    with pytest.raises(EditRejected, match="is a directory"):
        apply_plan(files, _plan(("pkg", "upsert", "x")), Role.IMPLEMENTER, PYTHON)
    with pytest.raises(EditRejected, match=r"parent of a\.py/x\.py is a file"):
        apply_plan(files, _plan(("a.py/x.py", "upsert", "x")), Role.IMPLEMENTER, PYTHON)
    with pytest.raises(EditRejected, match="no such file"):
        apply_plan(files, _plan(("gone.py", "delete", "")), Role.IMPLEMENTER, PYTHON)
    after = apply_plan(files, _plan(("a.py", "delete", "")), Role.IMPLEMENTER, PYTHON)
    assert "a.py" not in after


def test_write_changes_creates_replaces_and_deletes(tmp_path: Path) -> None:
    before = {"a.py": b"a", "old.py": b"o"}
    write_changes(tmp_path, {}, before)
    after = {"a.py": b"A", "pkg/new.py": b"n"}
    changed = write_changes(tmp_path, before, after)
    assert changed == ["a.py", "old.py", "pkg/new.py"]
    assert (tmp_path / "a.py").read_bytes() == b"A"
    assert (tmp_path / "pkg/new.py").read_bytes() == b"n"
    assert not (tmp_path / "old.py").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.py", "pkg"]  # no temp files left


def test_write_never_follows_a_symlink(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "pkg").symlink_to(outside)
    (repo / "link.py").symlink_to(outside / "target.py")
    with pytest.raises(EditRejected, match="not a plain directory"):
        write_changes(repo, {}, {"pkg/evil.py": b"x"})
    with pytest.raises(EditRejected, match="not a regular file"):
        write_changes(repo, {}, {"link.py": b"x"})
    assert list(outside.iterdir()) == []


# The judge issue (#10): nothing a model writes may configure the host or the runner.


@pytest.mark.parametrize("role", list(Role))
@pytest.mark.parametrize("path", ["tdd.yaml", "TDD.YAML", "kata/tdd.yml", "kata.md"])
def test_no_role_may_write_the_tools_own_config(role: Role, path: str) -> None:
    # Attack: the implementer writes tdd.yaml with `llm.base_url` and `api_key_env`; the next
    # `run` read it as host configuration and sent a host variable to the model's endpoint.
    files = {"tests/test_a.py": b"", "a.py": b""}
    with pytest.raises(EditRejected, match="no agent may write it") as info:
        apply_plan(files, _plan((path, "upsert", "llm: {}")), role, PYTHON, first_cycle=True)
    assert info.value.kind == "protected"


@pytest.mark.parametrize("path", ["tests/conftest.py", "conftest.py", "tests/sub/conftest.py"])
def test_the_tester_may_not_write_a_conftest_in_any_cycle(path: str) -> None:
    # Attack: a conftest hook that forges results (for the hidden suite too) in a later cycle.
    files = {"tests/test_a.py": b""}
    for first_cycle in (False, True):
        with pytest.raises(EditRejected, match="runner configuration") as info:
            apply_plan(files, _plan((path, "upsert", "x")), Role.TESTER, PYTHON,
                       first_cycle=first_cycle)  # fmt: skip
        assert info.value.kind == "permission"


def test_the_first_tester_may_create_runner_config_only_as_the_scaffold_made_it() -> None:
    scaffold = PYTHON.scaffold()["pyproject.toml"]
    made = apply_plan(
        {}, _plan(("pyproject.toml", "upsert", scaffold)), Role.TESTER, PYTHON, first_cycle=True
    )
    assert made["pyproject.toml"] == scaffold.encode()
    # Attack: `addopts` or a plugin in the tester's own pyproject decides how tests run.
    forged = scaffold + '\naddopts = "-p evil"\n'
    with pytest.raises(EditRejected, match="as the scaffold made it"):
        apply_plan({}, _plan(("pyproject.toml", "upsert", forged)), Role.TESTER, PYTHON,
                   first_cycle=True)  # fmt: skip
    rust = get_language("rust")
    with pytest.raises(EditRejected, match="tester may not change test-runner configuration"):
        apply_plan({}, _plan(("build.rs", "upsert", "fn main() {}")), Role.TESTER, rust,
                   first_cycle=True)  # fmt: skip


def test_check_on_disk_refuses_links_anywhere_on_the_path(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "linkdir").symlink_to(tmp_path / "real")
    (tmp_path / "link.py").symlink_to(tmp_path / "real" / "x.py")
    os.mkfifo(tmp_path / "pipe.py")
    (tmp_path / "ok.py").write_text("x")
    for path in ("linkdir/a.py", "link.py", "pipe.py"):
        with pytest.raises(EditRejected) as info:
            check_on_disk(tmp_path, {}, {path: b"x"})
        assert info.value.kind == "path"
    check_on_disk(tmp_path, {"ok.py": b"x"}, {"ok.py": b"y", "new/dir/b.py": b"z"})
    check_on_disk(tmp_path, {"link.py": b"x"}, {"link.py": b"x"})  # unchanged: not written


def test_a_test_file_written_back_as_it_stands_is_no_edit_and_the_code_is_kept() -> None:
    # Qwen2.5-Coder-1.5B in `whole`, on JavaScript's space-age: its right code came with the
    # test file it was shown, echoed; the whole answer was refused, the code thrown away and
    # the job scored 0 (12 of its 16 board jobs so).
    js = get_language("javascript")
    test = "import { age } from '../space-age.js';\n\ntest('earth', () => {});\n"
    files = {"test/space-age.test.js": test.encode(), "space-age.js": b"export {};\n"}
    code = "export const age = () => 31.69;\n"
    echoed = _plan(("space-age.js", "upsert", code),
                   ("test/space-age.test.js", "upsert", test.rstrip("\n") + "  \n\n"))  # fmt: skip
    after = apply_plan(files, echoed, Role.IMPLEMENTER, js)
    assert after["space-age.js"] == code.encode()
    assert after["test/space-age.test.js"] == test.encode()  # as it was, byte for byte
    other = test.replace("earth", "mars")
    changed = _plan(("space-age.js", "upsert", code), ("test/space-age.test.js", "upsert", other))
    with pytest.raises(EditRejected, match="may not change test files"):
        apply_plan(files, changed, Role.IMPLEMENTER, js)
