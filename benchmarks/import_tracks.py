"""Importing Exercism's tracks as a user fetches them: how many of each track's exercises
prove, how many of those are judged as data (problem-specifications' cases compared on the
host), and the seconds per kata of the whole import, proofs included.

Usage: python benchmarks/import_tracks.py SOURCE... [--jobs 2] [--why]

SOURCE: a track's `exercises/practice` folder (or aider's polyglot-benchmark's
`<language>/exercises/practice`), and problem-specifications' `exercises` beside them for
data suites.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tdd_sandbox.acceptance.import_proof import prove_import
from tdd_sandbox.acceptance.proof_pool import prove_katas
from tdd_sandbox.acceptance.suite import has_calls
from tdd_sandbox.errors import UsageError
from tdd_sandbox.execution.docker_checker import DockerChecker
from tdd_sandbox.katas.importer import import_katas
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.settings import load_settings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sources", nargs="+", type=Path)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--why", action="store_true", help="print how each kata is judged, and its proof lines"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tdd-tracks-") as tmp:
        started = time.perf_counter()
        try:
            report = import_katas(args.sources, Path(tmp))
        except UsageError as exc:  # a path that is no exercise: said in one line
            print(f"import_tracks: {exc}", file=sys.stderr)
            return 2
        if args.why:
            print("\n".join(report.notes), flush=True)
        tally: dict[str, list[int]] = {}  # language -> [exercises, proved, as data]
        with DockerChecker(load_settings()) as checker:
            for proof in prove_katas(
                report.written,
                lambda lang, kata: prove_import(checker, get_language(lang), kata),
                jobs=args.jobs,
            ):
                if args.why:
                    print("\n".join(proof.lines), flush=True)
                row = tally.setdefault(proof.language, [0, 0, 0])
                row[0] += 1
                row[1] += proof.ok
                row[2] += proof.ok and has_calls(proof.kata_dir, proof.language)
        seconds = time.perf_counter() - started
    print(f"{'track':<12}{'exercises':>10}{'proved':>8}{'as data':>9}{'data %':>8}")
    for name, (count, proved, data) in sorted(tally.items()):
        print(f"{name:<12}{count:>10}{proved:>8}{data:>9}{data / count:>8.0%}")
    count, proved, data = (sum(row[i] for row in tally.values()) for i in range(3))
    print(f"{'all':<12}{count:>10}{proved:>8}{data:>9}{data / max(count, 1):>8.0%}")
    per = seconds / max(count, 1)
    print(f"{len(report.problems)} not imported; {seconds:.0f} s in all, "
          f"{per:.1f} s per kata and language (--jobs {args.jobs})")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
