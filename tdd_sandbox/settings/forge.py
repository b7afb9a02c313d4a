"""Where a run's pull request is opened (`run --pr`)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from tdd_sandbox.settings.sandbox import Section

ForgeKind = Literal["github", "gitea"]
"""The pulls APIs the tool speaks: GitHub's, and Gitea's (Forgejo's is the same)."""


class ForgeSettings(Section):
    """The forge's REST API, the repository on it, and where its token is read from."""

    kind: ForgeKind = "github"
    """Which pulls API `api_url` speaks: `github`, or `gitea` (also Forgejo)."""
    api_url: str = "https://api.github.com"
    """The API's root: GitHub's, or a Gitea's `https://HOST/api/v1`."""
    repository: str | None = None
    """`owner/name` on the forge; read from the remote's URL when unset."""
    token_env: str = "GITHUB_TOKEN"  # noqa: S105 - a variable's name, not a token
    """The environment variable holding the token (the token itself is never a setting, so
    it never reaches a file, a log or a record)."""
    timeout_s: float = Field(30.0, gt=0, le=600)
    """Seconds one request may take."""
    max_retries: int = Field(3, ge=0, le=10)
    """Retries of a request the forge failed (5xx, 429, a timeout, no connection), with an
    exponential back-off."""
