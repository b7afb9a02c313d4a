"""What stopping a looping answer saves, and that it changes nothing the model wrote.

  python benchmarks/loop_stop.py bench-out/standard-board-cur smollm2 smollm2-135m [--tries 6]

Finds, in a board's transcripts, the answers of the model served as `served_as` whose tail
became a loop (`llm.stream.repeating`), and asks the model each of them again, exactly as
recorded (temperature 0), through the harness's own client with the stop on (and, with
`--whole`, off as well). Prints, per answer, the tokens and seconds of the recorded one and of
the stopped one, whether the stopped text is the start of the recorded text (greedy decoding
makes the same tokens: the stop only ends the reading), and the totals. Measure alone.
"""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from benchmarks.real_leaderboard import serve  # noqa: E402
from tdd_sandbox.llm.chat import ChatReply, ChatRequest  # noqa: E402
from tdd_sandbox.llm.client import OpenAIBackend  # noqa: E402
from tdd_sandbox.llm.endpoint import Endpoint  # noqa: E402
from tdd_sandbox.llm.stream import WINDOW, repeating  # noqa: E402

PORT = 8096
MAX_TOKENS = 4096  # the standard board's answer limit


def loops(board: Path, served_as: str, tries: int) -> list[dict[str, Any]]:
    """Up to `tries` recorded exchanges of `served_as` whose answer ends in a loop."""
    found = []
    for transcript in sorted(board.glob("**/jobs/*/transcript.jsonl")):
        for line in transcript.read_text(encoding="utf-8").splitlines()[1:]:
            exchange = json.loads(line)
            text = (exchange.get("reply") or {}).get("text", "")
            if exchange.get("model") == served_as and len(text) > WINDOW and repeating(text):
                found.append({"job": transcript.parent.name, **exchange})
    return found[:tries]


def ask(backend: OpenAIBackend, exchange: dict[str, Any]) -> ChatReply:
    """The recorded request, asked again."""
    return backend.complete(ChatRequest(
        role=exchange["role"], model=exchange["model"], messages=exchange["messages"],
        temperature=0.0, max_tokens=MAX_TOKENS,
    ))  # fmt: skip


def main() -> None:
    """Ask each looping answer again and print what the stop saved."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("board", type=Path, help="a bench's output or a published board")
    parser.add_argument("model", help="the model's name in scripts/real_models.py")
    parser.add_argument("served_as", help="the model's name in the transcripts")
    parser.add_argument("--tries", type=int, default=6)
    parser.add_argument("--whole", action="store_true", help="also ask with the stop off")
    args = parser.parse_args()
    exchanges = loops(args.board, args.served_as, args.tries)
    if not exchanges:
        sys.exit(f"no looping answer of {args.served_as} in {args.board}")
    endpoint = Endpoint("custom", f"http://127.0.0.1:{PORT}/v1", args.served_as, None)
    totals = {"recorded_s": 0.0, "stopped_s": 0.0, "recorded_tokens": 0, "stopped_tokens": 0}
    same = 0
    with ExitStack() as stack:
        serve(stack, args.model, PORT)
        stopping = OpenAIBackend(endpoint, timeout_s=900, max_retries=0)
        reading = OpenAIBackend(endpoint, timeout_s=900, max_retries=0, stop_repeating=False)
        for exchange in exchanges:
            recorded = exchange["reply"]
            if args.whole:
                recorded = vars(ask(reading, exchange))
            stopped = ask(stopping, exchange)
            prefix = recorded["text"].startswith(stopped.text)
            same += prefix
            totals["recorded_s"] += recorded["duration_s"]
            totals["stopped_s"] += stopped.duration_s
            totals["recorded_tokens"] += recorded["completion_tokens"]
            totals["stopped_tokens"] += stopped.completion_tokens
            start = "its start" if prefix else "DIFFERENT TEXT"
            print(f"{exchange['job']}: recorded {recorded['completion_tokens']} tokens in "
                  f"{recorded['duration_s']:.0f} s ({recorded['finish_reason']}); stopped at "
                  f"{stopped.completion_tokens} in {stopped.duration_s:.0f} s "
                  f"({stopped.finish_reason}); {start}")  # fmt: skip
    print(f"{len(exchanges)} answers: {totals['recorded_tokens']} tokens in "
          f"{totals['recorded_s']:.0f} s as {'read whole' if args.whole else 'recorded'}, "
          f"{totals['stopped_tokens']} in {totals['stopped_s']:.0f} s stopped "
          f"({totals['stopped_s'] / totals['recorded_s']:.0%} of the time); "
          f"{same} of {len(exchanges)} stopped texts are the start of the whole one")  # fmt: skip


if __name__ == "__main__":
    main()
