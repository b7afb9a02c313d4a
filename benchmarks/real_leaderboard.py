"""The real-model leaderboard: two small local models, three edit formats, two katas.

Starts llama.cpp's server for Qwen2.5-Coder-0.5B (port 8088) and SmolLM2-135M (port 8089)
with `scripts/real_models.py`, runs `tdd-sandbox bench` with `benchmarks/real-models.yaml`
over fizzbuzz and string-calculator in Python, recording every model exchange, then copies
the reports and transcripts into benchmarks/results/real-models/ and prints where the time
went (model, gates, the rest of the harness).

Usage: python benchmarks/real_leaderboard.py [--repeats 2] [--work bench-out/real-models]
           [--out benchmarks/results/real-models] [--resume] [--mode tdd|implement]

`--mode implement` runs the same models and katas as aider's benchmark does (the tests
given, one retry), published by default to benchmarks/results/real-models-implement/.

The transcripts let anyone re-score the run with no model at all:
  tdd-sandbox bench --config benchmarks/real-models.yaml --models <the six entries> \\
      --katas katas/fizzbuzz --katas katas/string-calculator --repeats 2 \\
      --replay benchmarks/results/real-models --out /tmp/rescored
"""

from __future__ import annotations

import argparse
import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "benchmarks" / "real-models.yaml"
SERVERS = {"qwen": 8088, "smollm2": 8089}
MODELS = [
    f"{model}-{fmt}" for model in ("qwen-0.5b", "smollm2-135m") for fmt in ("json", "whole", "diff")
]
KATAS = ["fizzbuzz", "string-calculator"]
REPORTS = ["leaderboard.md", "summary.json", "results.jsonl", "junit.xml", "report.html"]


def serve(stack: ExitStack, model: str, port: int, *, slots: int = 1) -> None:
    """Start llama-server for `model` on loopback `port`, taking `slots` requests at once,
    and wait until it answers."""
    with socket.socket() as probe:
        if probe.connect_ex(("127.0.0.1", port)) == 0:
            sys.exit(f"port {port} is taken: stop what listens there (the {model} server's port)")
    server = subprocess.Popen(
        [sys.executable, str(ROOT / "scripts" / "real_models.py"), "serve", model,
         "--port", str(port), "--slots", str(slots)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    stack.callback(server.wait, 30)
    stack.callback(server.terminate)
    deadline = time.monotonic() + 600  # the first call may build the server and the models
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=5):
                return
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                sys.exit(f"the {model} server did not come up: run scripts/real_models.py serve")
            time.sleep(1)


def publish(work: Path, out: Path, runs: list[Path] | None = None) -> None:
    """Reports from `work` and transcripts (not the job repositories) from each of `runs`
    (`work` itself by default: a merged board's jobs are its shards') into `out`."""
    shutil.rmtree(out, ignore_errors=True)
    (out / "charts").mkdir(parents=True)
    for name in REPORTS:
        shutil.copy2(work / name, out / name)
    for chart in (work / "charts").glob("*.png"):
        shutil.copy2(chart, out / "charts" / chart.name)
    for run in runs or [work]:
        for transcript in sorted((run / "jobs").glob("*/transcript.jsonl")):
            target = out / "jobs" / transcript.parent.name
            target.mkdir(parents=True)
            shutil.copy2(transcript, target / transcript.name)


def timing(out: Path) -> str:
    """Where the wall-clock time of every job went, in total."""
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    wall = sum(float(r.get("wall_time_s", 0)) for r in rows)
    model = sum(float(r.get("model_time_s", 0)) for r in rows)
    gates = sum(float(r.get("gate_time_s", 0)) for r in rows)
    rest = wall - model - gates
    return (
        f"{len(rows)} jobs, {wall:.0f} s of runs: model {model:.0f} s ({model / wall:.0%}), "
        f"sandboxed gates {gates:.0f} s ({gates / wall:.0%}), rest of the harness "
        f"{rest:.0f} s ({rest / wall:.0%})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--work", type=Path)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--mode", choices=("tdd", "implement"), default="tdd")
    args = parser.parse_args()
    name = "real-models" if args.mode == "tdd" else f"real-models-{args.mode}"
    args.work = args.work or ROOT / "bench-out" / name
    args.out = args.out or ROOT / "benchmarks" / "results" / name
    command = [
        "tdd-sandbox", "bench", "--config", str(CONFIG), "--models", ",".join(MODELS),
        *[arg for kata in KATAS for arg in ("--katas", str(ROOT / "katas" / kata))],
        "--languages", "python", "--repeats", str(args.repeats), "--jobs", "1",
        "--record", "--out", str(args.work), "--mode", args.mode,
    ]  # fmt: skip
    if args.resume:
        command.append("--resume")
    started = time.monotonic()
    with ExitStack() as stack:
        for model, port in SERVERS.items():
            serve(stack, model, port)
        subprocess.run(command, check=True)
    publish(args.work, args.out)
    print(f"published to {args.out} in {time.monotonic() - started:.0f} s")
    print(timing(args.out))


if __name__ == "__main__":
    main()
