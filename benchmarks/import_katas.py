"""Importing a folder of Exercism exercises: how long `katas import` takes for N exercises
(default 100) in each track, laid out as upstream (copies of the leap fixture under new
slugs), with and without proving a sample of them in the sandbox.

Prints the seconds for the file work alone (--no-prove), per exercise, and the seconds to
prove one kata per language (reference and stub, warm pool), from which a proved import of
the whole folder follows.

Usage: python benchmarks/import_katas.py [--count 100] [--prove-sample 2]
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

from tdd_sandbox.acceptance.proof import prove
from tdd_sandbox.execution.docker import DockerRuntime
from tdd_sandbox.katas.importer import import_katas
from tdd_sandbox.languages import get_language
from tdd_sandbox.settings import load_settings

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "exercism"


def make_tracks(root: Path, count: int) -> list[Path]:
    """`count` exercises in each of the Python and Rust tracks' practice folders."""
    folders = []
    for track in ("python", "rust"):
        practice = root / track / "exercises" / "practice"
        for index in range(count):
            shutil.copytree(FIXTURES / track / "exercises" / "practice" / "leap",
                            practice / f"leap-{index:03d}")  # fmt: skip
        folders.append(practice)
    return folders


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--prove-sample", type=int, default=2)
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
        print(f"import of {args.count} exercises x 2 tracks (no proof): {files_s:.2f} s, "
              f"{files_s / args.count * 1000:.1f} ms per kata (median of 3)")  # fmt: skip
        settings = load_settings()
        with DockerRuntime(settings) as runtime:
            for name in ("python", "rust"):
                language = get_language(name)
                kata = root / "out-0" / "leap-000"
                prove(runtime, language, kata)  # warm the pool and caches
                seconds = []
                for index in range(args.prove_sample):
                    started = time.perf_counter()
                    proof = prove(runtime, language, root / "out-0" / f"leap-{index:03d}")
                    seconds.append(time.perf_counter() - started)
                    assert proof.ok, proof.describe()
                each = statistics.median(seconds)
                print(f"proof of one {name} kata (reference and stub): {each:.2f} s; "
                      f"{args.count} katas: ~{each * args.count / 60:.1f} min")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
