"""Test mode's cost: mutants per kata and seconds per mutant, per language, measured on a folder
of imported katas (their references mutated, their track's tests as the tests measured).

For each of the first --count katas with a reference in a language, it makes the mutants,
runs the hidden suite on each (dropping the equivalent and the stillborn) and the tests on
the rest, as `bench --mode test` does for one job, and prints per language: mutants made and
counted per kata, the track tests' mutation score, and seconds per mutant.

Usage: python benchmarks/mutants.py KATAS [--count 3] [--languages python,go,...]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tdd_sandbox.acceptance.suite import has_reference
from tdd_sandbox.acceptance.testfiles import hidden_test_files
from tdd_sandbox.bench.jobs import find_katas
from tdd_sandbox.bench.mutation import kill_mutants
from tdd_sandbox.execution.docker_checker import DockerChecker
from tdd_sandbox.languages.registry import LANGUAGES, get_language
from tdd_sandbox.settings import load_settings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("katas", type=Path)
    parser.add_argument("--count", type=int, default=3)
    parser.add_argument("--languages", default=",".join(LANGUAGES))
    args = parser.parse_args()
    katas = find_katas(args.katas)
    print(f"{'language':<12}{'katas':>6}{'mutants/kata':>14}{'counted/kata':>14}"
          f"{'score':>8}{'s/mutant':>10}")  # fmt: skip
    with DockerChecker(load_settings()) as checker:
        for name in args.languages.split(","):
            language = get_language(name)
            chosen = [k for k in katas if has_reference(k, name)][: args.count]
            made, counted, scores, per_mutant = [], [], [], []
            for kata in chosen:
                tests = {
                    p: language.hidden_test(p, d)
                    for p, d in hidden_test_files(kata, language).items()
                }
                started = time.perf_counter()
                figures = kill_mutants(checker, language, kata, tests)
                seconds = time.perf_counter() - started
                made.append(figures["mutants"])
                counted.append(figures["mutants_counted"])
                if figures["mutation_score"] is not None:
                    scores.append(figures["mutation_score"])
                per_mutant.append(seconds / max(1, figures["mutants"]))
            if not chosen:
                print(f"{name:<12}{0:>6}")
                continue
            print(f"{name:<12}{len(chosen):>6}{statistics.mean(made):>14.1f}"
                  f"{statistics.mean(counted):>14.1f}"
                  f"{statistics.mean(scores) if scores else 0:>8.0%}"
                  f"{statistics.median(per_mutant):>10.2f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
