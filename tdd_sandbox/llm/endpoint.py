"""Where a role's requests go: base URL, API key and model name, from settings."""

from __future__ import annotations

import os
from dataclasses import dataclass

from tdd_sandbox.errors import ConfigError, PrerequisiteError
from tdd_sandbox.settings import PROVIDERS, LlmSettings, RoleSettings, Settings, split_model


@dataclass(frozen=True)
class Endpoint:
    """A resolved endpoint. `api_key` is never printed: its repr hides it."""

    provider: str
    base_url: str
    model: str
    api_key_env: str | None
    api_key: str = ""

    def __repr__(self) -> str:
        key = "set" if self.api_key else "unset"
        return f"Endpoint({self.provider}, {self.base_url}, {self.model}, key {key})"

    __str__ = __repr__


def resolve_endpoint(
    role: str, settings: RoleSettings, llm: LlmSettings, *, model: str | None = None
) -> Endpoint:
    """The endpoint for `role`: the role's own base URL and key variable beat `llm`'s, which
    beat the provider's defaults.

    Raises:
        ConfigError: a `custom` provider without a base URL.
        PrerequisiteError: the provider's hosted API needs a key, or a key variable was named,
            and the variable is unset.
    """
    provider, name = split_model(model or settings.model)
    default_url, default_key = PROVIDERS[provider]
    base_url = settings.base_url or llm.base_url or default_url
    if base_url is None:
        raise ConfigError(
            f"roles.{role}: provider custom needs a base_url "
            f"(set roles.{role}.base_url or llm.base_url)"
        )
    named = settings.api_key_env or llm.api_key_env
    key_env = named or default_key
    key = os.environ.get(key_env, "") if key_env else ""
    # A key is needed by a provider's own hosted API, and wherever the user named a variable.
    if not key and (named or (base_url == default_url and default_key is not None)):
        raise PrerequisiteError(
            f"{key_env} is not set: export it for roles.{role} ({provider}), "
            f"or set roles.{role}.api_key_env to the variable that holds the key"
        )
    return Endpoint(provider, base_url.rstrip("/"), name, key_env, key)


def check_endpoints(
    settings: Settings, roles: tuple[str, ...] = ("tester", "implementer", "refactorer")
) -> None:
    """Resolve every endpoint `roles` will call (each of a role's `models`), so that a missing
    base URL or key is said before anything runs, not inside the first request.

    Raises:
        ConfigError, PrerequisiteError: as `resolve_endpoint`.
    """
    for role in roles:
        role_settings: RoleSettings = getattr(settings.roles, role)
        for model in role_settings.models or [role_settings.model]:
            resolve_endpoint(role, role_settings, settings.llm, model=model)
