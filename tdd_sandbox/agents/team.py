"""Building the three agents from settings: live endpoints, or a transcript to replay."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tdd_sandbox.agents.agent import Agent
from tdd_sandbox.edits import Role
from tdd_sandbox.llm.chat import ChatBackend, ChatReply, ChatRequest
from tdd_sandbox.llm.client import OpenAIBackend
from tdd_sandbox.llm.endpoint import resolve_endpoint
from tdd_sandbox.llm.structured import PlanAsker
from tdd_sandbox.llm.transcript import Recorder, Replayer
from tdd_sandbox.llm.usage import UsageLedger
from tdd_sandbox.settings import Settings


class Router:
    """Sends each request to its role's backend."""

    def __init__(self, backends: dict[str, ChatBackend]) -> None:
        self.backends = backends

    def complete(self, request: ChatRequest) -> ChatReply:
        """Answer through the backend of `request.role`."""
        return self.backends[request.role].complete(request)


@dataclass
class Team:
    """The tester, implementer and refactorer of one run, sharing a usage ledger."""

    agents: dict[Role, Agent]
    ledger: UsageLedger
    _clients: list[OpenAIBackend] = field(default_factory=list)

    def __getitem__(self, role: Role) -> Agent:
        return self.agents[role]

    def models(self) -> dict[str, str]:
        """`provider:model` by role name."""
        return {role.value: agent.model for role, agent in self.agents.items()}

    def close(self) -> None:
        """Release HTTP connections."""
        for client in self._clients:
            client.close()


def build_team(
    settings: Settings,
    *,
    record: Path | None = None,
    replay: Path | None = None,
    header: dict[str, Any] | None = None,
) -> Team:
    """Agents for every role.

    Raises:
        ConfigError, PrerequisiteError: an endpoint is misconfigured or its key is missing.
        UsageError: the replay transcript is unusable.
    """
    ledger = UsageLedger(settings.pricing)
    clients: list[OpenAIBackend] = []
    backend: ChatBackend
    if replay is not None:
        backend = Replayer(replay)
    else:
        shared: dict[tuple[str, str | None], OpenAIBackend] = {}
        per_role: dict[str, ChatBackend] = {}
        for role in Role:
            role_settings = getattr(settings.roles, role.value)
            endpoint = resolve_endpoint(role.value, role_settings, settings.llm)
            key = (endpoint.base_url, endpoint.api_key_env)
            if key not in shared:
                shared[key] = OpenAIBackend(
                    endpoint, timeout_s=settings.llm.timeout_s, max_retries=settings.llm.max_retries
                )
                clients.append(shared[key])
            per_role[role.value] = shared[key]
        backend = Router(per_role)
    if record is not None:
        backend = Recorder(backend, record, header or {})
    agents = {}
    for role in Role:
        role_settings = getattr(settings.roles, role.value)
        agents[role] = Agent(
            role=role,
            model=role_settings.model,
            temperature=role_settings.temperature,
            max_tokens=settings.llm.max_tokens,
            context_chars=settings.llm.context_chars,
            asker=PlanAsker(backend),
            ledger=ledger,
        )
    return Team(agents, ledger, clients)
