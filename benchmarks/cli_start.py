"""CLI start-up: seconds from exec to exit for `--help`, each command's `--help` and `status`.

Runs the installed `tdd-sandbox` console script (the one beside this interpreter, as a
user's virtualenv has it, not through a version manager's shim) several times per command
and prints the median, next to a bare `python -c pass` for the interpreter's own share.
`status` reads a finished run: one scripted FizzBuzz run on the fake checker made first.

Usage: python benchmarks/cli_start.py [--repeats 7]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tdd_sandbox.cli import COMMANDS  # noqa: E402
from tdd_sandbox.engine.session import run_kata  # noqa: E402
from tests.helpers.fake_llm import FakeLLM  # noqa: E402
from tests.helpers.katas import fake_fizzbuzz_script  # noqa: E402
from tests.helpers.runs import KATAS, scripted_settings  # noqa: E402

TARGET_S = 0.3


def seconds(argv: list[str], repeats: int) -> float:
    """Median wall time of `argv` over `repeats` runs (one unmeasured run first)."""
    times = []
    for index in range(repeats + 1):
        started = time.perf_counter()
        subprocess.run(argv, capture_output=True, check=False)
        if index:
            times.append(time.perf_counter() - started)
    return statistics.median(times)


def finished_run(scratch: Path) -> Path:
    """A repository holding one completed run, for `status` to read."""
    with FakeLLM(fake_fizzbuzz_script()) as fake:
        settings = scripted_settings(fake.base_url, "python", sandbox={"type": "fake"})
        summary = run_kata(KATAS / "fizzbuzz" / "kata.md", settings, repo_dir=scratch / "k")
    return Path(summary.repo)


def main() -> None:
    """Print the median start-up per command line, and whether it meets the target."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    script = str(Path(sys.executable).parent / "tdd-sandbox")
    with tempfile.TemporaryDirectory() as scratch:
        repo = finished_run(Path(scratch))
        lines: list[list[str]] = [[sys.executable, "-c", "pass"], [script, "--help"]]
        lines += [[script, name, "--help"] for name in sorted(COMMANDS)]
        lines.append([script, "status", "--repo", str(repo)])
        print(f"{'command':<40} {'median s':>9}  target {TARGET_S} s")
        for argv in lines:
            shown = " ".join(["python" if argv[0] == sys.executable else "tdd-sandbox", *argv[1:]])
            shown = shown.replace(str(repo), "REPO")
            took = seconds(argv, args.repeats)
            verdict = "" if argv[0] == sys.executable else ("ok" if took <= TARGET_S else "SLOW")
            print(f"{shown:<40} {took:>9.3f}  {verdict}")


if __name__ == "__main__":
    main()
