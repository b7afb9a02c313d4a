"""Where a run's pull request is opened (`run --pr`)."""

from __future__ import annotations

from pydantic import Field

from tdd_sandbox.settings.sandbox import Section


class ForgeSettings(Section):
    """The forge's REST API, the repository on it, and where its token is read from. GitHub,
    Gitea and Forgejo share the paths and fields a run uses, so the API's root is all that
    tells them apart."""

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
