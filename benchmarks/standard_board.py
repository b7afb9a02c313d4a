"""The standard board: real models ranked on a fixed rule's subset of aider's polyglot set,
with paired differences and their intervals, every exchange published.

The subset is a rule, not a pick: in each of the six languages, aider's exercises sorted by
name and the `--per-language` (8) at evenly spaced places, the i-th at floor(i * n / 8) of n.
A newer snapshot of the set is picked anew by the same rule.

  python benchmarks/standard_board.py --exercises ~/polyglot-benchmark \\
      --specs ~/problem-specifications [--languages python,go] [--models ...] [--slots 2]

The same rule over an Exercism track's exercises, with `--max-difficulty` (the track's own
rating in its config.json, 1-10), makes a board of exercises within small models' reach,
where aider's set (the hardest of Exercism's) leaves them all near nothing:

  python benchmarks/standard_board.py --exercises ~/tracks --languages python \\
      --max-difficulty 2 --per-language 16 --specs ~/problem-specifications \\
      --work bench-out/reach-board --out benchmarks/results/reach-board

Steps, each resumable across sittings (run it again with the same --work):
1. the subset is imported with problem-specifications beside it (`tdd-sandbox katas
   import`, each reference proved) into --work/katas/<language>;
2. every model's llama.cpp server is started (`scripts/real_models.py serve`), and one
   `tdd-sandbox bench --mode implement --resume --record` per language runs every model on
   that language's exercises, one job at a time (`--jobs`), so each model is measured alone,
   in `whole` or in each of `--formats whole,diff,json` (a model's best format, paired);
3. the languages' benches are merged into one board (`bench merge`), published to --out with
   every job's transcript, and where the time went is printed.
A sitting that ends early (SIGTERM, Ctrl-C) publishes a board of fewer exercises, compared
paired on those; committed, it is where the next sitting starts, on any machine: its jobs
are put back into --work (`seed`) and resumed, not run again. A sitting that asks fewer
models, formats or languages adds what it runs to the published board and drops nothing; a
bench that ends in an error fails the board, after it publishes what finished.
Before any job, the answer limit is checked against the katas' reference solutions
(`check_answer_limit`): a limit that would cut an answer an exercise needs stops the board.
"""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
import time
import urllib.request
from contextlib import ExitStack
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from benchmarks.real_leaderboard import publish, serve, timing  # noqa: E402
from benchmarks.sitting import run_stoppably, seed, stopped  # noqa: E402

CONFIG = ROOT / "benchmarks" / "standard-board.yaml"
LANGUAGES = ("python", "javascript", "go", "rust", "java", "cpp")
SERVERS = {"qwen-1.5b": ("qwen-1.5b", 8090), "qwen-0.5b": ("qwen", 8088),
           "smollm2-135m": ("smollm2", 8089)}  # fmt: skip
"""Each model of the board: its lane name (`scripts/real_models.py serve`) and its port."""
FORMATS = ("whole", "diff", "json")
"""The edit formats a model may be asked in: `<model>-<format>` names a condition of
standard-board.yaml, so a model's formats are compared paired on the same exercises."""


def pick(names: list[str], count: int) -> list[str]:
    """`count` of `names` at evenly spaced places of their sorted order (all where fewer)."""
    ordered = sorted(names)
    if len(ordered) <= count:
        return ordered
    return [ordered[i * len(ordered) // count] for i in range(count)]


def subset(
    exercises: Path, language: str, count: int, max_difficulty: int | None = None
) -> list[Path]:
    """The language's exercises of the board: of those under `exercises`, laid out as
    aider's set (`<language>/exercises/practice/<name>`), those a track rates at most
    `max_difficulty` hard where one is given."""
    practice = exercises / language / "exercises" / "practice"
    names = [path.name for path in practice.iterdir() if path.is_dir()]
    if max_difficulty is not None:
        rated = difficulties(exercises / language)
        names = [name for name in names if name in rated and rated[name] <= max_difficulty]
    return [practice / name for name in pick(names, count)]


def difficulties(track: Path) -> dict[str, int]:
    """Each practice exercise's difficulty (1-10) as an Exercism track's `config.json` rates
    it, deprecated ones left out (their folders stay in the track).

    Raises:
        SystemExit: `track` has no such file (aider's set has none); the message says so.
    """
    config = track / "config.json"
    if not config.is_file():
        raise SystemExit(
            f"--max-difficulty reads an Exercism track's config.json, and {track} has none: "
            f"lay a track out as <folder>/{track.name}/ (a clone of exercism/{track.name})"
        )
    practice = json.loads(config.read_text(encoding="utf-8"))["exercises"]["practice"]
    return {e["slug"]: int(e["difficulty"]) for e in practice if e.get("status") != "deprecated"}


def import_katas(args: argparse.Namespace, language: str, into: Path) -> None:
    """The language's subset imported and proved, beside its problem-specifications data."""
    if into.is_dir() and any(into.glob("*/kata.md")):
        return  # imported in an earlier sitting
    exercises = subset(args.exercises, language, args.per_language, args.max_difficulty)
    data = [args.specs / "exercises" / e.name for e in exercises]
    sources = [*exercises, *(path for path in data if path.is_dir())]
    # An exercise that does not prove is said by the import and left out of the board.
    subprocess.run(
        ["tdd-sandbox", "katas", "import", *map(str, sources), "--out", str(into)], check=False
    )


def bench(args: argparse.Namespace, language: str) -> int:
    """Every model, in each format asked, on the language's katas; resumes what an earlier
    sitting finished. The board is the conditions asked: to add a format, ask for the ones
    it has too (`--formats whole,diff`), whose jobs are reused. Returns the bench's exit
    status (not 0: it said why, and the board must not end as if it had finished)."""
    out: Path = args.work / "runs" / language
    conditions = [f"{model}-{form}" for model in args.models for form in args.formats]
    command = [
        "tdd-sandbox", "bench", "--config", str(CONFIG), "--models", ",".join(conditions),
        "--katas", str(args.work / "katas" / language), "--languages", language,
        "--mode", "implement", "--jobs", str(args.jobs), "--record", "--out", str(out),
        "--resume",
    ]  # fmt: skip
    return run_stoppably(command)


def check_answer_limit(args: argparse.Namespace) -> str:
    """The board's rule for its answer limit (`llm.max_tokens`): the longest reference
    solution of its katas, by each model's own tokenizer, and half as much again, so that the
    limit never cuts the answer an exercise needs (a whole file, with the fences and words
    around it, in a model's own style). Less exits, naming the exercise; otherwise says what
    the limit covers."""
    limit = yaml.safe_load(CONFIG.read_text())["llm"]["max_tokens"]
    longest, where = 0, ""
    for language in args.languages:
        for reference in sorted((args.work / "katas" / language).glob(f"*/reference/{language}")):
            text = "".join(p.read_text() for p in sorted(reference.rglob("*")) if p.is_file())
            for name in args.models:
                if (count := _tokens(SERVERS[name][1], text)) > longest:
                    longest, where = count, f"{reference.parents[1].name} in {language}, {name}"
    if limit < (needed := longest * 3 // 2):
        sys.exit(
            f"llm.max_tokens {limit} in {CONFIG.name} is under the longest reference solution "
            f"and half again ({longest} tokens: {where}): raise it to {needed} or more"
        )
    return f"answers up to {limit} tokens: the longest reference is {longest} ({where})"


def _tokens(port: int, text: str) -> int:
    asked = urllib.request.Request(
        f"http://127.0.0.1:{port}/tokenize", data=json.dumps({"content": text}).encode(),
        headers={"Content-Type": "application/json"},
    )  # fmt: skip
    with urllib.request.urlopen(asked, timeout=60) as answer:
        return len(json.load(answer)["tokens"])


def merged(runs: list[Path], work: Path) -> Path:
    """The languages' benches merged into one board under `work` (a job in two, the last's)."""
    board = work / "board"
    subprocess.run(
        ["tdd-sandbox", "-q", "bench", "merge", *map(str, runs), "--out", str(board)],
        check=True, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    return board


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--exercises", "--polyglot", type=Path, required=True,
        help="aider's polyglot-benchmark, or a folder of Exercism tracks each as <language>/",
    )  # fmt: skip
    parser.add_argument(
        "--max-difficulty", type=int, help="only exercises the track rates at most this hard"
    )
    parser.add_argument("--specs", type=Path, required=True, help="problem-specifications")
    parser.add_argument("--languages", type=lambda s: s.split(","), default=list(LANGUAGES))
    parser.add_argument("--models", type=lambda s: s.split(","), default=list(SERVERS))
    parser.add_argument(
        "--formats", type=lambda s: s.split(","), default=["whole"],
        help=f"edit formats each model is asked in ({', '.join(FORMATS)}); the board's own: whole",
    )  # fmt: skip
    parser.add_argument("--per-language", type=int, default=8)
    parser.add_argument("--jobs", type=int, default=1, help="jobs at once (a slot each)")
    parser.add_argument("--slots", type=int, default=1, help="requests each server takes")
    parser.add_argument("--work", type=Path, default=ROOT / "bench-out" / "standard-board")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks/results/standard-board")
    parser.add_argument("--no-run", action="store_true", help="import and publish only")
    args = parser.parse_args()
    for signum in (signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(signum) is not signal.SIG_IGN:  # `nohup` keeps SIGHUP ignored
            signal.signal(signum, stopped)
    unknown = [
        *sorted(set(args.models) - set(SERVERS)), *sorted(set(args.formats) - {*FORMATS}),
        *sorted(set(args.languages) - {*LANGUAGES}),
    ]  # fmt: skip
    if unknown:
        sys.exit(
            f"unknown: {', '.join(unknown)}; models: {', '.join(SERVERS)}; "
            f"formats: {', '.join(FORMATS)}; languages: {', '.join(LANGUAGES)}"
        )
    started = time.monotonic()
    if seeded := seed(args.out, args.work):
        print(f"{seeded} jobs of the board published at {args.out} put back to resume")
    for language in args.languages:
        import_katas(args, language, args.work / "katas" / language)
    stop: KeyboardInterrupt | None = None
    failed: list[str] = []  # the languages whose bench ended in an error
    if not args.no_run:
        try:
            with ExitStack() as stack:
                for name in args.models:
                    model, port = SERVERS[name]
                    serve(stack, model, port, slots=args.slots)
                print(check_answer_limit(args))
                failed = [language for language in args.languages if bench(args, language)]
        except KeyboardInterrupt as interrupt:
            stop = interrupt  # what was finished is published all the same, then the stop
    # The languages asked for, each as far as it got (a stopped one resumes next sitting).
    runs = [args.work / "runs" / language for language in args.languages]
    if runs := [run for run in runs if (run / "results.jsonl").exists()]:
        report(args, runs, started)
    if stop is not None:
        raise stop
    if failed:
        sys.exit(
            f"board: the bench of {', '.join(failed)} ended in an error (said above): "
            "mend it and run the same command again to resume"
        )
    if not runs:
        sys.exit(f"nothing to publish: no language has a finished job under {args.work}")


def report(args: argparse.Namespace, runs: list[Path], started: float) -> None:
    """The board published before this sitting, with the languages' `runs` merged over it
    (a job run again replaces its published result), published to --out, with the paired
    comparisons and where the time went. A sitting that asks fewer models, formats or
    languages adds to the board and drops none: the bench reports only what it was asked."""
    before = [args.out] if (args.out / "results.jsonl").is_file() else []
    # Every job's transcript is in the work folder: its own, or put back by `seed`.
    held = sorted(path for path in (args.work / "runs").glob("*") if (path / "jobs").is_dir())
    publish(merged([*before, *runs], args.work), args.out, held)
    summary = json.loads((args.out / "summary.json").read_text())
    for row in summary["comparisons"]:
        verdict = "told apart" if row["told_apart"] else "not told apart"
        print(f"{row['first']} - {row['second']}: {row['difference']} on {row['exercises']} "
              f"exercises, 95% [{row['low']}, {row['high']}], {verdict}")  # fmt: skip
    print(f"published to {args.out} in {time.monotonic() - started:.0f} s")
    print(timing(args.out))


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        # The running job is recorded, the servers are down and what was finished is
        # published: the same command resumes, here or, from the published board, anywhere.
        print("board: stopped; run the same command again to resume", file=sys.stderr)
        sys.exit(130)
