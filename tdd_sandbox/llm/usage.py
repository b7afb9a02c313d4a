"""Tokens, time and cost per role."""

from __future__ import annotations

import threading
from dataclasses import dataclass

from tdd_sandbox.llm.chat import ChatReply
from tdd_sandbox.settings import Price


@dataclass
class RoleUsage:
    """What one role used."""

    requests: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    model_time_s: float = 0.0
    cost: float = 0.0

    @property
    def tokens(self) -> int:
        """Prompt plus completion tokens."""
        return self.prompt_tokens + self.completion_tokens


class UsageLedger:
    """Thread-safe tally of every reply, by role."""

    def __init__(self, pricing: dict[str, Price]) -> None:
        self._pricing = pricing
        self._by_role: dict[str, RoleUsage] = {}
        self._lock = threading.Lock()

    def add(self, role: str, model: str, reply: ChatReply) -> None:
        """Count one reply of `role` from `model` (`provider:model`, priced if listed)."""
        price = self._pricing.get(model)
        cost = 0.0
        if price is not None:
            cost = (
                reply.prompt_tokens * price.input_per_mtok
                + reply.completion_tokens * price.output_per_mtok
            ) / 1e6
        with self._lock:
            usage = self._by_role.setdefault(role, RoleUsage())
            usage.requests += 1
            usage.prompt_tokens += reply.prompt_tokens
            usage.completion_tokens += reply.completion_tokens
            usage.model_time_s += reply.duration_s
            usage.cost += cost

    def by_role(self) -> dict[str, RoleUsage]:
        """A copy of the per-role tallies."""
        with self._lock:
            return {role: RoleUsage(**vars(usage)) for role, usage in self._by_role.items()}

    def total(self) -> RoleUsage:
        """All roles together."""
        total = RoleUsage()
        for usage in self.by_role().values():
            total.requests += usage.requests
            total.prompt_tokens += usage.prompt_tokens
            total.completion_tokens += usage.completion_tokens
            total.model_time_s += usage.model_time_s
            total.cost += usage.cost
        return total
