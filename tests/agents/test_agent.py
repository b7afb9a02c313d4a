"""A role's second try, as the wire sees it: a format that rewrites whole files asks afresh,
one that edits the code as it stands continues the conversation."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import pytest

from tdd_sandbox.agents.agent import Agent
from tdd_sandbox.agents.context import Situation, carried
from tdd_sandbox.agents.team import build_team
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.settings import load_settings
from tdd_sandbox.vocabulary.roles import Role
from tests.helpers.fake_llm import Answer, FakeLLM

# The 0.5B coder's first FizzBuzz, recorded (benchmarks/results/harness-fidelity): `% 3` is
# tested before `% 15`, so three cases fail. Shown this answer again with the failures, it
# rewrote it unchanged in 48 of 48 draws; asked afresh with the failures, it fixed it in 15
# of 16 (issue #44).
WRONG = (
    "fizzbuzz.py\n```python\ndef fizzbuzz(n: int) -> str:\n    if n % 3 == 0:\n"
    '        return "Fizz"\n    elif n % 5 == 0:\n        return "Buzz"\n'
    '    elif n % 3 == 0 and n % 5 == 0:\n        return "FizzBuzz"\n    else:\n'
    "        return str(n)\n```"
)
FAILED = (
    "10 of 13 tests passed.\n"
    "- multiples of fifteen > 15 is FizzBuzz: expected 'FizzBuzz', got 'Fizz'"
)
TASK = "Write the complete file fizzbuzz.py."


@contextmanager
def _implementer(edit_format: str, answers: int) -> Iterator[tuple[Agent, FakeLLM]]:
    """An implementer in `edit_format` behind a server that answers `answers` times WRONG."""
    with FakeLLM({"m": [Answer(text=WRONG) for _ in range(answers)]}) as fake:
        settings = load_settings(
            overrides={
                "llm": {"base_url": fake.base_url},
                "roles": {"implementer": {"model": "custom:m", "edit_format": edit_format}},
            }
        )
        team = build_team(settings)
        try:
            yield team[Role.IMPLEMENTER], fake
        finally:
            team.close()


def _two_tries(edit_format: str) -> list[list[dict[str, Any]]]:
    with _implementer(edit_format, 2) as (agent, fake):
        first = Situation(
            kata_text="# FizzBuzz\nFizz for 3, Buzz for 5.", kata_path="kata.md", files={},
            language=get_language("python"), task=TASK, target="fizzbuzz.py", solo=True,
        )  # fmt: skip
        _, exchange = agent.propose(first)
        code = WRONG.split("```python\n")[1].removesuffix("```").encode()
        retry = replace(
            first, files={"fizzbuzz.py": code}, focus=["fizzbuzz.py"],
            previous_error=FAILED, earlier=carried((), exchange),
        )  # fmt: skip
        agent.propose(retry)
        return [request["messages"] for request in fake.requests]


@pytest.mark.parametrize("edit_format", ["whole", "json"])
def test_a_whole_file_retry_asks_afresh_with_what_failed_and_not_the_wrong_file(
    edit_format: str,
) -> None:
    first, retry = _two_tries(edit_format)
    assert [m["role"] for m in retry] == ["system", "user"]
    asked = retry[1]["content"]
    # The first ask again, what failed before its task, and nothing of the wrong answer.
    story = first[1]["content"].rpartition("\n\n# Task\n")[0]
    assert asked == f"{story}\n\n# Your previous attempt failed\n{FAILED}\n\n# Task\n{TASK}"
    assert "n % 3 == 0 and n % 5 == 0" not in asked


def test_a_diff_retry_continues_the_conversation_on_the_code_as_it_stands() -> None:
    # A SEARCH block must quote the file: this format has to show it.
    first, retry = _two_tries("diff")
    assert [m["role"] for m in retry] == ["system", "user", "assistant", "user"]
    assert retry[1] == first[1]
    assert retry[2]["content"] == WRONG
    assert "## fizzbuzz.py (as it is now)" in retry[3]["content"]
    assert FAILED in retry[3]["content"]


STUB = b"def fizzbuzz(n: int) -> str:\n    pass\n"


def _asked(edit_format: str, files: dict[str, bytes]) -> list[dict[str, Any]]:
    """The messages of an implementer's first ask, working alone on fizzbuzz.py."""
    with _implementer(edit_format, 1) as (agent, fake):
        agent.propose(Situation(
            kata_text="# FizzBuzz\nFizz for 3, Buzz for 5.", kata_path="kata.md",
            files=files, language=get_language("python"), task="",
            writes=("fizzbuzz.py",), target="fizzbuzz.py", solo=True,
        ))  # fmt: skip
        (request,) = fake.requests
        return list(request["messages"])


@pytest.mark.parametrize("edit_format", ["whole", "json"])
def test_a_format_of_whole_files_is_asked_for_the_complete_file(edit_format: str) -> None:
    _, user = _asked(edit_format, {"fizzbuzz.py": STUB})
    assert user["content"].startswith(f"{TASK}\n\n")
    assert user["content"].endswith(f"\n\n# Task\n{TASK}")


def test_a_diff_answer_is_asked_for_edits_not_for_the_complete_file() -> None:
    # The implement mode's task said "Write the complete file" whatever the format: the
    # system message asked for SEARCH/REPLACE blocks and the user message for a whole file.
    # The 1.5B coder, so asked on acronym, wrote one block and repeated a line in it until
    # its 4,096 tokens ran out (the reach board, first `diff` sitting).
    system, user = _asked("diff", {"fizzbuzz.py": STUB})
    assert "SEARCH" in system["content"]
    assert "complete file" not in user["content"]
    assert user["content"].endswith("\n\n# Task\nEdit fizzbuzz.py to solve the kata.")


def test_a_file_still_to_write_is_asked_for_whole_in_diff_too() -> None:
    # No lines to quote: the diff format asks for the whole file, and so does the task.
    system, user = _asked("diff", {})
    assert "SEARCH" not in system["content"]
    assert user["content"].endswith(f"\n\n# Task\n{TASK}")
