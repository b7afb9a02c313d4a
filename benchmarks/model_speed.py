"""How fast a real model answers on this machine: prompt and generation tokens/s from
llama.cpp's own timings, with one request at a time and with several at once.

  python benchmarks/model_speed.py qwen-1.5b [--slots 2] [--rounds 3]

Starts the model's server (`scripts/real_models.py serve`, loopback), sends a coding request
that asks for about `--tokens` tokens `--rounds` times, alone; then, with `--slots N`, N such
requests at once, and prints per request and in all. Measure alone: `scripts/real_models.py
check` says whether the machine is quiet enough.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from benchmarks.real_leaderboard import serve  # noqa: E402

PORT = 8097
# A prompt the size of an implement job's (a kata and its cases, about 1,800 tokens): the
# bundled bowling kata and its data, asked for twice over.
BOWLING = ROOT / "katas" / "bowling"
PROMPT = "\n\n".join(
    [
        (BOWLING / "kata.md").read_text(),
        (BOWLING / "acceptance" / "canonical-data.json").read_text(),
    ]
    * 2
    + ["Write bowling.py, a BowlingGame with roll(pins) and score(), passing every case above."]
)


def ask(tokens: int) -> dict[str, Any]:
    """One chat request; llama.cpp's timings of it, and its wall time."""
    body = json.dumps({
        "messages": [{"role": "user", "content": PROMPT}], "max_tokens": tokens,
        "temperature": 0, "seed": 1, "ignore_eos": True,
        # Each request reads its whole prompt, as a job's first request does.
        "cache_prompt": False,
    }).encode()  # fmt: skip
    request = urllib.request.Request(
        f"http://127.0.0.1:{PORT}/v1/chat/completions", body,
        {"Content-Type": "application/json"},
    )  # fmt: skip
    started = time.monotonic()
    with urllib.request.urlopen(request, timeout=1800) as answer:
        timings: dict[str, Any] = json.load(answer)["timings"]
    return {**timings, "wall_s": time.monotonic() - started}


def rate(runs: list[dict[str, Any]], key: str) -> float:
    """The median of `key` (llama.cpp's tokens per second, or a wall time) over `runs`."""
    return statistics.median(float(run[key]) for run in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("--slots", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tokens", type=int, default=256)
    args = parser.parse_args()
    with ExitStack() as stack:
        serve(stack, args.model, PORT, slots=args.slots)
        ask(8)  # the first request loads the weights into memory
        alone = [ask(args.tokens) for _ in range(args.rounds)]
        print(f"{args.model} alone: prompt {rate(alone, 'prompt_per_second'):.0f} tokens/s "
              f"({alone[0]['prompt_n']} tokens), generation "
              f"{rate(alone, 'predicted_per_second'):.1f} tokens/s, a request "
              f"{rate(alone, 'wall_s'):.1f} s (median of {args.rounds})")  # fmt: skip
        if args.slots > 1:
            started = time.monotonic()
            with ThreadPoolExecutor(args.slots) as pool:
                together = list(pool.map(lambda _: ask(args.tokens), range(args.slots)))
            wall = time.monotonic() - started
            print(f"{args.model}, {args.slots} at once: generation "
                  f"{rate(together, 'predicted_per_second'):.1f} tokens/s each; "
                  f"{args.slots} requests in {wall:.1f} s, against "
                  f"{args.slots * rate(alone, 'wall_s'):.1f} s one after another")  # fmt: skip


if __name__ == "__main__":
    main()
