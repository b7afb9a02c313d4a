"""benchmarks/loop_stop.py finds a board's looping answers of one model, and no others."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.loop_stop import loops

LOOP = "x.py\n```python\nx = 1\n" + "print(x)\nprint(x + 1)\n" * 200
FINE = "x.py\n```python\n" + "".join(f"X{n} = {n}\n" for n in range(400)) + "```\n"


def _transcript(job: Path, *exchanges: tuple[str, str]) -> None:
    job.mkdir(parents=True)
    lines = [{"format": "tdd-sandbox-transcript", "version": 1}] + [
        {"role": "implementer", "model": model, "messages": [], "reply": {"text": text}}
        for model, text in exchanges
    ]
    (job / "transcript.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))


def test_only_the_model_s_answers_that_end_in_a_loop_are_asked_again(tmp_path: Path) -> None:
    _transcript(tmp_path / "jobs" / "a", ("small", FINE), ("small", LOOP), ("big", LOOP))
    _transcript(tmp_path / "jobs" / "b", ("small", LOOP))
    found = loops(tmp_path, "small", tries=5)
    assert [(e["job"], e["reply"]["text"]) for e in found] == [("a", LOOP), ("b", LOOP)]
    assert len(loops(tmp_path, "small", tries=1)) == 1
