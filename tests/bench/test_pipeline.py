"""What a bench says when its own settings, not the models, ended answers."""

from __future__ import annotations

from typing import Any

from tdd_sandbox.bench.pipeline import cut_at_limit


def test_answers_cut_at_the_token_limit_are_said_with_the_setting_to_raise() -> None:
    results: list[dict[str, Any]] = [
        {"id": "a", "rejections_by_kind": {"truncated": 2, "not_green": 1}},
        {"id": "b", "rejections_by_kind": {"truncated": 1}},
        {"id": "c", "rejections_by_kind": {}},
        {"id": "d", "status": "infrastructure"},
    ]
    said = cut_at_limit(results, 1024)
    assert said is not None
    assert said.startswith("warning: 3 answers in 2 jobs ended at llm.max_tokens (1024)")
    assert "raise llm.max_tokens" in said


def test_a_bench_whose_answers_all_ended_by_themselves_says_nothing() -> None:
    assert cut_at_limit([{"id": "a", "rejections_by_kind": {"not_green": 2}}], 1024) is None
