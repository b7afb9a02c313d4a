from __future__ import annotations

from pathlib import Path

import pytest

from tdd_sandbox.errors import ConfigError
from tdd_sandbox.settings import load_settings, parse_memory


def test_defaults_without_any_source() -> None:
    settings = load_settings()
    assert settings.sandbox.timeout_s == 120
    assert settings.sandbox.memory == "1g"


def test_precedence_file_then_env_then_flags(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "tdd.yaml"
    config.write_text("sandbox: {timeout_s: 10, pids: 100, cpus: 0.5}\nlanguage: rust\n")
    monkeypatch.setenv("TDD_SANDBOX_SANDBOX__PIDS", "200")
    monkeypatch.setenv("TDD_SANDBOX_SANDBOX__CPUS", "1.5")
    settings = load_settings(config, {"sandbox": {"cpus": 2.0}, "language": None})
    assert settings.sandbox.timeout_s == 10  # file
    assert settings.sandbox.pids == 200  # env beats file
    assert settings.sandbox.cpus == 2.0  # flag beats env
    assert settings.language == "rust"  # a flag left unset keeps the file's value


def test_unknown_key_names_the_key(tmp_path: Path) -> None:
    config = tmp_path / "tdd.yaml"
    config.write_text("sandbox: {timeout: 10}\n")
    with pytest.raises(ConfigError, match=r"sandbox\.timeout .*unknown key"):
        load_settings(config)


def test_bad_value_names_the_key(tmp_path: Path) -> None:
    config = tmp_path / "tdd.yaml"
    config.write_text("sandbox: {memory: lots}\n")
    with pytest.raises(ConfigError, match=r"sandbox\.memory"):
        load_settings(config)


def test_broken_yaml_is_one_line(tmp_path: Path) -> None:
    config = tmp_path / "tdd.yaml"
    config.write_text("sandbox: {timeout_s: [\n")
    with pytest.raises(ConfigError, match="not valid YAML at line") as info:
        load_settings(config)
    assert "\n" not in str(info.value)


def test_missing_config_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_settings(tmp_path / "nope.yaml")


def test_secret_looking_sandbox_env_is_refused() -> None:
    with pytest.raises(ConfigError, match="OPENAI_API_KEY looks like a secret"):
        load_settings(overrides={"sandbox": {"env": {"OPENAI_API_KEY": "x"}}})


@pytest.mark.parametrize(
    ("text", "size"), [("512m", 512 * 1024**2), ("1g", 1024**3), ("1024", 1024), (7, 7)]
)
def test_parse_memory(text: str | int, size: int) -> None:
    assert parse_memory(text) == size


@pytest.mark.parametrize("text", ["", "lots", "-1m", "0"])
def test_parse_memory_rejects(text: str) -> None:
    with pytest.raises(ValueError):
        parse_memory(text)


def test_a_partial_role_keeps_its_other_defaults(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "tdd.yaml"
    config.write_text("roles: {tester: {temperature: 0.9}}\nsteps: 4\n")
    monkeypatch.setenv("TDD_SANDBOX_ROLES__IMPLEMENTER__MODEL", "ollama:qwen2.5-coder")
    settings = load_settings(config)
    assert settings.roles.tester.model == "openai:gpt-4.1-mini"
    assert settings.roles.tester.temperature == 0.9
    assert settings.roles.implementer.model == "ollama:qwen2.5-coder"
    assert settings.roles.implementer.temperature == 0.2
    assert settings.cycles == 4  # `steps` is the original name of `cycles`


def test_unknown_provider_is_named(tmp_path: Path) -> None:
    config = tmp_path / "tdd.yaml"
    config.write_text("roles: {tester: {model: 'acme:big'}}\n")
    with pytest.raises(ConfigError, match=r"roles\.tester\.model.*unknown provider 'acme'"):
        load_settings(config)


@pytest.mark.parametrize(
    "name",
    ["PYTEST_ADDOPTS", "PYTHONPATH", "PYTHONSTARTUP", "LD_PRELOAD", "RUSTFLAGS", "CARGO_HOME",
     "RUSTC_WRAPPER", "PATH", "HOME", "BASH_ENV", "NODE_OPTIONS", "GIT_DIR", "lower_case"],
)  # fmt: skip
def test_sandbox_env_is_an_allowlist(name: str) -> None:
    # Attack: `PYTEST_ADDOPTS=-p evil` or `RUSTC_WRAPPER` changes how the judge's runner runs.
    with pytest.raises(ConfigError, match=r"sandbox\.env"):
        load_settings(overrides={"sandbox": {"env": {name: "x"}}})


def test_sandbox_env_takes_the_kata_and_locale_variables() -> None:
    env = {"KATA_SEED": "1", "TZ": "UTC", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    assert load_settings(overrides={"sandbox": {"env": env}}).sandbox.env == env


def test_a_bad_environment_variable_is_named_not_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "tdd.yaml"
    config.write_text("cycles: 3\n")
    monkeypatch.setenv("TDD_SANDBOX_CYCLES", "ten")
    with pytest.raises(ConfigError) as info:
        load_settings(config)
    assert "environment variable TDD_SANDBOX_CYCLES" in str(info.value)
    assert str(config) not in str(info.value)
    monkeypatch.delenv("TDD_SANDBOX_CYCLES")
    monkeypatch.setenv("TDD_SANDBOX_SANDBOX__PIDS", "3")
    with pytest.raises(ConfigError, match="environment variable TDD_SANDBOX_SANDBOX__PIDS"):
        load_settings(config)


def test_a_bad_flag_is_named_as_a_flag(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="from the command line"):
        load_settings(None, {"cycles": 0})
    config = tmp_path / "tdd.yaml"
    config.write_text("cycles: -1\n")
    with pytest.raises(ConfigError, match=f"in {config}"):
        load_settings(config)
