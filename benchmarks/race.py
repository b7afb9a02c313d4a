"""Racing implementers: time to green, cancellation, and worktree cost.

1. Scripted answers in the order the model is asked: wrong after 2 s, wrong after 2 s,
   correct after 1 s. Time to green (the green phase, from its first request to the winning
   verdict) with --parallel 3 against --parallel 1; target ratio <= 0.4, the ideal being
   (1 + g) / (5 + 3g) for a gate time g.
2. Time from the winner's green to the last loser's container gone, with losers that are
   still inside their test gate when the winner lands (target <= 0.5 s).
3. Worktree create + remove for a repo of 5,000 files with 2,000 commits, against the same
   files in a single commit: the cost should not grow with history.

Usage: python benchmarks/race.py
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tdd_sandbox.repo.hardened import HardenedRepo  # noqa: E402
from tdd_sandbox.repo.worktrees import create_worktree, remove_worktree  # noqa: E402
from tests.helpers.fake_llm import Answer, done, no_change, plan  # noqa: E402
from tests.helpers.katas import PY_IMPLS, python_test_file  # noqa: E402
from tests.helpers.runs import run_scripted  # noqa: E402

WRONG = 'def fizzbuzz(n: int) -> str:\n    return "no"\n'
HANGS = "def fizzbuzz(n: int) -> str:\n    while True:\n        pass\n"


def _impl(source: str, delay: float) -> Answer:
    answer = plan(("fizzbuzz.py", source))
    answer.delay_s = delay
    return answer


def _green_races(parallel: int, answers: list[Answer]) -> list[dict[str, Any]]:
    script = {
        "tester": [plan(("tests/test_fizzbuzz.py", python_test_file(1))), done()],
        "implementer": answers,
        "refactorer": [no_change()],
    }
    with tempfile.TemporaryDirectory() as scratch:
        summary, _ = run_scripted(
            Path(scratch) / "k", "python", script, parallel=parallel, sandbox={"timeout_s": 300}
        )
        assert summary.status == "completed", summary.reason
        log = next((Path(scratch) / "k" / ".tdd" / "runs").glob("*/log.jsonl"))
        events = [json.loads(line) for line in log.read_text().splitlines()]
    return [e for e in events if e["event"] == "race" and e["phase"] == "green"]


def time_to_green(parallel: int) -> tuple[float, float]:
    """Seconds of the green phase, and the cancellation seconds of its winning race."""
    answers = [_impl(WRONG, 2.0), _impl(WRONG, 2.0), _impl(PY_IMPLS[0], 1.0)]
    races = _green_races(parallel, answers)
    return sum(r["seconds"] for r in races), races[-1]["cancel_s"]


def cancel_with_losers_in_gates() -> float:
    """Cancellation seconds when both losers are inside a test gate that never ends."""
    answers = [_impl(HANGS, 0.0), _impl(HANGS, 0.0), _impl(PY_IMPLS[0], 1.5)]
    return float(_green_races(3, answers)[-1]["cancel_s"])


def make_repo(path: Path, files: int, commits: int) -> Path:
    """A repo of `files` files whose history has `commits` commits (via fast-import)."""
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    stream = []
    mark_time = 1_700_000_000
    for commit in range(commits):
        stream.append("commit refs/heads/main")
        stream.append(f"committer B <b@x> {mark_time + commit} +0000")
        message = f"commit {commit}"
        stream.append(f"data {len(message)}\n{message}")
        paths = range(files) if commit == 0 else [commit % files]
        for index in paths:
            body = f"file {index} version {commit}\n"
            stream.append(f"M 644 inline src/d{index % 50}/f{index}.txt\ndata {len(body)}\n{body}")
        stream.append("")
    subprocess.run(
        ["git", "-C", str(path), "fast-import", "--quiet"],
        input="\n".join(stream).encode(),
        check=True,
    )
    subprocess.run(["git", "-C", str(path), "checkout", "-q", "main"], check=True)
    return path


def worktree_cost(path: Path, runs: int = 10) -> float:
    """Median seconds to create and remove one attempt worktree."""
    repo = HardenedRepo(path)
    times = []
    for index in range(runs):
        started = time.perf_counter()
        worktree = create_worktree(repo, "20260101-000000-aaaaaa", 1, "green", index)
        remove_worktree(repo, worktree)
        times.append(time.perf_counter() - started)
    repo.close()
    return statistics.median(times)


def main() -> None:
    sequential, _ = time_to_green(1)
    parallel, cancel = time_to_green(3)
    print("time to green (wrong 2 s, wrong 2 s, correct 1 s)")
    print(f"  --parallel 1: {sequential:.2f} s")
    print(f"  --parallel 3: {parallel:.2f} s  ratio {parallel / sequential:.2f} (target <= 0.40)")
    print(f"  cancellation in that race: {cancel:.3f} s (losers were still waiting on the model)")
    gone = cancel_with_losers_in_gates()
    print(f"winner's green to the losers' containers gone (losers in gates): {gone:.3f} s")
    with tempfile.TemporaryDirectory() as scratch:
        deep = worktree_cost(make_repo(Path(scratch) / "deep", 5000, 2000))
        flat = worktree_cost(make_repo(Path(scratch) / "flat", 5000, 1))
    print("worktree create + remove, 5,000 files")
    print(f"  2,000 commits: {deep:.3f} s   1 commit: {flat:.3f} s")


if __name__ == "__main__":
    main()
