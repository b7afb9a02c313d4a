"""Scripted contestants for bench tests: a good model and a bad one, one cycle per kata."""

from __future__ import annotations

import subprocess
import sys

from tests.helpers.fake_llm import Answer, done, no_change, plan
from tests.helpers.solutions import SOLUTIONS

FIRST_TESTS = {
    "fizzbuzz": ("fizzbuzz", 'def test_one() -> None:\n    assert fizzbuzz(1) == "1"\n'),
    "roman-numerals": ("roman", 'def test_one() -> None:\n    assert to_roman(1) == "I"\n'),
    "string-calculator": ("calculator", 'def test_empty() -> None:\n    assert add("") == 0\n'),
}
FUNCTIONS = {"fizzbuzz": "fizzbuzz", "roman-numerals": "to_roman", "string-calculator": "add"}
BAD = {
    "fizzbuzz": 'def fizzbuzz(n: int) -> str:\n    return "1"\n',
    "roman-numerals": 'def to_roman(n: int) -> str:\n    return "I"\n',
    "string-calculator": "def add(numbers: str) -> int:\n    return 0\n",
}


def formatted(source: str) -> str:
    """`source` as `ruff format` writes it (the sandbox's format gate insists)."""
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "-"],
        input=source, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return result.stdout


def kata_answers(kata: str, *, good: bool) -> tuple[list[Answer], list[Answer], list[Answer]]:
    """Tester, implementer and refactorer answers for one job of `kata` (Python)."""
    module, test = FIRST_TESTS[kata]
    test_file = f"from {module} import {FUNCTIONS[kata]}\n\n\n{test}"
    path, solution = SOLUTIONS[(kata, "python")]
    code = formatted(solution) if good else BAD[kata]
    return (
        [plan((f"tests/test_{module}.py", test_file), message=f"test({kata}): first"), done()],
        [plan((path, code), message=f"feat({kata}): solve")],
        [no_change()],
    )


def bench_script(
    prefix: str, katas: list[str], repeats: int, *, good: bool
) -> dict[str, list[Answer]]:
    """A model's answers for every job in the order a sequential bench runs them (sorted job
    ids: kata, then repeat)."""
    script: dict[str, list[Answer]] = {
        f"{prefix}-tester": [],
        f"{prefix}-impl": [],
        f"{prefix}-ref": [],
    }
    for kata in sorted(katas):
        for _ in range(repeats):
            tester, implementer, refactorer = kata_answers(kata, good=good)
            script[f"{prefix}-tester"] += tester
            script[f"{prefix}-impl"] += implementer
            script[f"{prefix}-ref"] += refactorer
    return script
