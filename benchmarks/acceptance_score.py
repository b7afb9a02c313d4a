"""Acceptance scoring per job: the data-driven judge on every shipped kata's reference solution.

Prints, per language, the median seconds to score one job's final tree over N runs of every
kata (a warm sandbox from the pool, the driver shipped with the inputs, every case performed,
the results graded on the host), next to the figure the previous judge took on this machine
(running the hidden pytest / cargo test suite beside the model's tree, measured with this same
procedure just before it was replaced, issue #10): the target is at most 1.1x of it.

Usage: python benchmarks/acceptance_score.py [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tdd_sandbox.acceptance.scorer import run_acceptance
from tdd_sandbox.acceptance.suite import load_suite
from tdd_sandbox.execution.docker_checker import DockerChecker
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.settings import load_settings
from tests.helpers.solutions import SOLUTIONS

KATAS = Path(__file__).resolve().parents[1] / "katas"
PREVIOUS_S = {"python": 1.086, "rust": 4.180}
"""Median seconds per job of the judge before #10 (file suites run by pytest / cargo test)."""


def main() -> None:
    """Score every reference solution `--runs` times; print medians and ratios."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    with DockerChecker(load_settings(), run_id="bench-acceptance") as checker:
        for language in ("python", "rust"):
            plugin = get_language(language)
            checker.image_for(plugin)
            seconds = []
            for (kata, lang), (path, source) in sorted(SOLUTIONS.items()):
                if lang != language:
                    continue
                suite = load_suite(KATAS / kata)
                tree = {n: t.encode() for n, t in plugin.scaffold().items()}
                tree[path] = source.encode()
                for _ in range(runs):
                    started = time.monotonic()
                    report = run_acceptance(checker, plugin, tree, suite)
                    seconds.append(time.monotonic() - started)
                    assert report.rate == 1.0, report.why()
            median = statistics.median(seconds)
            print(
                f"{language}: {median:.3f} s per job (median of {len(seconds)}), previous judge "
                f"{PREVIOUS_S[language]:.3f} s, ratio {median / PREVIOUS_S[language]:.2f}"
            )


if __name__ == "__main__":
    main()
