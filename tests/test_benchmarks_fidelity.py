"""What the fidelity and aider-parity benchmarks read and send (`benchmarks/harness_fidelity.py`,
`benchmarks/aider_parity.py`): the plain prompt is the kata, its tests and the file wanted;
a plain answer's file is its first fenced block; aider's last pytest run is read as it keeps
it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.aider_parity import _cases, readme
from benchmarks.harness_fidelity import earlier_plain, plain_file, plain_prompt
from tdd_sandbox.bench.implement import prepare
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.llm.chat import ChatReply

ROOT = Path(__file__).resolve().parents[1]


def test_the_plain_prompt_asks_as_a_person_would() -> None:
    piece = prepare(ROOT / "katas" / "roman-numerals", get_language("python"))
    system, user = plain_prompt(piece)
    assert system["content"] == "You are an expert Python programmer."
    assert user["content"].startswith("# Roman")
    assert "to_roman" in user["content"]  # the cases, written out as the judge calls them
    assert user["content"].rstrip().endswith("Write the complete file roman.py.")


def test_a_plain_answer_is_its_first_block_or_all_of_it() -> None:
    answer = "Here:\n```python\ndef f() -> int:\n    return 1\n```\nand a test:\n```\nx\n```"
    assert plain_file(ChatReply(text=answer)) == "def f() -> int:\n    return 1\n"
    assert plain_file(ChatReply(text="def f(): pass")) == "def f(): pass"
    # Cut off by the token limit: read as the tool's formats read it, up to its last line.
    runaway = "```python\ndef f() -> int:\n    return 1\nprint(f("
    assert plain_file(ChatReply(text=runaway, finish_reason="length")) == (
        "def f() -> int:\n    return 1\n"
    )


def test_aider_s_last_pytest_run_is_read_without_its_timing(tmp_path: Path) -> None:
    (tmp_path / "list_ops_test.py").write_text(
        "def test_a():\n    pass\n\n\ndef test_b():\n    pass\n\n\ndef test_c():\n    pass\n"
    )
    # The harness strips "in 0.12s" from what it keeps of each run.
    history = (
        "```\n========= 3 failed  =========\n```\n"
        "```\nFAILED list_ops_test.py::test_c\n========= 1 failed, 2 passed  =========\n```"
    )
    assert _cases(history, tmp_path) == {"passed": 2, "total": 3}
    assert _cases("no run", tmp_path) == {"passed": 0, "total": 3}


def test_the_parity_page_puts_both_harnesses_side_by_side_and_marks_what_one_did_not_run() -> None:
    results = {
        "model": "m", "exercises": ["a", "b"],
        "settings": {"edit_format": "whole", "tries": 2, "temperature": 0, "max_tokens": 1024},
        "aider": {"summary": {"pass_rate_1": 0.5, "pass_rate_2": 0.5, "cases_passed": 13,
                              "cases_total": 20},
                  "rows": {"a": {"passed": 10, "total": 10}, "b": {"passed": 3, "total": 10}}},
        "ours": {"summary": {"pass_rate_1": 0, "pass_rate_2": 0.5, "cases_passed": 10,
                             "cases_total": 10},
                 "rows": {"a": {"passed": 10, "total": 10}}},
    }  # fmt: skip
    page = readme(results)
    assert "| aider | 50% | 50% | 13/20 |" in page
    assert "| ours | 0% | 50% | 10/10 |" in page
    assert "| b | 3/10 | - |" in page


def test_an_earlier_plain_baseline_must_hold_every_kata_and_repeat(tmp_path: Path) -> None:
    rows = [{"kata": "fizzbuzz", "repeat": r, "passed": r, "total": 13} for r in (1, 2, 3)]
    path = tmp_path / "plain.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    katas = [ROOT / "katas" / "fizzbuzz"]
    assert [row["repeat"] for row in earlier_plain(path, katas, 2)] == [1, 2]
    with pytest.raises(SystemExit, match="does not hold every kata and repeat"):
        earlier_plain(path, katas, 4)
    with pytest.raises(SystemExit, match="does not hold"):
        earlier_plain(path, [*katas, ROOT / "katas" / "bowling"], 1)
