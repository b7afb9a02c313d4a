"""The chat exchange every backend speaks: a request, a reply, and the backend protocol."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from tdd_sandbox.errors import TddSandboxError
from tdd_sandbox.llm.stream import REPEATING


class InfrastructureError(TddSandboxError, ConnectionError):
    """The endpoint could not be used (down, rate-limited past every retry, refusing the key).

    Never a model failure: a run that meets it stops with status `error`, and a bench job is
    recorded as lost to infrastructure.
    """

    exit_code = 6


class FormatUnsupported(TddSandboxError):
    """The endpoint refused the requested `response_format` or tools; the caller falls back."""


@dataclass(frozen=True)
class ChatRequest:
    """One completion request."""

    role: str
    """The agent asking (tester, implementer, refactorer): for logs and replay."""
    model: str
    """The name sent to the endpoint (provider prefix stripped)."""
    messages: list[dict[str, str]]
    temperature: float
    max_tokens: int
    response_format: dict[str, Any] | None = None
    seed: int | None = None
    tools: list[dict[str, Any]] | None = None
    """Function-calling tools (the `tool` edit format)."""
    tool_choice: dict[str, Any] | None = None


@dataclass(frozen=True)
class ChatReply:
    """One completion."""

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    finish_reason: str = "stop"
    duration_s: float = 0.0
    tool_arguments: str | None = None
    """The arguments of the first tool call, when the model answered with one."""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def cut(self) -> bool:
        """Whether the answer was cut short: by the token limit, or stopped for repeating
        itself (`llm.stream`). What it wrote before is judged as it stands."""
        return self.finish_reason in ("length", REPEATING)


class ChatBackend(Protocol):
    """Anything that answers chat requests: a live endpoint, a transcript."""

    def complete(self, request: ChatRequest) -> ChatReply:
        """Answer one request.

        Raises:
            InfrastructureError: the endpoint is unusable after every retry.
            FormatUnsupported: the endpoint refused `request.response_format`.
        """
        ...
