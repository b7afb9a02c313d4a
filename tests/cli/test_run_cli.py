"""`run`, `init` and `status` through the entry point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tdd_sandbox.languages.registry import LANGUAGES
from tests.helpers.cli import run_cli
from tests.helpers.fake_llm import FakeLLM
from tests.helpers.git import git

ROOT = Path(__file__).resolve().parents[2]
KATA = ROOT / "katas" / "fizzbuzz" / "kata.md"


@pytest.mark.docker
@pytest.mark.usefixtures("images")
@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_shipped_demo_replays_a_whole_run_without_any_endpoint(
    tmp_path: Path, language: str
) -> None:
    demo = ROOT / "katas" / "fizzbuzz" / "demo" / f"{language}.jsonl"
    repo = tmp_path / "fizzbuzz"
    result = run_cli(
        "run", str(KATA), "--replay", str(demo), "--repo", str(repo), "--json",
        "--language", language,
        env={"OPENAI_API_KEY": ""},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    summary = json.loads(result.stdout)
    assert summary["status"] == "completed"
    assert summary["cycles"] == 4
    assert len(summary["commits"]) == 5
    assert set(summary) >= {"status", "cycles", "commits", "tokens", "cost"}
    status = run_cli("status", "--repo", str(repo), "--json")
    assert status.returncode == 0, status.stderr
    info = json.loads(status.stdout)
    assert info["state"] == "completed"
    assert "phase" not in info  # an ended run is in no phase
    assert info["last_commit"].startswith("refactor(fizzbuzz)")


def test_init_makes_a_committed_scaffold(tmp_path: Path) -> None:
    result = run_cli("init", str(tmp_path / "k"), "--language", "rust")
    assert result.returncode == 0, result.stderr
    for name in (
        "Cargo.toml",
        "Cargo.lock",
        "src/lib.rs",
        "kata.md",
        "tdd.yaml",
        "tests/scaffold.rs",
    ):
        assert (tmp_path / "k" / name).exists(), name
    again = run_cli("init", str(tmp_path / "k"))
    assert again.returncode == 2
    assert "already a git repository" in again.stderr


def test_a_missing_kata_is_one_line(tmp_path: Path) -> None:
    result = run_cli("run", str(tmp_path / "nope.md"), "--repo", str(tmp_path / "r"))
    assert result.returncode == 2
    assert "does not exist" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "r").exists()


def test_a_missing_api_key_names_the_variable_and_leaks_nothing(tmp_path: Path) -> None:
    result = run_cli(
        "run", str(KATA), "--repo", str(tmp_path / "r"),
        env={"OPENAI_API_KEY": "", "TDD_SANDBOX_ROLES__TESTER__API_KEY_ENV": "MY_TESTER_KEY"},
    )  # fmt: skip
    assert result.returncode == 3, result.stderr
    assert "MY_TESTER_KEY is not set" in result.stderr
    assert "Traceback" not in result.stderr


def test_status_without_a_run(tmp_path: Path) -> None:
    result = run_cli("status", "--repo", str(tmp_path))
    assert result.returncode == 2
    assert "no run found" in result.stderr


def test_a_config_a_run_committed_never_reaches_an_endpoint_or_a_key(tmp_path: Path) -> None:
    # Attack (#10): a model-written tdd.yaml in a run's commit names the model's own endpoint
    # and a host variable as the key; the next run sent that variable as a bearer token.
    with FakeLLM({}) as attacker:
        repo = tmp_path / "k"
        assert run_cli("init", str(repo), "--kata", str(KATA)).returncode == 0
        (repo / "tdd.yaml").write_text(
            f"llm: {{base_url: '{attacker.base_url}', api_key_env: HOST_SECRET}}\n"
        )
        git(repo, "-c", "user.name=m", "-c", "user.email=m@x", "commit", "-qam",
            "feat(fizzbuzz): green\n\nTDD-Run: 20260101-000000-abcdef\nTDD-Cycle: 1")  # fmt: skip
        result = run_cli(
            "run", str(KATA), "--repo", str(repo), "--cycles", "1",
            env={"HOST_SECRET": "hunter2", "OPENAI_API_KEY": "sk-test"},
        )  # fmt: skip
        assert result.returncode == 2, result.stderr[-1500:]
        assert "changed by a run's commit" in result.stderr
        assert attacker.requests == []


def test_replay_refuses_a_transcript_of_another_kata_and_creates_nothing(tmp_path: Path) -> None:
    other = ROOT / "katas" / "string-calculator" / "kata.md"
    demo = ROOT / "katas" / "fizzbuzz" / "demo" / "python.jsonl"
    result = run_cli("run", str(other), "--replay", str(demo), "--repo", str(tmp_path / "r"))
    assert result.returncode == 2, result.stderr
    assert "recorded for kata 'fizzbuzz'" in result.stderr
    assert "'string-calculator'" in result.stderr
    assert not (tmp_path / "r").exists()


def test_replay_refuses_a_transcript_of_another_language(tmp_path: Path) -> None:
    demo = ROOT / "katas" / "fizzbuzz" / "demo" / "rust.jsonl"
    result = run_cli(
        "run", str(KATA), "--replay", str(demo), "--repo", str(tmp_path / "r"), "-l", "python"
    )
    assert result.returncode == 2, result.stderr
    assert "recorded in rust" in result.stderr
    assert "python" in result.stderr
    assert not (tmp_path / "r").exists()


def test_replay_of_a_run_that_raced_otherwise_is_refused_before_it_starts(
    tmp_path: Path,
) -> None:
    # Three racing attempts took the transcript's answers out of order, committed in the
    # wrong cycle and ended `completed`, exit 0.
    demo = ROOT / "katas" / "fizzbuzz" / "demo" / "python.jsonl"
    repo = tmp_path / "r"
    result = run_cli("run", str(KATA), "--replay", str(demo), "--repo", str(repo),
                     "--parallel", "3")  # fmt: skip
    assert result.returncode == 2, result.stderr
    said = "recorded racing 1 implementer and 1 refactorer attempts at once; this run races 3"
    assert said in result.stderr
    assert "replay it with --parallel 1" in result.stderr
    assert not repo.exists()


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_replay_takes_the_transcripts_language_and_records_its_models(tmp_path: Path) -> None:
    demo = ROOT / "katas" / "fizzbuzz" / "demo" / "rust.jsonl"
    repo = tmp_path / "r"
    result = run_cli("run", str(KATA), "--replay", str(demo), "--repo", str(repo), "--json",
                     env={"OPENAI_API_KEY": ""})  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    assert json.loads(result.stdout)["status"] == "completed"
    assert (repo / "Cargo.toml").is_file()
    trailers = git(repo, "log", "-1", "--format=%(trailers:key=TDD-Model,valueonly)")
    assert "scripted-implementer" in trailers
    assert "gpt-4.1-mini" not in trailers


def test_a_language_the_repo_is_not_in_is_named(tmp_path: Path) -> None:
    repo = tmp_path / "k"
    assert run_cli("init", str(repo)).returncode == 0
    result = run_cli("run", str(KATA), "--repo", str(repo), "-l", "rust",
                     env={"OPENAI_API_KEY": "sk-test"})  # fmt: skip
    assert result.returncode == 2, result.stderr
    assert "is a python repository" in result.stderr
    assert "--language rust" in result.stderr


def test_an_empty_git_repository_is_adopted_by_init(tmp_path: Path) -> None:
    repo = tmp_path / "k"
    repo.mkdir()
    git(repo, "init", "-q")
    result = run_cli("init", str(repo), "--language", "python")
    assert result.returncode == 0, result.stderr
    assert git(repo, "log", "--format=%s").startswith("chore(kata): scaffold")


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_a_run_on_another_branch_says_so(tmp_path: Path) -> None:
    repo = tmp_path / "k"
    assert run_cli("init", str(repo), "--kata", str(KATA)).returncode == 0
    git(repo, "checkout", "-q", "-b", "kata-x")
    demo = ROOT / "katas" / "fizzbuzz" / "demo" / "python.jsonl"
    result = run_cli("run", str(KATA), "--replay", str(demo), "--repo", str(repo), "--json",
                     env={"OPENAI_API_KEY": ""})  # fmt: skip
    assert result.returncode == 0, result.stderr[-1500:]
    assert json.loads(result.stdout)["branch"] == "kata-x"
    assert "commits go to branch kata-x" in result.stderr
    assert git(repo, "rev-parse", "--abbrev-ref", "HEAD").strip() == "kata-x"


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_the_init_then_edit_then_run_flow_runs_in_that_repo_with_the_users_edits(
    tmp_path: Path,
) -> None:
    # `init` says "describe it in kata.md" and writes tdd.yaml for the user to edit. The next
    # `run kata.md` from inside the repo refused those edits as uncommitted changes, and made
    # a second repository inside the first that ignored the user's tdd.yaml.
    demo = ROOT / "katas" / "fizzbuzz" / "demo" / "python.jsonl"
    made = run_cli("init", "fz", "--kata", str(KATA), cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    repo = tmp_path / "fz"
    (repo / "tdd.yaml").write_text("language: python\ncycles: 1\n")
    (repo / "kata.md").write_text(KATA.read_text() + "\nOne more line of my own.\n")
    result = run_cli("run", "kata.md", "--replay", str(demo), "--json", cwd=repo)
    assert result.returncode == 0, result.stderr[-2000:]
    summary = json.loads(result.stdout)
    assert Path(summary["repo"]) == repo
    assert summary["cycles"] == 1  # the user's tdd.yaml was read
    assert sorted(p.name for p in repo.iterdir() if p.is_dir()) == [".git", ".tdd", "tests"]
    assert git(repo, "status", "--porcelain") == ""
    subjects = git(repo, "log", "--reverse", "--format=%s").splitlines()
    assert subjects[1] == "chore(kata): the user's kata.md, tdd.yaml"
    assert "One more line of my own." in git(repo, "show", "HEAD:kata.md")


def test_a_run_that_cannot_start_leaves_the_user_s_tree_and_history_as_they_were(
    tmp_path: Path,
) -> None:
    # With Docker down, the run committed the user's tdd.yaml for them, then failed (exit 3);
    # `status` then said `running` for it.
    made = run_cli("init", "fz", "--kata", str(KATA), cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    repo = tmp_path / "fz"
    (repo / "tdd.yaml").write_text("language: python\ncycles: 1\n")
    before = git(repo, "log", "--format=%H %s")
    demo = ROOT / "katas" / "fizzbuzz" / "demo" / "python.jsonl"
    result = run_cli(
        "run", "kata.md", "--replay", str(demo), cwd=repo,
        env={"DOCKER_HOST": "unix:///nonexistent/docker.sock"},
    )  # fmt: skip
    assert result.returncode == 3, result.stderr
    assert "Docker is not reachable" in result.stderr
    assert git(repo, "log", "--format=%H %s") == before
    assert git(repo, "status", "--porcelain").strip() == "M tdd.yaml"
    assert git(repo, "branch", "--show-current").strip() == "main"
    status = run_cli("status", "--repo", str(repo))
    assert status.returncode == 2  # no run began, so none reads as `running`
    assert "no run found" in status.stderr


def test_quiet_says_no_progress_line_and_still_the_error(tmp_path: Path) -> None:
    demo = ROOT / "katas" / "fizzbuzz" / "demo" / "python.jsonl"
    env = {"DOCKER_HOST": "unix:///nonexistent/docker.sock"}
    args = ("run", str(KATA), "--replay", str(demo), "--repo", str(tmp_path / "r"))
    loud = run_cli(*args, env=env)
    quiet = run_cli("-q", *args[:-1], str(tmp_path / "q"), env=env)
    assert "» creating the kata repository" in loud.stderr
    assert "»" not in quiet.stderr
    assert quiet.returncode == loud.returncode == 3
    assert "Docker is not reachable" in quiet.stderr


def test_other_uncommitted_changes_are_still_refused(tmp_path: Path) -> None:
    made = run_cli("init", "fz", "--kata", str(KATA), cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    repo = tmp_path / "fz"
    (repo / "notes.txt").write_text("mine\n")
    (repo / "tdd.yaml").write_text("language: python\ncycles: 1\n")
    demo = ROOT / "katas" / "fizzbuzz" / "demo" / "python.jsonl"
    result = run_cli("run", "kata.md", "--replay", str(demo), cwd=repo)
    assert result.returncode == 2
    assert "uncommitted changes (tdd.yaml, notes.txt)" in result.stderr
    assert git(repo, "log", "--format=%s").count("\n") == 1  # nothing committed for the user


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_a_directory_with_only_kata_md_and_tdd_yaml_is_adopted(tmp_path: Path) -> None:
    # It was refused as "not empty" although the README says to put a tdd.yaml there.
    demo = ROOT / "katas" / "fizzbuzz" / "demo" / "python.jsonl"
    mine = tmp_path / "mine"
    mine.mkdir()
    kata_text = KATA.read_text() + "\nMy own words.\n"
    (mine / "kata.md").write_text(kata_text)
    (mine / "tdd.yaml").write_text("language: python\ncycles: 1\n")
    result = run_cli("run", "kata.md", "--replay", str(demo), "--json", cwd=mine)
    assert result.returncode == 0, result.stderr[-2000:]
    assert json.loads(result.stdout)["cycles"] == 1  # its tdd.yaml was read
    assert git(mine, "show", "HEAD:kata.md") == kata_text
    assert (mine / "kata.md").read_text() == kata_text
    assert (mine / "tdd.yaml").read_text() == "language: python\ncycles: 1\n"
    assert git(mine, "status", "--porcelain") == ""


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_an_existing_repo_on_master_without_the_scaffold_gets_it_in_its_own_commit(
    tmp_path: Path,
) -> None:
    # It was refused with "HEAD does not pass its own gates".
    demo = ROOT / "katas" / "fizzbuzz" / "demo" / "python.jsonl"
    repo = tmp_path / "theirs"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "master")
    (repo / "README.md").write_text("# my katas\n")
    (repo / "kata.md").write_text(KATA.read_text())
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=u", "-c", "user.email=u@x", "commit", "-qm", "mine")
    result = run_cli("run", "kata.md", "--replay", str(demo), "--cycles", "1", cwd=repo)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "commits go to branch master" in result.stderr
    subjects = git(repo, "log", "--reverse", "--format=%s").splitlines()
    assert subjects[:2] == ["mine", "chore(kata): add the python scaffold"]
    added = git(repo, "show", "--name-only", "--format=", "HEAD~" + str(len(subjects) - 2))
    assert "README.md" not in added
    assert "kata.md" not in added
    assert (repo / "README.md").read_text() == "# my katas\n"
    assert git(repo, "branch", "--show-current").strip() == "master"


def test_quiet_and_verbose_together_is_a_usage_error() -> None:
    both = run_cli("-q", "-v", "katas", "list", str(ROOT / "katas"))
    assert both.returncode == 2
    assert "-q and -v ask for opposites" in both.stderr
