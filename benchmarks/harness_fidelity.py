"""Harness fidelity: does the tool measure the model, or its own prompts?

For one served model, each kata is solved three ways, every answer judged by the same judge
(`score_kata`: the kata's hidden suite, as data where it can be):
- **plain**: the model asked plainly, as a person would ask it (system: an expert programmer;
  user: the kata, its starting files and its tests, "write the complete file X"), one try; the
  first fenced block of the answer, else the whole answer, is the file;
- **implement mode** in each edit format (`bench --mode implement`): its first try (pass_1,
  comparable with plain) and its second, with the failures fed back (pass_2);
- **loop mode** (`--loop`): the red-green-refactor loop, its green commits and acceptance.
Prints one table, and the ratio tool / plain per format on jobs (the first try, the plain
prompt's one try's equal; and both tries, the second hearing what failed) and on test cases
passed.
Repeat r of every harness is sent seed `--seed + r - 1`, so the harnesses are sampled with the
same seeds (llama.cpp's answer to one ask and seed can still change with its prompt cache).
The goal (issue #44): the tool at or above the plain prompt in `whole` and `diff`.

Measure real models alone: on 2 cores generation falls from ~35 to under 1 token/s when the
machine is busy (`scripts/real_models.py check` says whether it is quiet).

Usage:
  python benchmarks/harness_fidelity.py --serve qwen [--formats whole,diff,json]
      [--katas katas/fizzbuzz ...] [--repeats 4] [--seed 1] [--loop] [--out bench-out/fidelity]
  python benchmarks/harness_fidelity.py --base-url http://127.0.0.1:8088/v1 --model NAME
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.real_leaderboard import SERVERS, serve  # noqa: E402
from tdd_sandbox.acceptance.scorer import score_kata  # noqa: E402
from tdd_sandbox.bench.implement import Workpiece, prepare  # noqa: E402
from tdd_sandbox.bench.mode import Mode  # noqa: E402
from tdd_sandbox.bench.pipeline import BenchOptions, run_bench  # noqa: E402
from tdd_sandbox.execution.docker_checker import DockerChecker  # noqa: E402
from tdd_sandbox.languages.registry import get_language  # noqa: E402
from tdd_sandbox.llm.chat import ChatReply, ChatRequest  # noqa: E402
from tdd_sandbox.llm.client import OpenAIBackend  # noqa: E402
from tdd_sandbox.llm.endpoint import Endpoint  # noqa: E402
from tdd_sandbox.llm.formats.whole import close_cut  # noqa: E402
from tdd_sandbox.settings import Settings, load_settings  # noqa: E402

KATAS = [ROOT / "katas" / name for name in ("fizzbuzz", "roman-numerals", "string-calculator",
                                            "bowling")]  # fmt: skip
MODEL_NAMES = {"qwen": "qwen2.5-coder-0.5b", "smollm2": "smollm2-135m"}
_BLOCK = re.compile(r"```[\w+-]*[ \t]*\n(.*?)^[ \t]*```", re.MULTILINE | re.DOTALL)


def plain_prompt(piece: Workpiece) -> list[dict[str, str]]:
    """The messages a person would send: the kata, its files and tests, the file wanted."""
    shown = "\n\n".join(
        f"{path}\n```\n{data.decode('utf-8', 'replace')}\n```"
        for path, data in piece.files.items()
        if path in piece.sources or path in piece.tests
    )
    user = "\n\n".join(
        filter(None, [piece.kata.text.strip(), shown, *piece.extra,
                      f"Write the complete file {piece.target}."])
    )  # fmt: skip
    title = piece.language.title
    return [
        {"role": "system", "content": f"You are an expert {title} programmer."},
        {"role": "user", "content": user},
    ]


def plain_file(reply: ChatReply) -> str:
    """The file in a plain answer: its first fenced block, else all of it; an answer the
    token limit cut off is read up to its last whole line, as the tool's formats read it."""
    text = close_cut(reply)
    found = _BLOCK.search(text)
    return found.group(1) if found else text


def plain_job(
    kata: Path, language: str, backend: OpenAIBackend, settings: Settings, repeat: int
) -> dict[str, Any]:
    """One plain-prompt try, judged; sent the seed the bench sends repeat `repeat`."""
    piece = prepare(kata, get_language(language))
    request = ChatRequest(
        role="implementer", model=backend.endpoint.model, messages=plain_prompt(piece),
        temperature=settings.roles.implementer.temperature, max_tokens=settings.llm.max_tokens,
        seed=None if settings.bench.seed is None else settings.bench.seed + repeat - 1,
    )  # fmt: skip
    reply = backend.complete(request)
    files = {**piece.files, piece.target: plain_file(reply).encode()}
    with DockerChecker(settings, run_id=f"plain-{kata.name}-{repeat}") as checker:
        report = score_kata(checker, piece.language, files, kata)
    return {
        "pass_1": report.total > 0 and report.passed == report.total,
        "passed": report.passed, "total": report.total, "answer": reply.text,
        "finish_reason": reply.finish_reason,
    }  # fmt: skip


def plain_row(
    kata: Path, repeat: int, backend: OpenAIBackend, settings: Settings
) -> dict[str, Any]:
    """One plain try of `kata`'s Python, as a row of plain.jsonl, said as it ends."""
    row = plain_job(kata, "python", backend, settings, repeat)
    print(f"plain {kata.name} r{repeat}: {row['passed']}/{row['total']}", flush=True)
    return {"kata": kata.name, "repeat": repeat, **row}


def earlier_plain(path: Path, katas: list[Path], repeats: int) -> list[dict[str, Any]]:
    """The plain rows of an earlier run, which must hold every kata and repeat of this one."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    wanted = {(kata.name, repeat) for kata in katas for repeat in range(1, repeats + 1)}
    kept = [row for row in rows if (row["kata"], row["repeat"]) in wanted]
    if {(row["kata"], row["repeat"]) for row in kept} != wanted:
        raise SystemExit(f"{path} does not hold every kata and repeat of this run")
    return kept


def settings_for(
    base_url: str, model: str, formats: list[str], max_tokens: int, seed: int | None
) -> Settings:
    """A bench configuration with one entry per edit format, all on the same model."""
    entries = {
        fmt: {"all": f"custom:{model}", "edit_format": fmt, "base_url": base_url} for fmt in formats
    }
    return load_settings(
        overrides={
            "cycles": 4, "max_attempts_per_agent": 3, "parallel": 1,
            "llm": {"base_url": base_url, "timeout_s": 300, "max_retries": 1,
                    "max_tokens": max_tokens},
            "bench": {"models": entries, "seed": seed},
        }
    )  # fmt: skip


def tool_rows(
    settings: Settings, formats: list[str], katas: list[Path], repeats: int, out: Path, mode: str
) -> list[dict[str, Any]]:
    """The bench's own jobs, as `tdd-sandbox bench --mode MODE` runs them."""
    options = BenchOptions(
        models=formats, katas=katas, languages=["python"], repeats=repeats, out=out,
        mode=Mode(mode), record=True,
    )  # fmt: skip
    run_bench(options, settings)
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


def cases(rows: list[dict[str, Any]]) -> tuple[int, int]:
    """Test cases passed and run, over `rows`."""
    passed = sum(int(r.get("acceptance", {}).get("passed", 0)) for r in rows)
    total = sum(int(r.get("acceptance", {}).get("total", 0)) for r in rows)
    return passed, total


def table(plain: list[dict[str, Any]], implement: list[dict[str, Any]],
          loop: list[dict[str, Any]], formats: list[str]) -> str:  # fmt: skip
    """The figures side by side, with the ratio tool / plain."""
    plain_jobs = sum(r["pass_1"] for r in plain)
    plain_cases = sum(r["passed"] for r in plain), sum(r["total"] for r in plain)
    lines = [
        "| harness | jobs passed, try 1 | jobs passed, 2 tries | cases passed | "
        "ratio to plain (jobs try 1, jobs 2 tries, cases) |",
        "| --- | ---: | ---: | ---: | ---: |",
        f"| plain prompt | {plain_jobs}/{len(plain)} | - | {plain_cases[0]}/{plain_cases[1]} "
        "| 1.00, 1.00, 1.00 |",
    ]
    for fmt in formats:
        rows = [r for r in implement if r["model"] == fmt]
        first = sum(bool(r.get("pass_1")) for r in rows)
        second = sum(bool(r.get("pass_2")) for r in rows)
        passed, total = cases(rows)
        pairs = ((first, plain_jobs), (second, plain_jobs), (passed, plain_cases[0]))
        ratios = ", ".join(f"{mine / theirs:.2f}" if theirs else "nan" for mine, theirs in pairs)
        lines.append(
            f"| implement, {fmt} | {first}/{len(rows)} | {second}/{len(rows)} | "
            f"{passed}/{total} | {ratios} |"
        )
    for fmt in formats:
        rows = [r for r in loop if r["model"] == fmt]
        if rows:
            green = sum(int(r.get("green_commits", 0)) for r in rows)
            rates = [float(r["acceptance_pass_rate"] or 0) for r in rows]
            lines.append(
                f"| loop, {fmt} | {green} green commits in {len(rows)} runs | - | "
                f"acceptance {sum(rates) / len(rates):.0%} | - |"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serve", choices=sorted(SERVERS), help="start this lane model")
    parser.add_argument("--base-url", help="an endpoint already serving the model")
    parser.add_argument("--model", help="the model's name at --base-url")
    parser.add_argument("--formats", default="whole,diff,json")
    parser.add_argument("--katas", type=Path, nargs="*", default=KATAS)
    parser.add_argument("--repeats", type=int, default=4)
    parser.add_argument("--max-tokens", type=int, default=1024)
    parser.add_argument("--seed", type=int, default=1, help="repeat 1's seed (-1: none)")
    parser.add_argument("--loop", action="store_true", help="also run the loop per format")
    parser.add_argument(
        "--plain-from", type=Path,
        help="an earlier run's plain.jsonl (same katas, repeats and seed): its plain prompt "
        "stands beside this run's formats instead of being asked again",
    )  # fmt: skip
    parser.add_argument("--out", type=Path, default=ROOT / "bench-out" / "fidelity")
    args = parser.parse_args()
    formats = args.formats.split(",")
    started = time.monotonic()
    with ExitStack() as stack:
        if args.serve:
            serve(stack, args.serve, SERVERS[args.serve])
            base_url = f"http://127.0.0.1:{SERVERS[args.serve]}/v1"
            model = MODEL_NAMES[args.serve]
        elif args.base_url and args.model:
            base_url, model = args.base_url, args.model
        else:
            parser.error("give --serve, or --base-url and --model")
        settings = settings_for(
            base_url, model, formats, args.max_tokens, None if args.seed < 0 else args.seed
        )
        endpoint = Endpoint("custom", base_url, model, None, "")
        backend = OpenAIBackend(endpoint, timeout_s=300, max_retries=1)
        args.out.mkdir(parents=True, exist_ok=True)
        if args.plain_from:
            plain = earlier_plain(args.plain_from, args.katas, args.repeats)
        else:
            plain = [
                plain_row(kata, repeat, backend, settings)
                for kata in args.katas
                for repeat in range(1, args.repeats + 1)
            ]
        (args.out / "plain.jsonl").write_text("".join(json.dumps(r) + "\n" for r in plain))
        implement = tool_rows(
            settings, formats, args.katas, args.repeats, args.out / "implement", "implement"
        )
        loop = (
            tool_rows(settings, formats, args.katas, 1, args.out / "loop", "tdd")
            if args.loop
            else []
        )
    print(f"\n{model}, {args.repeats} repeats of {len(args.katas)} Python katas, "
          f"temperature {settings.roles.implementer.temperature}, "
          f"{args.max_tokens} tokens an answer ({time.monotonic() - started:.0f} s)\n")  # fmt: skip
    print(table(plain, implement, loop, formats))


if __name__ == "__main__":
    main()
