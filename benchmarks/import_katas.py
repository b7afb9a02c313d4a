"""Importing a folder of Exercism exercises: how long `katas import` takes for N exercises
(default 100) in each track, laid out as upstream (copies of the leap fixture under new
slugs), with and without proving them in the sandbox.

Prints the seconds for the file work alone (--no-prove), per exercise, and, per language,
the seconds to prove each of a sample of katas as the import does it (the stub formatted,
the reference's allowances, the reference and the stub scored, the start's gates: what a
user waits for per kata), and the seconds per kata of a proved import of a sample as
`katas import --jobs J` runs it (katas side by side).

Usage: python benchmarks/import_katas.py [--count 100] [--prove-sample 5] [--jobs 2]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tdd_sandbox.acceptance.import_proof import prove_import
from tdd_sandbox.acceptance.proof_pool import prove_katas
from tdd_sandbox.execution.docker_checker import DockerChecker
from tdd_sandbox.katas.importer import import_katas
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.settings import load_settings

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "exercism"
TRACKS = ("python", "rust", "go", "javascript", "java", "cpp")


def make_tracks(root: Path, count: int) -> list[Path]:
    """`count` exercises in each track's practice folder."""
    folders = []
    for track in TRACKS:
        practice = root / track / "exercises" / "practice"
        for index in range(count):
            shutil.copytree(FIXTURES / track / "exercises" / "practice" / "leap",
                            practice / f"leap-{index:03d}")  # fmt: skip
        folders.append(practice)
    return folders


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--prove-sample", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tdd-import-") as tmp:
        root = Path(tmp)
        sources = make_tracks(root / "src", args.count)
        timings = []
        for attempt in range(3):
            out = root / f"out-{attempt}"
            started = time.perf_counter()
            report = import_katas(sources, out)
            timings.append(time.perf_counter() - started)
            assert not report.problems, report.problems
            assert len(report.written) == args.count
        files_s = statistics.median(timings)
        print(f"import of {args.count} exercises x {len(TRACKS)} tracks (no proof): "
              f"{files_s:.2f} s, {files_s / args.count / len(TRACKS) * 1000:.1f} ms per kata "
              "(median of 3)")  # fmt: skip
        settings = load_settings()
        with DockerChecker(settings) as checker:
            print(f"{'language':<12}{'proof s/kata (median)':>22}{'min':>7}{'max':>7}"
                  f"{f'import --jobs {args.jobs} s/kata':>26}")  # fmt: skip
            for name in TRACKS:
                language = get_language(name)
                seconds = []
                for kata in range(args.prove_sample):
                    started = time.perf_counter()
                    ok, lines = prove_import(checker, language, root / "out-0" / f"leap-{kata:03d}")
                    seconds.append(time.perf_counter() - started)
                    assert ok, lines
                # The track's exercises imported again on their own, proved as the import
                # proves a folder.
                alone = import_katas([sources[TRACKS.index(name)]], root / f"alone-{name}")
                sample = alone.written[: args.prove_sample]
                started = time.perf_counter()
                for proof in prove_katas(
                    sample,
                    lambda lang, kata: prove_import(checker, get_language(lang), kata),
                    jobs=args.jobs,
                ):
                    assert proof.ok, proof.lines
                together = (time.perf_counter() - started) / len(sample)
                print(f"{name:<12}{statistics.median(seconds):>22.2f}{min(seconds):>7.2f}"
                      f"{max(seconds):>7.2f}{together:>26.2f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
