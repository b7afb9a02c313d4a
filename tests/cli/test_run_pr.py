"""`run --pr`: a scripted FizzBuzz run (the fake checker, a scripted model) on its own
branch, pushed to a real bare remote, its pull request opened on a real HTTP server on
loopback that speaks the pulls API."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.helpers.cli import run_cli
from tests.helpers.fake_llm import FakeLLM, plan
from tests.helpers.forge import LoopbackForge
from tests.helpers.git import git
from tests.helpers.katas import covering, fake_fizzbuzz_script
from tests.helpers.runs import KATAS, ROLES

TOKEN = "ghp_run_pr_secret_0123456789"


@pytest.fixture
def repos(tmp_path: Path) -> tuple[Path, Path]:
    """A kata repository on `main` (the kata, committed and pushed) and its bare remote."""
    remote, work = tmp_path / "remote.git", tmp_path / "fizzbuzz"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    subprocess.run(["git", "init", "-q", "-b", "main", str(work)], check=True)
    git(work, "config", "user.email", "me@example.com")
    git(work, "config", "user.name", "me")
    shutil.copy(KATAS / "fizzbuzz" / "kata.md", work / "kata.md")
    git(work, "add", "kata.md")
    git(work, "commit", "-q", "-m", "the kata")
    git(work, "remote", "add", "origin", str(remote))
    git(work, "push", "-q", "origin", "main")
    return work, remote


def _env(forge: LoopbackForge, token: str | None) -> dict[str, str]:
    """The forge's settings, and its token when there is one."""
    return {
        "TDD_SANDBOX_FORGE__API_URL": forge.api_url,
        "TDD_SANDBOX_FORGE__REPOSITORY": "kata-org/kata",
        "TDD_SANDBOX_FORGE__TOKEN_ENV": "TDD_TEST_FORGE_TOKEN",
        "TDD_TEST_FORGE_TOKEN": token or "",
    }


def _run_pr(
    work: Path, fake: FakeLLM, forge: LoopbackForge, token: str | None
) -> tuple[int, dict[str, object], str]:
    env = {
        "TDD_SANDBOX_SANDBOX__TYPE": "fake",
        "TDD_SANDBOX_LLM__BASE_URL": fake.base_url,
        **_env(forge, token),
        **{f"TDD_SANDBOX_ROLES__{r.upper()}__MODEL": f"custom:{r}" for r in ROLES},
    }
    result = run_cli("run", str(work / "kata.md"), "--repo", str(work), "--language", "python",
                     "--pr", "--json", env=env)  # fmt: skip
    return result.returncode, json.loads(result.stdout), result.stderr


def pull_body(forge: LoopbackForge) -> str:
    """The body of the forge's one pull request, with Markdown's escapes undone."""
    return str(forge.state.pulls[0]["body"]).replace("\\", "")


def test_a_run_ends_in_its_pull_request(repos: tuple[Path, Path]) -> None:
    work, remote = repos
    main_before = git(work, "rev-parse", "main")
    script = fake_fizzbuzz_script()
    # One attempt forges a verdict first: refused, and counted in the pull request.
    forged = plan(("fizzbuzz.py", covering(1) + "# FAKE:tamper-sentinel\n"))
    script["implementer"] = [forged, *script["implementer"]]
    with FakeLLM(script) as fake, LoopbackForge("kata-org/kata") as forge:
        code, summary, stderr = _run_pr(work, fake, forge, TOKEN)
        assert code == 0, stderr
        branch = str(summary["branch"])
        assert branch == f"tdd-run/{summary['run_id']}"
        assert summary["base"] == "main"
        assert summary["pull_request"] == {"url": "http://forge/pull/1", "number": 1,
                                           "created": True}  # fmt: skip
        # The remote holds the run's branch as the run left it; neither main moved.
        assert git(remote, "rev-parse", branch) == git(work, "rev-parse", branch)
        assert git(remote, "rev-parse", "main") == main_before
        assert git(work, "rev-parse", "main") == main_before
        subjects = git(remote, "log", "--reverse", "--format=%s", f"main..{branch}").splitlines()
        commits = summary["commits"]
        assert isinstance(commits, list)
        assert len(commits) >= 1
        assert len(subjects) == len(commits) + 1  # the scaffold's commit comes first
        assert all(subject in pull_body(forge) for subject in subjects[1:2])
        [pull] = forge.state.pulls
        assert pull["head"]["ref"] == branch
        assert pull["base"]["ref"] == "main"
        assert pull["title"] == "TDD: FizzBuzz"
        assert "**completed**" in pull["body"]
        assert "**Tamper events refused:** 1." in pull["body"]
        assert "Hidden acceptance" not in pull["body"]  # the kata has no suite beside it
        assert all(s.headers["Authorization"] == f"token {TOKEN}" for s in forge.state.seen)
        assert not any(TOKEN in s.body for s in forge.state.seen)
    assert git(work, "branch", "--show-current").strip() == "main"  # where the user was


def test_without_a_token_nothing_runs_and_the_user_stays_where_they_were(
    repos: tuple[Path, Path],
) -> None:
    # The whole kata ran before the missing token was found (exit 7 after minutes of model).
    work, _ = repos
    before = git(work, "log", "--all", "--format=%H")
    with FakeLLM(fake_fizzbuzz_script()) as fake, LoopbackForge("kata-org/kata") as forge:
        env = {"TDD_SANDBOX_SANDBOX__TYPE": "fake", "TDD_SANDBOX_LLM__BASE_URL": fake.base_url,
               **_env(forge, None)}  # fmt: skip
        result = run_cli("run", str(work / "kata.md"), "--repo", str(work), "--language",
                         "python", "--pr", env=env)  # fmt: skip
        assert fake.requests == []  # no model was asked
    assert result.returncode == 7, result.stderr
    assert "no forge token: set TDD_TEST_FORGE_TOKEN" in result.stderr
    assert "nothing was run" in result.stderr
    assert git(work, "log", "--all", "--format=%H") == before
    assert git(work, "branch", "--show-current").strip() == "main"
    assert forge.state.seen == []


def test_a_remote_that_names_no_forge_repository_is_said_before_the_run(
    repos: tuple[Path, Path], tmp_path: Path
) -> None:
    work, _ = repos
    with FakeLLM(fake_fizzbuzz_script()) as fake:
        env = {"TDD_SANDBOX_SANDBOX__TYPE": "fake", "TDD_SANDBOX_LLM__BASE_URL": fake.base_url,
               "TDD_TEST_FORGE_TOKEN": TOKEN,
               "TDD_SANDBOX_FORGE__TOKEN_ENV": "TDD_TEST_FORGE_TOKEN"}  # fmt: skip
        result = run_cli("run", str(work / "kata.md"), "--repo", str(work), "--language",
                         "python", "--pr", env=env)  # fmt: skip
        assert fake.requests == []
    assert result.returncode == 7, result.stderr
    assert "cannot tell the forge's repository from the URL of remote 'origin'" in result.stderr


def test_pr_opens_the_pull_request_a_failed_run_could_not_and_status_shows_it(
    repos: tuple[Path, Path],
) -> None:
    work, remote = repos
    with FakeLLM(fake_fizzbuzz_script()) as fake, LoopbackForge("kata-org/kata") as forge:
        forge.state.failures.append((422, {"message": "Validation Failed"}))
        code, summary, _ = _run_pr(work, fake, forge, TOKEN)
        assert code == 7
        assert "422" in str(summary["pull_request_error"])
        # The user is back on their branch; the run's commits wait on its own.
        assert git(work, "branch", "--show-current").strip() == "main"
        again = run_cli("pr", "--repo", str(work), "--json", env=_env(forge, TOKEN))
        assert again.returncode == 0, again.stderr
        assert json.loads(again.stdout)["pull_request"]["number"] == 1
        branch = str(summary["branch"])
        assert git(remote, "rev-parse", branch) == git(work, "rev-parse", branch)
        assert forge.state.pulls[0]["title"] == "TDD: FizzBuzz"
        # Once more: the same pull request, brought up to date, not a second one.
        once_more = run_cli("pr", "--repo", str(work), "--json", env=_env(forge, TOKEN))
        assert json.loads(once_more.stdout)["pull_request"]["created"] is False
        assert len(forge.state.pulls) == 1
    shown = run_cli("status", "--repo", str(work), "--json")
    assert json.loads(shown.stdout)["pull_request"] == "http://forge/pull/1"


def test_a_plain_run_never_carries_on_on_a_run_s_branch(repos: tuple[Path, Path]) -> None:
    # A --pr run that died left HEAD on tdd-run/...; the next plain run went on there, unsaid.
    work, _ = repos
    git(work, "switch", "-q", "-c", "tdd-run/20261206-000000-abcdef")
    demo = KATAS / "fizzbuzz" / "demo" / "python.jsonl"
    result = run_cli("run", str(work / "kata.md"), "--repo", str(work), "--replay", str(demo),
                     env={"TDD_SANDBOX_SANDBOX__TYPE": "fake"})  # fmt: skip
    assert result.returncode == 2, result.stderr
    assert "the branch of an earlier --pr run: switch back" in result.stderr


def test_pr_where_no_run_ended_names_the_fix(tmp_path: Path) -> None:
    result = run_cli("pr", "--repo", str(tmp_path))
    assert result.returncode == 7
    assert "no finished run in" in result.stderr
    assert "--pr`" in result.stderr


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_the_shipped_demo_replayed_with_pr_ends_in_its_pull_request(
    repos: tuple[Path, Path],
) -> None:
    # The README's demo run, in Docker, from its recorded transcript: as a user would try it,
    # with the bundled kata, whose hidden suite scores the branch for the pull request.
    work, remote = repos
    demo = KATAS / "fizzbuzz" / "demo" / "python.jsonl"
    with LoopbackForge("kata-org/kata") as forge:
        result = run_cli(
            "run", str(KATAS / "fizzbuzz" / "kata.md"), "--replay", str(demo), "--repo", str(work),
            "--language", "python", "--pr", "--json",
            env={"OPENAI_API_KEY": "", **_env(forge, TOKEN)},
        )  # fmt: skip
        assert result.returncode == 0, result.stderr[-2000:]
        summary = json.loads(result.stdout)
        assert summary["status"] == "completed"
        assert summary["pull_request"]["created"] is True
        branch = summary["branch"]
        assert git(remote, "rev-parse", branch) == git(work, "rev-parse", branch)
        assert (
            len(git(remote, "log", "--format=%s", f"main..{branch}").splitlines())
            == len(summary["commits"]) + 1
        )  # and the scaffold's commit
        body = forge.state.pulls[0]["body"]
        assert "5 green commits" in body
        accepted = summary["acceptance"]
        assert accepted["total"] > 0
        assert f"**Hidden acceptance suite:** {accepted['passed']} of {accepted['total']}" in body
        kept = json.loads(run_cli("status", "--repo", str(work), "--json").stdout)
        assert kept["pull_request"] == "http://forge/pull/1"
    # Scored once: `pr` again reads the score the run kept, and the body says the same.
    with LoopbackForge("kata-org/kata") as again:
        retried = run_cli("pr", "--repo", str(work), env=_env(again, TOKEN))
        assert retried.returncode == 0, retried.stderr
        assert "hidden acceptance suite" not in retried.stderr
        assert f"{accepted['passed']} of {accepted['total']}" in again.state.pulls[0]["body"]
