"""Configuration: one `Settings` root with nested sections.

Sources, in rising precedence: a YAML file (`tdd.yaml` in the repo or `--config FILE`),
environment variables `TDD_SANDBOX_*` with `__` between nested keys, then CLI flags.
"""

from __future__ import annotations

import os
import re
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from tdd_sandbox.errors import ConfigError

_SANDBOX_ENV = re.compile(r"KATA_[A-Z0-9_]+|TZ|LANG|LANGUAGE|LC_[A-Z]+")
_MEMORY_UNITS = {"": 1, "b": 1, "k": 1024, "m": 1024**2, "g": 1024**3}


def parse_memory(value: str | int) -> int:
    """Turn `512m`, `1g` or a byte count into bytes.

    Raises:
        ValueError: the value is not a positive size.
    """
    if isinstance(value, int):
        size = value
    else:
        text = value.strip().lower()
        unit = text[-1] if text and text[-1] in _MEMORY_UNITS else ""
        number = text[: len(text) - len(unit)]
        try:
            size = int(float(number) * _MEMORY_UNITS[unit])
        except ValueError:
            raise ValueError(f"{value!r} is not a size; write e.g. 512m or 1g") from None
    if size <= 0:
        raise ValueError(f"{value!r} must be positive")
    return size


class Section(BaseModel):
    """Base of every nested section: unknown keys are an error, not silently ignored."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class SandboxSettings(Section):
    """Limits of every container a gate runs in."""

    type: Literal["docker", "fake"] = "docker"
    """Where gates run: `docker` (`DOCKER_HOST` selects a remote engine), or `fake`, which
    runs nothing and scripts every gate from marks in the files (for testing the engine and
    measuring its overhead; `bench` refuses it)."""
    fake_gate_s: float = Field(0.0, ge=0)
    """How long each gate check of the fake backend takes."""
    timeout_s: float = Field(120.0, gt=0)
    """Wall-clock limit of one gate command; past it the whole process tree is killed."""
    memory: str = "1g"
    """Memory limit, swap included (memory = memory+swap)."""
    cpus: float = Field(1.0, gt=0)
    """CPU share of one container."""
    pids: int = Field(256, ge=16)
    """Most processes and threads a container may hold (stops fork bombs)."""
    work_size: str = "256m"
    """Size of the tmpfs that holds the repository snapshot."""
    tmp_size: str = "512m"
    """Size of the tmpfs at /tmp (build outputs, test scratch)."""
    nofile: int = Field(1024, ge=64)
    """Open file limit."""
    fsize: str = "128m"
    """Largest file a process may write."""
    output_limit: str = "256k"
    """Output kept per stream; the middle of longer output is cut with a marker."""
    flood_limit: str = "16m"
    """Output past which a command is stopped as a flood."""
    env: dict[str, str] = Field(default_factory=dict)
    """Extra variables for the container: `KATA_*` for the kata's own code, `TZ`, `LANG`,
    `LANGUAGE`, `LC_*`. Only these reach it: never the host environment, never a variable
    that steers a toolchain (`PYTHON*`, `PYTEST_*`, `RUST*`, `CARGO*`, `LD_*`...)."""
    warm: int = Field(2, ge=0, le=16)
    """Fresh containers kept started ahead of need, so a gate costs little more than its
    command. Each serves one snapshot and is then destroyed: none is reused across attempts.
    Two, because the pool refills only when a sandbox closes (a start would compete with the
    command for the CPU) and a container takes ~0.4 s to start: with one, a check that
    follows another at once (a fast model, a replay, a second racer) waits for it."""

    @field_validator("memory", "work_size", "tmp_size", "fsize", "output_limit", "flood_limit")
    @classmethod
    def _check_size(cls, value: str) -> str:
        parse_memory(value)
        return value

    @field_validator("env")
    @classmethod
    def _check_env(cls, value: dict[str, str]) -> dict[str, str]:
        for name in value:
            if any(word in name.upper() for word in ("KEY", "TOKEN", "SECRET", "PASSWORD")):
                raise ValueError(f"{name} looks like a secret; secrets never enter the sandbox")
            # An allowlist, not a denylist: a variable read by a runner or compiler
            # (PYTEST_ADDOPTS, RUSTC_WRAPPER, LD_PRELOAD) would change how the judge runs.
            if not _SANDBOX_ENV.fullmatch(name):
                raise ValueError(
                    f"sandbox.env may not set {name}: only KATA_*, TZ, LANG, LANGUAGE and LC_* "
                    "variables reach the sandbox"
                )
        return value


DebianRelease = Literal["bookworm", "trixie"]
"""The Debian releases a sandbox image may build on (12 and 13)."""


class ImageSettings(Section):
    """Where sandbox images come from."""

    bases: dict[DebianRelease, str] = {}
    """The image to build on, by Debian release (`{trixie: mirror.local/debian:13}`); a
    release not named here builds on `debian:<release>-slim`. When that cannot be found or
    pulled, the image made by `tdd-sandbox images bootstrap` is used instead."""
    mirror: str = "http://deb.debian.org/debian"
    """Debian mirror for `images bootstrap`."""
    auto_build: bool = True
    """Build a missing language image on first use."""
    dir: Path | None = None
    """Folder holding `<language>/Dockerfile`, used in place of the language packs' own
    images (`tdd_sandbox/languages/<language>/image/`); unset: the packs' own."""
    ca_bundle: Path | None = Path("/etc/ssl/certs/ca-certificates.crt")
    """CA bundle handed to image builds so that pip works behind an intercepting proxy;
    skipped when the file does not exist."""


class GateOverride(Section):
    """Replacement commands for one language's gates; a missing key keeps the default."""

    format: list[str] | None = None
    lint: list[str] | None = None
    typecheck: list[str] | None = None
    build: list[str] | None = None
    test: list[str] | None = None


PROVIDERS: dict[str, tuple[str | None, str | None]] = {
    "openai": ("https://api.openai.com/v1", "OPENAI_API_KEY"),
    "deepseek": ("https://api.deepseek.com/v1", "DEEPSEEK_API_KEY"),
    "perplexity": ("https://api.perplexity.ai", "PERPLEXITY_API_KEY"),
    "iflow": ("https://apis.iflow.cn/v1", "IFLOW_API_KEY"),
    "ollama": ("http://localhost:11434/v1", None),
    "custom": (None, None),
}
"""Provider prefix -> (default base URL, default API key variable)."""


class LlmSettings(Section):
    """Defaults for every role's endpoint."""

    base_url: str | None = None
    """OpenAI-compatible endpoint for every role; default: the provider's own."""
    api_key_env: str | None = None
    """Environment variable holding the API key; default: the provider's (OPENAI_API_KEY...)."""
    timeout_s: float = Field(60.0, gt=0)
    """Seconds one request may take."""
    max_retries: int = Field(5, ge=0, le=20)
    """Retries on 429, 5xx, timeouts and connection errors before the run stops as an
    infrastructure error."""
    max_tokens: int = Field(4096, ge=64)
    """Most tokens a model may answer with."""
    context_chars: int = Field(24_000, ge=2_000)
    """Budget for the repository files in one prompt; files past it are listed by name."""

    @field_validator("base_url")
    @classmethod
    def _check_url(cls, value: str | None) -> str | None:
        return check_base_url(value)


def check_base_url(value: str | None) -> str | None:
    """An http(s) URL with a host, or None.

    Raises:
        ValueError: anything else (retrying a typo six times helps nobody).
    """
    if value is None:
        return value
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"base_url {value!r} is not an http(s) URL, e.g. http://127.0.0.1:8080/v1")
    return value


class RoleSettings(Section):
    """The model behind one role."""

    model: str
    """`provider:model`, e.g. `openai:gpt-4.1-mini`; providers: openai, deepseek, perplexity,
    iflow, ollama, custom (needs base_url)."""
    temperature: float = Field(0.2, ge=0, le=2)
    base_url: str | None = None
    """Overrides `llm.base_url` for this role."""
    api_key_env: str | None = None
    """Overrides `llm.api_key_env` for this role."""
    models: list[str] | None = None
    """Implementer only: several models to race against each other with --parallel."""
    edit_format: Literal["auto", "json", "whole", "tool"] = "auto"
    """How the model writes its edits: `json` (the edit-plan schema), `tool` (the schema as
    function-call arguments), `whole` (path lines and fenced whole files, best for small
    models), or `auto` (json where the endpoint supports structured output, else whole)."""

    @field_validator("model")
    @classmethod
    def _check_model(cls, value: str) -> str:
        split_model(value)
        return value

    @field_validator("base_url")
    @classmethod
    def _check_url(cls, value: str | None) -> str | None:
        return check_base_url(value)


def split_model(value: str) -> tuple[str, str]:
    """`provider:model` -> (provider, model).

    Raises:
        ValueError: the provider is unknown or the model name is empty.
    """
    provider, sep, name = value.partition(":")
    if not sep or not name:
        raise ValueError(f"{value!r} must be provider:model, e.g. openai:gpt-4.1-mini")
    if provider not in PROVIDERS:
        raise ValueError(f"unknown provider {provider!r}; use one of {', '.join(PROVIDERS)}")
    return provider, name


_ROLE_DEFAULTS: dict[str, dict[str, Any]] = {
    "tester": {"model": "openai:gpt-4.1-mini", "temperature": 0.4},
    "implementer": {"model": "openai:gpt-4.1-mini", "temperature": 0.2},
    "refactorer": {"model": "openai:gpt-4.1-mini", "temperature": 0.3},
}


class RolesSettings(Section):
    """One model per role."""

    tester: RoleSettings = RoleSettings(**_ROLE_DEFAULTS["tester"])
    implementer: RoleSettings = RoleSettings(**_ROLE_DEFAULTS["implementer"])
    refactorer: RoleSettings = RoleSettings(**_ROLE_DEFAULTS["refactorer"])

    @model_validator(mode="before")
    @classmethod
    def _fill_defaults(cls, data: Any) -> Any:
        # `roles: {tester: {temperature: 0.9}}` (or one env variable) changes that key only;
        # the rest of the role keeps its defaults instead of becoming required.
        if not isinstance(data, dict):
            return data
        return {
            role: {**_ROLE_DEFAULTS.get(role, {}), **value} if isinstance(value, dict) else value
            for role, value in data.items()
        }


class CommitSettings(Section):
    """Author of the commits a run makes."""

    author_name: str = "TDD Machine"
    author_email: str = "tdd@local"


class Price(Section):
    """What a model costs, in currency units per million tokens."""

    input_per_mtok: float = Field(ge=0)
    output_per_mtok: float = Field(ge=0)


BENCH_ENTRY_OPTIONS = ("edit_format", "base_url", "api_key_env")
"""Keys of a `bench.models` entry that apply to every role of that entry."""


class BenchSettings(Section):
    """Named model entries for `tdd-sandbox bench --models NAME,...`."""

    models: dict[str, str | dict[str, str]] = Field(default_factory=dict)
    """Each entry: one `provider:model` for every role, or one per role
    (`{tester: ..., implementer: ..., refactorer: ...}`, `all` for the rest), optionally with
    an `edit_format` (json, whole, tool, auto), a `base_url` and an `api_key_env` for every
    role, so entries served by different local servers can share one bench."""

    @field_validator("models")
    @classmethod
    def _check_models(
        cls, value: dict[str, str | dict[str, str]]
    ) -> dict[str, str | dict[str, str]]:
        for name, entry in value.items():
            roles = dict(entry) if isinstance(entry, dict) else {"all": entry}
            edit_format = roles.get("edit_format", "auto")
            if edit_format not in ("auto", "json", "whole", "tool"):
                raise ValueError(f"bench model {name!r}: unknown edit_format {edit_format!r}")
            for key in BENCH_ENTRY_OPTIONS:
                roles.pop(key, None)
            unknown = set(roles) - {"all", "tester", "implementer", "refactorer"}
            if unknown:
                raise ValueError(
                    f"bench model {name!r}: unknown keys {sorted(unknown)} (use all, tester, "
                    f"implementer, refactorer, {', '.join(BENCH_ENTRY_OPTIONS)})"
                )
            for model in roles.values():
                split_model(model)
        return value


class Settings(BaseSettings):
    """Root of the configuration."""

    model_config = SettingsConfigDict(
        env_prefix="TDD_SANDBOX_",
        env_nested_delimiter="__",
        extra="forbid",
        frozen=True,
    )

    kata_description: str | None = None
    """The kata's markdown file, relative to the repo."""
    language: str | None = None
    """Language of the kata repo; detected from the repo when unset."""
    cycles: int = Field(15, ge=1, le=500)
    """Most red-green-refactor cycles of one run (alias: steps)."""
    max_attempts_per_agent: int = Field(3, ge=1, le=20)
    """Attempts each role gets per phase, with the last error fed back each time."""
    parallel: int = Field(1, ge=1, le=16)
    """Implementer attempts raced at once, each in its own worktree and container."""
    parallel_refactor: int = Field(1, ge=1, le=16)
    """Refactorer attempts raced at once."""
    autoformat: bool = True
    """When a model's files fail the format gate, format the files it changed with the
    language's formatter (in the sandbox) and judge the result; off: they fail the gate."""
    llm: LlmSettings = LlmSettings()
    roles: RolesSettings = RolesSettings()
    commit: CommitSettings = CommitSettings()
    pricing: dict[str, Price] = Field(default_factory=dict)
    """Prices by `provider:model`, for the cost figures."""
    bench: BenchSettings = BenchSettings()
    sandbox: SandboxSettings = SandboxSettings()
    images: ImageSettings = ImageSettings()
    gates: dict[str, GateOverride] = Field(default_factory=dict)
    """Per-language command overrides, e.g. `gates: {python: {test: [...]}}`."""

    @model_validator(mode="before")
    @classmethod
    def _steps_alias(cls, data: Any) -> Any:
        # `steps` is the original design's name for `cycles`; both are accepted.
        if isinstance(data, dict) and "steps" in data:
            data = dict(data)
            steps = data.pop("steps")
            data.setdefault("cycles", steps)
        return data

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # First wins: CLI flags (init kwargs), then the environment, then the YAML file.
        return (init_settings, env_settings, _YamlFileSource(settings_cls))


# Which YAML file `Settings()` reads; a context variable so that concurrent loads
# (bench jobs in threads) never see each other's file.
_CONFIG_FILE: ContextVar[Path | None] = ContextVar("tdd_sandbox_config_file", default=None)


class _YamlFileSource(PydanticBaseSettingsSource):
    """The YAML config file named by `load_settings`."""

    def get_field_value(self, field: Any, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False  # unused: __call__ returns the whole mapping

    def __call__(self) -> dict[str, Any]:
        path = _CONFIG_FILE.get()
        return read_config_file(path) if path is not None else {}


def read_config_file(path: Path) -> dict[str, Any]:
    """Read a YAML config file into a mapping.

    Raises:
        ConfigError: the file is missing, unreadable or not a mapping.
    """
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"config file {path} does not exist: pass an existing --config") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read config file {path}: {exc}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise ConfigError(f"config file {path} is not valid YAML{where}: fix its syntax") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(
            f"config file {path} must hold a mapping of keys, not {type(data).__name__}"
        )
    return data


def load_settings(
    config_file: Path | None = None, overrides: dict[str, Any] | None = None
) -> Settings:
    """Build the settings from a YAML file, the environment and CLI overrides.

    `overrides` holds CLI flags as nested mappings; `None` values mean "not given".

    Raises:
        ConfigError: any source holds an invalid value; the message names the key.
    """
    token = _CONFIG_FILE.set(config_file)
    try:
        return Settings(**_drop_none(overrides or {}))
    except ValidationError as exc:
        raise ConfigError(describe_validation_error(exc, config_file, overrides or {})) from None
    finally:
        _CONFIG_FILE.reset(token)


def _drop_none(values: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in values.items():
        if isinstance(value, dict):
            value = _drop_none(value)
            if value:
                out[key] = value
        elif value is not None:
            out[key] = value
    return out


def describe_validation_error(
    exc: ValidationError, source: Path | None, overrides: dict[str, Any] | None = None
) -> str:
    """One line naming the first bad key, where it came from (an environment variable, a
    flag or the file) and what is wrong with it."""
    first = exc.errors()[0]
    parts = [str(part) for part in first["loc"]]
    key = ".".join(parts) or "(root)"
    message = first["msg"]
    if first["type"] == "extra_forbidden":
        message = "unknown key; check its spelling against the documented settings"
    more = len(exc.errors()) - 1
    tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
    return f"invalid setting {key}{_where(parts, source, overrides or {})}: {message}{tail}"


def _where(parts: list[str], source: Path | None, overrides: dict[str, Any]) -> str:
    """Which source set the key at `parts`, in the order they win."""
    value: Any = overrides
    for part in parts:
        value = value.get(part) if isinstance(value, dict) else None
    if value is not None:
        return " from the command line"
    for depth in range(len(parts), 0, -1):
        name = "TDD_SANDBOX_" + "__".join(parts[:depth]).upper()
        if name in os.environ:
            return f" in environment variable {name}"
    return f" in {source}" if source is not None else ""
