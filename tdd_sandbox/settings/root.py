"""The `Settings` root and how it is loaded (the sources and their order: the package's
docstring)."""

from __future__ import annotations

import os
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import yaml
from pydantic import (
    Field,
    ValidationError,
    model_validator,
)
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from tdd_sandbox.errors import ConfigError
from tdd_sandbox.settings.forge import ForgeSettings
from tdd_sandbox.settings.models import (
    BenchSettings,
    CommitSettings,
    LlmSettings,
    Price,
    RolesSettings,
)
from tdd_sandbox.settings.sandbox import GateOverride, ImageSettings, SandboxSettings


class Settings(BaseSettings):
    """Root of the configuration."""

    model_config = SettingsConfigDict(
        env_prefix="TDD_SANDBOX_",
        env_nested_delimiter="__",
        extra="forbid",
        frozen=True,
        use_attribute_docstrings=True,
    )

    kata_description: str | None = None
    """The kata's markdown file, relative to the repo."""
    language: str | None = None
    """Language of the kata repo; detected from the repo when unset (else `DEFAULT_LANGUAGE`)."""
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
    forge: ForgeSettings = ForgeSettings()

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
