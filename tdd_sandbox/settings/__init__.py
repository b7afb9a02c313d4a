"""Configuration: one `Settings` root (`root.py`) with nested sections (`sandbox.py`,
`models.py`); each bound and default is declared once, on its field, and the CLI's options
read them from there (`cli/options.py`).

Sources, in rising precedence: a YAML file (`tdd.yaml` in the repo or `--config FILE`),
environment variables `TDD_SANDBOX_*` with `__` between nested keys, then CLI flags.
"""

from __future__ import annotations

from tdd_sandbox.settings.models import (
    BENCH_ENTRY_OPTIONS,
    PROVIDERS,
    BenchSettings,
    CommitSettings,
    LlmSettings,
    Price,
    RoleSettings,
    RolesSettings,
    split_model,
)
from tdd_sandbox.settings.root import (
    Settings,
    describe_validation_error,
    load_settings,
    read_config_file,
)
from tdd_sandbox.settings.sandbox import (
    DebianRelease,
    GateOverride,
    ImageSettings,
    SandboxSettings,
    Section,
    parse_memory,
)
from tdd_sandbox.vocabulary.defaults import DEFAULT_LANGUAGE

__all__ = [
    "BENCH_ENTRY_OPTIONS",
    "DEFAULT_LANGUAGE",
    "PROVIDERS",
    "BenchSettings",
    "CommitSettings",
    "DebianRelease",
    "GateOverride",
    "ImageSettings",
    "LlmSettings",
    "Price",
    "RoleSettings",
    "RolesSettings",
    "SandboxSettings",
    "Section",
    "Settings",
    "describe_validation_error",
    "load_settings",
    "parse_memory",
    "read_config_file",
    "split_model",
]
