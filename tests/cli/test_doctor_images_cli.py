"""`doctor` and `images` through the entry point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers.cli import run_cli
from tests.helpers.fake_llm import Answer, FakeLLM


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_doctor_reports_engine_images_git_disk_and_endpoints() -> None:
    script: dict[str, list[Answer]] = {
        f"{r}-model": [] for r in ("tester", "implementer", "refactorer")
    }
    with FakeLLM(script) as fake:
        env = {"TDD_SANDBOX_LLM__BASE_URL": fake.base_url, "COLUMNS": "250"}
        for role in ("tester", "implementer", "refactorer"):
            env[f"TDD_SANDBOX_ROLES__{role.upper()}__MODEL"] = f"openai:{role}-model"
        result = run_cli("doctor", env=env)
    assert result.returncode == 0, result.stdout
    for word in ("docker", "engine", "image python", "image rust", "git version", "GiB free"):
        assert word in result.stdout
    assert result.stdout.count("reachable, model listed") == 3


def test_doctor_names_a_missing_key(tmp_path: Path) -> None:
    result = run_cli("doctor", env={"OPENAI_API_KEY": "", "DOCKER_HOST": f"unix://{tmp_path}/x"})
    assert result.returncode == 3  # a prerequisite is missing, as `--help` says (it was 1)
    assert "OPENAI_API_KEY" in result.stdout


def test_doctor_checks_no_key_for_what_needs_none(tmp_path: Path) -> None:
    # A user who only replays was failed for a key they need not have.
    env = {"OPENAI_API_KEY": "", "DOCKER_HOST": f"unix://{tmp_path}/x"}
    result = run_cli("doctor", "--no-models", "--json", env=env)
    checks = json.loads(result.stdout)
    assert not any("OPENAI_API_KEY" in json.dumps(check) for check in checks)
    assert {check["name"] for check in checks if not check["ok"]} == {"docker"}
    assert result.returncode == 3


def test_doctor_without_docker_gives_the_fix(tmp_path: Path) -> None:
    result = run_cli("doctor", env={"DOCKER_HOST": f"unix://{tmp_path}/no.sock"})
    assert result.returncode == 3
    assert "dockerd" in result.stdout


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_images_list_shows_present_images() -> None:
    result = run_cli("images", "list")
    assert result.returncode == 0, result.stderr
    assert "tdd-sandbox/python:" in result.stdout
    assert "tdd-sandbox/rust:" in result.stdout
    assert "yes" in result.stdout
    rows = json.loads(run_cli("images", "list", "--json").stdout)
    assert {row["language"]: row["present"] for row in rows}["python"] is True


@pytest.mark.parametrize(
    "argv",
    [
        ("images", "build", "cobol"),
        ("run", "{kata}", "--language", "cobol"),
        ("step", "{kata}", "--language", "cobol"),
        ("gates", "{dir}", "--language", "cobol"),
        ("init", "{dir}/new", "--language", "cobol"),
    ],
    ids=lambda argv: argv[0],
)
def test_an_unknown_language_is_named_before_any_prerequisite(
    tmp_path: Path, argv: tuple[str, ...]
) -> None:
    # No Docker engine and no API key: the argument is still what the user hears about.
    kata = tmp_path / "kata.md"
    kata.write_text("# FizzBuzz\n\nSay fizz.\n", encoding="utf-8")
    args = [arg.format(kata=kata, dir=tmp_path) for arg in argv]
    env = {"DOCKER_HOST": f"unix://{tmp_path}/no.sock", "OPENAI_API_KEY": ""}
    result = run_cli(*args, env=env, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert "unknown language 'cobol'" in result.stderr
    assert "Traceback" not in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kata.md"]


@pytest.mark.parametrize("columns", ["80", "60"])
def test_doctor_prints_every_fix_whole_on_a_narrow_terminal(tmp_path: Path, columns: str) -> None:
    # In a table at 80 columns the fix column was cut ("roles.tester.api_key_…"): a fix that
    # cannot be read or copied whole is no fix.
    env = {"OPENAI_API_KEY": "", "DOCKER_HOST": f"unix://{tmp_path}/no.sock", "COLUMNS": columns}
    result = run_cli("doctor", env=env)
    assert result.returncode == 3
    assert "…" not in result.stdout
    flowed = " ".join(line.strip() for line in result.stdout.splitlines())
    assert "roles.tester.api_key_env" in flowed
    assert "OPENAI_API_KEY is not set" in flowed
    assert max(len(line) for line in result.stdout.splitlines()) <= int(columns)


def test_doctor_checks_a_bench_s_models_not_the_roles(tmp_path: Path) -> None:
    # A user about to bench two models was told of the roles' key, which the bench never
    # uses, and nothing of the bench models' endpoints.
    with FakeLLM({"qwen": []}) as fake:
        (tmp_path / "tdd.yaml").write_text(
            "bench:\n  models:\n    local:\n"
            f"      all: custom:qwen\n      base_url: {fake.base_url}\n"
        )
        env = {"OPENAI_API_KEY": "", "DEEPSEEK_API_KEY": "",
               "DOCKER_HOST": f"unix://{tmp_path}/x"}  # fmt: skip
        result = run_cli(
            "doctor", "--bench", "local,deepseek:deepseek-coder", "--json", env=env, cwd=tmp_path
        )
    checks = {check["name"]: check for check in json.loads(result.stdout)}
    assert result.returncode == 3
    assert "OPENAI_API_KEY" not in result.stdout
    assert "reachable" in checks["local: implementer endpoint"]["detail"]
    assert checks["local: tester endpoint"]["ok"]
    missing = checks["deepseek:deepseek-coder: implementer endpoint"]
    assert not missing["ok"]
    assert "DEEPSEEK_API_KEY" in missing["fix"]
    unknown = run_cli("doctor", "--bench", "nonsense", env=env, cwd=tmp_path)
    assert unknown.returncode == 2
    assert "neither provider:model nor a bench.models entry" in unknown.stderr
