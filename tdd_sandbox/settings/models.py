"""The sections about models: the endpoint, each role's model, commits, prices and the
bench's entries."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from pydantic import (
    Field,
    field_validator,
    model_validator,
)

from tdd_sandbox.settings.sandbox import Section
from tdd_sandbox.vocabulary.defaults import Executor
from tdd_sandbox.vocabulary.formats import EditFormat

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
    stop_repeating: bool = True
    """Stop an answer, as it streams, once its last 2,000 characters are one stretch repeated
    (a small model's loop), and judge it as one the token limit cut; false asks for each
    answer in one piece and reads it to its end (for a server that cannot stream)."""

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
    """Sampling temperature of the role's requests (the defaults: tester 0.4, implementer 0.2,
    refactorer 0.3)."""
    base_url: str | None = None
    """Overrides `llm.base_url` for this role."""
    api_key_env: str | None = None
    """Overrides `llm.api_key_env` for this role."""
    models: list[str] | None = None
    """Implementer only: several models to race against each other with --parallel."""
    seed: int | None = Field(None, ge=0)
    """Sent with every request of the role, to a server that samples with it (llama.cpp,
    vLLM; OpenAI on a best-effort basis). Racing attempts add their index to it. None sends
    no seed."""
    edit_format: EditFormat = EditFormat.AUTO
    """How the model writes its edits: `whole` (path lines and fenced whole files, best for
    small models), `diff` (SEARCH/REPLACE blocks, for long files), `json` (the edit-plan
    schema), `tool` (the schema as function-call arguments), or `auto` (`whole`, and `diff`
    where the file to change has 200 lines or more)."""

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
    """The name on each commit (the models are named in its trailers)."""
    author_email: str = "tdd@local"
    """The email address on each commit."""


class Price(Section):
    """What a model costs, in currency units per million tokens."""

    input_per_mtok: float = Field(ge=0)
    output_per_mtok: float = Field(ge=0)


BENCH_ENTRY_OPTIONS = ("edit_format", "base_url", "api_key_env")
"""Keys of a `bench.models` entry that apply to every role of that entry."""


class BenchSettings(Section):
    """Named model entries for `tdd-sandbox bench --models NAME,...`, and where its jobs run."""

    executor: Executor = "local"
    """Where jobs run: `local`, in this process against this machine's (or `DOCKER_HOST`'s)
    engine; `ray`, each job a task on a Ray cluster's node that offers a `docker` resource
    (`ray start --resources '{"docker": 4}'` on each node with an engine: four jobs at once
    there), results and journals sent back here."""
    ray_address: str = "auto"
    """The cluster `ray` jobs run on: `auto` (the one `ray start` runs here), or an address
    (`ray://head:10001`, `10.0.0.5:6379`)."""
    ray_retries: int = Field(2, ge=0, le=10)
    """Times a job lost with its node (the node died, its worker was killed) runs again
    elsewhere; past them it is recorded as lost to infrastructure, never scored."""

    seed: int | None = Field(None, ge=0)
    """Repeat r of every job sends seed `seed + r - 1` with each request (see
    `roles.*.seed`): two harnesses are sampled with the same seeds, and a rerun asks with them
    again. None leaves every role's own seed."""

    models: dict[str, str | dict[str, str]] = Field(default_factory=dict)
    """Each entry: one `provider:model` for every role, or one per role
    (`{tester: ..., implementer: ..., refactorer: ...}`, `all` for the rest), optionally with
    an `edit_format` (auto, whole, diff, json, tool), a `base_url` and an `api_key_env` for every
    role, so entries served by different local servers can share one bench."""

    @field_validator("models")
    @classmethod
    def _check_models(
        cls, value: dict[str, str | dict[str, str]]
    ) -> dict[str, str | dict[str, str]]:
        for name, entry in value.items():
            roles = dict(entry) if isinstance(entry, dict) else {"all": entry}
            edit_format = roles.get("edit_format", "auto")
            if edit_format not in list(EditFormat):
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
