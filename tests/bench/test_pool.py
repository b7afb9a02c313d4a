"""A bench you can watch: each finished job's line says how far the bench has got."""

from __future__ import annotations

import re
from pathlib import Path

from tdd_sandbox.bench.pool import Tally, clock


def test_each_line_says_n_of_m_what_is_lost_the_mean_so_far_and_the_time_left() -> None:
    tally = Tally(4)
    tally.started -= 60  # a minute in
    first = tally.add({"id": "a", "status": "completed", "acceptance_pass_rate": 0.5})
    assert first.startswith("[1/4] a: completed (acceptance 50%); 0 not scored, mean 50%")
    assert re.search(r"1m00s taken, about 3m00s left$", first)
    lost = tally.add({"id": "b", "status": "infrastructure", "acceptance_pass_rate": None})
    assert "[2/4] b: infrastructure (acceptance -); 1 not scored, mean 50% so far" in lost
    third = tally.add({"id": "c", "status": "completed", "acceptance_pass_rate": 1.0})
    assert "mean 75% so far" in third


def test_a_duration_reads_as_a_person_writes_it() -> None:
    assert [clock(s) for s in (5, 65, 3600 + 125)] == ["5s", "1m05s", "1h02m"]


def test_a_bench_keeps_every_progress_line_in_its_log(tmp_path: Path) -> None:
    from tdd_sandbox.bench.pipeline import LOG_FILE, _logged

    said: list[str] = []
    say = _logged(said.append, tmp_path / "out")
    say("3 jobs to run")
    say("[1/3] a: completed \x1b[2J")
    lines = (tmp_path / "out" / LOG_FILE).read_text().splitlines()
    assert said == ["3 jobs to run", "[1/3] a: completed \x1b[2J"]
    assert [line.split(" ", 2)[2] for line in lines] == [
        "3 jobs to run",
        "[1/3] a: completed \\x1b[2J",
    ]
    assert re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d ", lines[0])


def test_verbose_says_what_each_job_cost_and_why_it_scored_so() -> None:
    from tdd_sandbox.bench.pool import costs

    said = costs(
        {"tries": 2, "tokens": {"implementer": 6107, "tester": 10}, "model_time_s": 62.6,
         "gate_time_s": 0.3, "wall_time_s": 63.4, "tamper_events": 1,
         "reason": "14 failed; first: expected 'xbt'"}
    )  # fmt: skip
    assert said == (
        "2 tries, 6117 tokens, model 63s, gates 0s, wall 63s, tamper 1; "
        "14 failed; first: expected 'xbt'"
    )
