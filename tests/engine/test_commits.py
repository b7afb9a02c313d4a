from __future__ import annotations

from tdd_sandbox.engine.commits import CommitFacts, compose, diff_summary, summary_line
from tdd_sandbox.grading.gates import GateReport


def test_summary_keeps_a_conventional_line_and_repairs_others() -> None:
    assert summary_line("feat", "k", "feat(k): add one\nbody") == "feat(k): add one"
    assert summary_line("feat", "k", "fix: off by one") == "fix: off by one"
    assert summary_line("feat", "k", "made it work") == "feat(k): made it work"
    assert summary_line("refactor", "k", "feat(k): sneaky") == "refactor(k): sneaky"
    assert summary_line("feat", "k", "") == "feat(k): advance the kata"
    assert len(summary_line("feat", "k", "feat: " + "x" * 200)) <= 72


def test_message_has_sections_and_trailers() -> None:
    message = compose(
        CommitFacts(
            kind="feat", scope="fizzbuzz", model_message="feat(fizzbuzz): fizz\x1b[31m",
            kata_title="FizzBuzz", cycle=3, run_id="r1",
            models={"tester": "openai:a", "implementer": "openai:b"},
            attempts={"tester": 1, "implementer": 2}, rationale="because",
            diff_summary="- M a.py (+1 -0)", report=GateReport("python", ()),
        )
    )  # fmt: skip
    for section in ("Context:", "Rationale:", "Diff summary:", "Verification:"):
        assert section in message
    assert "\x1b" not in message
    trailers = message.strip().splitlines()[-4:]
    assert trailers == [
        "TDD-Run: r1",
        "TDD-Cycle: 3",
        "TDD-Model: tester=openai:a, implementer=openai:b",
        "TDD-Attempts: tester=1, implementer=2",
    ]


def test_diff_summary() -> None:
    before = {"a.py": b"x\ny\n", "gone.py": b"g"}
    after = {"a.py": b"x\nz\n", "new.py": b"1\n2\n"}
    assert diff_summary(before, after).splitlines() == [
        "- M a.py (+1 -1)",
        "- D gone.py",
        "- A new.py (+2)",
    ]
