"""The agents a run builds: each role's seed reaches the wire, and racing attempts draw
seeds of their own."""

from __future__ import annotations

from pathlib import Path

from tdd_sandbox.agents.team import build_team
from tdd_sandbox.llm.chat import ChatRequest
from tdd_sandbox.settings import load_settings
from tdd_sandbox.vocabulary.roles import Role
from tests.helpers.fake_llm import Answer, FakeLLM


def _ask(seed: int | None) -> ChatRequest:
    return ChatRequest(
        role="implementer", model="m", messages=[{"role": "user", "content": "hi"}],
        temperature=0.2, max_tokens=10, seed=seed,
    )  # fmt: skip


def test_a_role_s_seed_and_each_racer_s_own() -> None:
    with FakeLLM({"m": [Answer(text="a"), Answer(text="b"), Answer(text="c")]}) as fake:
        settings = load_settings(
            overrides={
                "llm": {"base_url": fake.base_url},
                "roles": {"implementer": {"model": "custom:m", "seed": 5}},
            }
        )
        team = build_team(settings)
        try:
            first, _ = team.variant(Role.IMPLEMENTER, 0, 3)
            second, _ = team.variant(Role.IMPLEMENTER, 1, 3)
            agents = [team[Role.IMPLEMENTER], first, second]
            seeds = [agent.seed for agent in agents]
            for agent in agents:
                agent.asker.backend.complete(_ask(agent.seed))
            sent = [request.get("seed") for request in fake.requests]
        finally:
            team.close()
    assert seeds == [5, 6, 7]
    assert sent == [5, 6, 7]
    # No seed configured: none is sent, and racers still differ.
    unseeded = build_team(load_settings(overrides={"llm": {"base_url": "http://127.0.0.1:1/v1"}}))
    try:
        assert unseeded[Role.IMPLEMENTER].seed is None
        assert [unseeded.variant(Role.IMPLEMENTER, i, 2)[0].seed for i in (0, 1)] == [1, 2]
    finally:
        unseeded.close()


def test_a_replayed_role_is_named_by_the_model_that_answers() -> None:
    # Replayed runs' lines named the configured model (openai:gpt-4.1-mini), which never ran.
    demo = Path(__file__).resolve().parents[2] / "katas" / "fizzbuzz" / "demo" / "python.jsonl"
    team = build_team(load_settings(), replay=demo)
    try:
        assert {role: team[role].said_model for role in Role} == {
            Role.TESTER: "scripted-tester", Role.IMPLEMENTER: "scripted-implementer",
            Role.REFACTORER: "scripted-refactorer",
        }  # fmt: skip
    finally:
        team.close()
