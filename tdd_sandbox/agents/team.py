"""Building agents from settings: live endpoints or a transcript, recorded or not.

A race needs one agent per attempt, each varied (temperature and seed, or a different model
from `roles.implementer.models`) and each with its own HTTP client, so that a lost attempt's
request can be abandoned by closing that client alone.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tdd_sandbox.agents.agent import Agent
from tdd_sandbox.llm.chat import ChatBackend
from tdd_sandbox.llm.client import OpenAIBackend
from tdd_sandbox.llm.endpoint import check_endpoints, resolve_endpoint
from tdd_sandbox.llm.formats import EditFormat
from tdd_sandbox.llm.structured import PlanAsker
from tdd_sandbox.llm.transcript import Recorder, Replayer, TranscriptWriter
from tdd_sandbox.llm.usage import UsageLedger
from tdd_sandbox.settings import RoleSettings, Settings
from tdd_sandbox.vocabulary.roles import Role

TEMPERATURE_STEP = 0.2


def _nothing() -> None:
    return None


class Team:
    """The agents of one run, sharing a usage ledger."""

    def __init__(
        self,
        settings: Settings,
        *,
        record: Path | None = None,
        replay: Path | None = None,
        header: dict[str, Any] | None = None,
        notify: Callable[[str], None] | None = None,
    ) -> None:
        """Check every endpoint (and key) up front, then make one agent per role. `notify`
        hears of every retried request as it happens.

        Raises:
            ConfigError, PrerequisiteError: an endpoint is misconfigured or its key is missing.
            UsageError: the replay transcript is unusable.
        """
        self.settings = settings
        self._notify = notify
        self.ledger = UsageLedger(settings.pricing)
        self._replayer = Replayer(replay) if replay is not None else None
        self._writer = TranscriptWriter(record, header or {}) if record is not None else None
        self._clients: list[OpenAIBackend] = []
        self._lock = threading.Lock()
        if self._replayer is None:
            check_endpoints(settings)
        self.agents: dict[Role, Agent] = {}
        for role in Role:
            self.agents[role] = self._agent(role, self._role(role).model, None, None)[0]

    def _role(self, role: Role) -> RoleSettings:
        settings: RoleSettings = getattr(self.settings.roles, role.value)
        return settings

    def _models(self, role: Role) -> list[str]:
        settings = self._role(role)
        return list(settings.models or [settings.model])

    def _agent(
        self, role: Role, model: str, temperature: float | None, seed: int | None
    ) -> tuple[Agent, Callable[[], None]]:
        settings = self._role(role)
        closer: Callable[[], None] = _nothing
        backend: ChatBackend
        answers_as = ""
        if self._replayer is not None:
            backend = self._replayer
            # Lines name the model that answers: the recorded one, never the configured one.
            answers_as = self._replayer.models.get(role.value, "")
        else:
            endpoint = resolve_endpoint(role.value, settings, self.settings.llm, model=model)
            client = OpenAIBackend(
                endpoint,
                timeout_s=self.settings.llm.timeout_s,
                max_retries=self.settings.llm.max_retries,
                notify=self._notify,
                stop_repeating=self.settings.llm.stop_repeating,
            )
            with self._lock:
                self._clients.append(client)
            backend, closer = client, client.close
        if self._writer is not None:
            backend = Recorder(backend, self._writer)
        agent = Agent(
            role=role,
            model=model,
            temperature=settings.temperature if temperature is None else temperature,
            max_tokens=self.settings.llm.max_tokens,
            context_chars=self.settings.llm.context_chars,
            asker=PlanAsker(backend, EditFormat(settings.edit_format)),
            ledger=self.ledger,
            seed=seed if seed is not None else settings.seed,
            answers_as=answers_as,
        )
        return agent, closer

    def __getitem__(self, role: Role) -> Agent:
        return self.agents[role]

    def variant(self, role: Role, index: int, count: int) -> tuple[Agent, Callable[[], None]]:
        """The agent for attempt `index` of `count` racing ones, and how to abandon its
        request. With several models configured they take turns; with one, each attempt gets
        a higher temperature and its own seed."""
        if count <= 1:
            return self.agents[role], _nothing
        models = self._models(role)
        model = models[index % len(models)]
        base = self._role(role).temperature
        temperature = base if len(models) > 1 else min(2.0, base + TEMPERATURE_STEP * index)
        return self._agent(role, model, temperature, seed=(self._role(role).seed or 0) + index + 1)

    def models(self) -> dict[str, str]:
        """`provider:model` by role name; when replaying, the model each role was recorded
        with (the configured one never answered)."""
        recorded = self._replayer.models if self._replayer is not None else {}
        return {role.value: recorded.get(role.value, agent.model) for role, agent in
                self.agents.items()}  # fmt: skip

    def close(self) -> None:
        """Release every HTTP connection."""
        with self._lock:
            clients, self._clients = self._clients, []
        for client in clients:
            client.close()


def build_team(
    settings: Settings,
    *,
    record: Path | None = None,
    replay: Path | None = None,
    header: dict[str, Any] | None = None,
    notify: Callable[[str], None] | None = None,
) -> Team:
    """The agents of a run (see `Team`)."""
    return Team(settings, record=record, replay=replay, header=header, notify=notify)
