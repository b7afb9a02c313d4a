"""Aider parity: the tool's implement mode beside aider's own benchmark harness, with the same
local model on the same polyglot Python exercises and the same settings (`whole`, 2 tries with
the test output fed back, temperature 0, 1,024 tokens an answer).

The recipe, as this script carries it out:
1. aider's side: aider-chat 0.86.2 from PyPI in a venv of its own (`--venv`), and aider's
   benchmark harness (`benchmark/benchmark.py` with its `prompts.py` and `plots.py`) from a
   checkout of aider's repository (`--aider-repo`, a work tree or a git directory; nothing
   of it is kept). The exercises are copied where the harness looks for them. Each try's
   tests run with `pytest` inside the tool's Python sandbox image (no network, no
   capabilities, read-only, as uid 10001): the harness finds that `pytest` first on its PATH,
   so no model code runs on this machine.
2. the tool's side: the same exercises imported with `tdd-sandbox katas import`, run by
   `bench --mode implement` (the hidden suite is the exercise's own tests).
3. Both sides' pass_rate_1, pass_rate_2 and test cases passed after the last try, per
   exercise and in all, printed and written to `--out` (results.json, README.md).
Cases are read the same way on both sides: aider's from the last pytest run it recorded in
each exercise's chat history, the tool's from its acceptance report.

Usage:
  python benchmarks/aider_parity.py --aider-repo ~/aider --polyglot ~/polyglot-benchmark \\
      --base-url http://127.0.0.1:8088/v1 --model qwen2.5-coder-0.5b
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
EXERCISES = [
    "affine-cipher", "book-store", "connect", "hangman", "list-ops", "pig-latin", "proverb",
    "robot-name", "transpose", "two-bucket", "variable-length-quantity", "zebra-puzzle",
]  # fmt: skip
AIDER = "aider-chat==0.86.2"
HARNESS_DEPS = ["typer", "lox", "pandas", "matplotlib", "imgcat"]
# pytest's closing line; aider's harness strips its "in 0.12s" before keeping the output.
_SUMMARY = re.compile(
    r"^=+ (?P<counts>[^=\n]*\b(?:passed|failed|errors?|no tests ran)\b[^=\n]*?) =+$", re.MULTILINE
)


def aider_venv(venv: Path) -> Path:
    """The venv's python, with aider and its harness's dependencies installed."""
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    found = subprocess.run([str(python), "-m", "pip", "show", "aider-chat"], capture_output=True)
    if found.returncode != 0:
        subprocess.run(
            [str(python), "-m", "pip", "install", "-q", AIDER, *HARNESS_DEPS], check=True
        )
    return python


def harness(aider_repo: Path, into: Path) -> Path:
    """aider's benchmark folder, taken from its repository's HEAD."""
    git_dir = aider_repo / ".git" if (aider_repo / ".git").exists() else aider_repo
    archive = subprocess.run(
        ["git", "--git-dir", str(git_dir), "archive", "HEAD", "benchmark"],
        check=True, capture_output=True,
    ).stdout  # fmt: skip
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into / "benchmark"


def pytest_in_sandbox(bin_dir: Path, image: str) -> None:
    """A `pytest` that runs the exercise's tests inside the Python sandbox image."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    shim = bin_dir / "pytest"
    shim.write_text(
        "#!/bin/sh\n"
        "exec docker run --rm --network none --cap-drop ALL --security-opt no-new-privileges "
        "--read-only --tmpfs /tmp:size=64m --pids-limit 128 --memory 512m --cpus 1 "
        '--user 10001:10001 -v "$PWD:/work:ro" -w /work '
        f'{image} timeout 120 python3 -m pytest -p no:cacheprovider "$@"\n'
    )
    shim.chmod(0o755)


def run_aider(args: argparse.Namespace, work: Path, image: str) -> dict[str, dict[str, Any]]:
    """aider's harness on the exercises; per exercise its outcomes and cases."""
    python = aider_venv(args.venv)
    work.mkdir(parents=True)
    code = harness(args.aider_repo, work)
    # The harness names its results after the commit it runs from.
    subprocess.run(["git", "init", "-q", str(work)], check=True)
    subprocess.run(["git", "-C", str(work), "add", "benchmark"], check=True)
    subprocess.run(
        ["git", "-C", str(work), "-c", "user.name=parity", "-c", "user.email=parity@localhost",
         "commit", "-qm", "aider's benchmark harness"],
        check=True,
    )  # fmt: skip
    original = work / "tmp.benchmarks" / "polyglot-benchmark"
    practice = original / "python" / "exercises" / "practice"
    practice.mkdir(parents=True)
    for name in args.exercises:
        shutil.copytree(args.polyglot / "python" / "exercises" / "practice" / name, practice / name)
    settings = work / "model-settings.yml"
    settings.write_text(
        f"- name: openai/{args.model}\n  edit_format: whole\n"
        f"  extra_params:\n    max_tokens: {args.max_tokens}\n"
    )
    pytest_in_sandbox(work / "bin", image)
    env = {
        **os.environ, "AIDER_DOCKER": "1", "AIDER_BENCHMARK_DIR": str(work / "tmp.benchmarks"),
        "OPENAI_API_BASE": args.base_url, "OPENAI_API_KEY": "unused",
        "PATH": f"{work / 'bin'}:{os.environ['PATH']}",
        # Nothing but the model's endpoint: litellm's local price list, no update check, no
        # analytics.
        "LITELLM_LOCAL_MODEL_COST_MAP": "True", "AIDER_CHECK_UPDATE": "false",
        "AIDER_ANALYTICS": "false",
    }  # fmt: skip
    subprocess.run(
        [str(python), str(code / "benchmark.py"), "parity", "--new",
         "--model", f"openai/{args.model}", "--edit-format", "whole", "--tries", "2",
         "--threads", "1", "--languages", "python", "--read-model-settings", str(settings),
         "--exercises-dir", "polyglot-benchmark"],
        check=True, cwd=work, env=env,
    )  # fmt: skip
    [run] = (work / "tmp.benchmarks").glob("*--parity")
    rows = {}
    for name in args.exercises:
        testdir = run / "python" / "exercises" / "practice" / name
        results = json.loads((testdir / ".aider.results.json").read_text())
        outcomes = [bool(o) for o in results["tests_outcomes"]]
        history = (testdir / ".aider.chat.history.md").read_text(errors="replace")
        rows[name] = {"outcomes": outcomes, **_cases(history, testdir)}
        kept = args.out / "aider" / f"{name}.chat.md"  # the whole exchange, kept as evidence
        kept.parent.mkdir(parents=True, exist_ok=True)
        kept.write_text(history)
    return rows


def _cases(history: str, testdir: Path) -> dict[str, int]:
    """Cases passed in the last pytest run of an exercise's history, and its test count."""
    total = sum(
        len(re.findall(r"^\s*def test_", path.read_text(errors="replace"), re.MULTILINE))
        for path in testdir.glob("*_test.py")
    )
    summaries = _SUMMARY.findall(history)
    passed = 0
    if summaries:
        found = re.search(r"(\d+) passed", summaries[-1])
        passed = int(found.group(1)) if found else 0
    return {"passed": passed, "total": total}


def run_ours(args: argparse.Namespace, work: Path) -> dict[str, dict[str, Any]]:
    """The tool's implement mode on the same exercises, imported."""
    katas = args.katas or work / "katas"
    if args.katas is None:
        sources = [args.polyglot / "python" / "exercises" / "practice" / n for n in args.exercises]
        subprocess.run(
            ["tdd-sandbox", "katas", "import", *map(str, sources), "--out", str(katas)],
            check=False,
        )
    config = work / "parity.yaml"
    config.write_text(
        "llm:\n  timeout_s: 600\n  max_retries: 1\n"
        f"  max_tokens: {args.max_tokens}\n"
        "roles:\n" + "".join(f"  {role}:\n    temperature: 0\n" for role in
                             ("tester", "implementer", "refactorer"))
        + "bench:\n  models:\n    parity:\n"
        f'      all: "custom:{args.model}"\n      edit_format: whole\n'
        f'      base_url: "{args.base_url}"\n'
    )  # fmt: skip
    out = work / "bench"
    subprocess.run(
        ["tdd-sandbox", "bench", "--config", str(config), "--models", "parity",
         "--katas", str(katas), "--languages", "python", "--repeats", "1", "--jobs", "1",
         "--mode", "implement", "--record", "--out", str(out)],
        check=False,
    )  # fmt: skip
    for transcript in (out / "jobs").glob("*/transcript.jsonl"):
        kept = args.out / "ours" / f"{transcript.parent.name}.transcript.jsonl"
        kept.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(transcript, kept)  # replayable: `tdd-sandbox bench --replay`
    rows = {}
    for line in (out / "results.jsonl").read_text().splitlines():
        row = json.loads(line)
        acceptance = row.get("acceptance") or {}
        rows[row["kata"]] = {
            "outcomes": [bool(row.get("pass_1")), bool(row.get("pass_2"))],
            "passed": int(acceptance.get("passed", 0)), "total": int(acceptance.get("total", 0)),
            "status": row.get("status"), "reason": str(row.get("reason", ""))[:200],
        }  # fmt: skip
    return rows


def summary(rows: dict[str, dict[str, Any]], count: int) -> dict[str, Any]:
    """pass_rate_1, pass_rate_2 (of `count` exercises) and cases passed."""
    first = sum(1 for r in rows.values() if r["outcomes"][:1] == [True])
    second = sum(1 for r in rows.values() if any(r["outcomes"][:2]))
    passed = sum(r["passed"] for r in rows.values())
    total = sum(r["total"] for r in rows.values())
    return {
        "pass_rate_1": round(first / count, 4), "pass_rate_2": round(second / count, 4),
        "cases_passed": passed, "cases_total": total,
    }  # fmt: skip


def readme(results: dict[str, Any]) -> str:
    """The results as a page: the recipe, both sides' figures, and each exercise's."""
    sides = [side for side in ("aider", "ours") if side in results]
    settings = results["settings"]
    lines = [
        "# Aider parity: the tool's implement mode beside aider's benchmark harness",
        "",
        f"Model `{results['model']}`; `{settings['edit_format']}`, {settings['tries']} tries "
        f"(the test output fed back), temperature {settings['temperature']}, "
        f"{settings['max_tokens']} tokens an answer; the polyglot set's Python exercises "
        "below. Recipe: `benchmarks/aider_parity.py` (its docstring).",
        "",
        "| harness | pass_rate_1 | pass_rate_2 | cases passed |",
        "| --- | ---: | ---: | ---: |",
    ]
    for side in sides:
        got = results[side]["summary"]
        lines.append(
            f"| {side} | {got['pass_rate_1']:.0%} | {got['pass_rate_2']:.0%} | "
            f"{got['cases_passed']}/{got['cases_total']} |"
        )
    lines += ["", "| exercise | " + " | ".join(f"{side} (cases)" for side in sides) + " |",
              "| --- |" + " ---: |" * len(sides)]  # fmt: skip
    for name in results["exercises"]:
        cells = []
        for side in sides:
            row = results[side]["rows"].get(name)
            cells.append(f"{row['passed']}/{row['total']}" if row else "-")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--aider-repo", type=Path, required=True)
    parser.add_argument("--polyglot", type=Path, required=True)
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--exercises", type=lambda s: s.split(","), default=EXERCISES)
    parser.add_argument("--max-tokens", type=int, default=1024)
    parser.add_argument("--venv", type=Path,
                        default=Path.home() / ".cache" / "tdd-sandbox" / "aider-venv")  # fmt: skip
    parser.add_argument(
        "--out", type=Path, default=ROOT / "benchmarks" / "results" / "aider-parity"
    )
    parser.add_argument("--only", choices=("aider", "ours"))
    parser.add_argument("--katas", type=Path, help="the exercises imported already")
    args = parser.parse_args()
    image = subprocess.run(
        ["docker", "images", "--format", "{{.Repository}}:{{.Tag}}", "tdd-sandbox/python"],
        check=True, capture_output=True, text=True,
    ).stdout.split()[0]  # fmt: skip
    started = time.monotonic()
    earlier = args.out / "results.json"
    # One side alone (`--only`) keeps the other side's figures from an earlier run.
    results: dict[str, Any] = json.loads(earlier.read_text()) if earlier.exists() else {}
    results.update({"model": args.model, "exercises": args.exercises,
                    "settings": {"edit_format": "whole", "tries": 2, "temperature": 0,
                                 "max_tokens": args.max_tokens}})  # fmt: skip
    with tempfile.TemporaryDirectory() as scratch:
        if args.only != "ours":
            rows = run_aider(args, Path(scratch) / "aider", image)
            results["aider"] = {"summary": summary(rows, len(args.exercises)), "rows": rows}
        if args.only != "aider":
            (Path(scratch) / "ours").mkdir()
            rows = run_ours(args, Path(scratch) / "ours")
            results["ours"] = {"summary": summary(rows, len(args.exercises)), "rows": rows}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    (args.out / "README.md").write_text(readme(results))
    for side in ("aider", "ours"):
        if side in results:
            print(side, results[side]["summary"])
    print(f"{time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
