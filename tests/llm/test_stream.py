"""An answer read as it streams, through a real HTTP server: one that only repeats itself is
stopped and judged as cut; every other one is read to its end, within the request's time."""

from __future__ import annotations

from pathlib import Path

import pytest

from tdd_sandbox.llm.chat import ChatRequest, InfrastructureError
from tdd_sandbox.llm.client import OpenAIBackend
from tdd_sandbox.llm.endpoint import Endpoint
from tdd_sandbox.llm.stream import REPEATING, WINDOW, repeating
from tests.helpers.fake_llm import Answer, FakeLLM
from tests.llm.test_formats import parse_whole

ROOT = Path(__file__).resolve().parents[2]
CODE = "def fizzbuzz(n: int) -> str:\n    return str(n)\n"
# A small model's loop: the file, then checks of it over and over in the same block.
CHECKS = "assert fizzbuzz(3) == 'Fizz'\nassert fizzbuzz(5) == 'Buzz'\nprint(fizzbuzz(15))\n"
LOOP = "fizzbuzz.py\n```python\n" + CODE + CHECKS * 600


def _backend(
    fake: FakeLLM, *, timeout_s: float = 30.0, stop_repeating: bool = True
) -> OpenAIBackend:
    endpoint = Endpoint("custom", fake.base_url, "m", None)
    return OpenAIBackend(endpoint, timeout_s=timeout_s, max_retries=0,
                         stop_repeating=stop_repeating)  # fmt: skip


def _ask() -> ChatRequest:
    return ChatRequest(role="implementer", model="m", temperature=0.0, max_tokens=4096,
                       messages=[{"role": "user", "content": "fizzbuzz"}])  # fmt: skip


def test_an_answer_that_only_repeats_itself_is_stopped_as_it_streams() -> None:
    with FakeLLM({"m": [Answer(text=LOOP, finish_reason="length", pace_s=0.001)]}) as fake:
        reply = _backend(fake).complete(_ask())
        events = 1 + -(-len(LOOP) // 64) + 3  # role, pieces, finish, usage, end
        assert fake.sent < events / 5  # the server was told to stop: it wrote no more
    assert reply.finish_reason == REPEATING
    assert reply.cut
    assert LOOP.startswith(reply.text)
    assert WINDOW <= len(reply.text) < len(LOOP) / 5
    assert reply.completion_tokens > 0  # counted as it came: no usage is sent for a stopped one
    # Judged as a cut answer: the code before the loop, the loop's whole lines after it.
    assert parse_whole(reply, "fizzbuzz.py").edits[0].content.startswith(CODE)


def test_an_answer_that_does_not_repeat_itself_is_read_to_its_end() -> None:
    long = "".join(
        f"def test_{n}() -> None:\n    assert fizzbuzz({n}) == '{n}'\n" for n in range(300)
    )
    with FakeLLM({"m": [Answer(text=long), Answer(text=LOOP, finish_reason="length")]}) as fake:
        assert _backend(fake).complete(_ask()).text == long
        # And a loop is read whole when asked to (`llm.stop_repeating: false`), in one piece,
        # as from a server that cannot stream.
        whole = _backend(fake, stop_repeating=False).complete(_ask())
        assert not fake.requests[-1].get("stream")
    assert (whole.text, whole.finish_reason) == (LOOP, "length")
    assert whole.completion_tokens == len(LOOP) // 4  # the server's own count


def test_a_server_that_cannot_count_in_a_stream_is_asked_without_and_its_chunks_counted() -> None:
    text = "".join(f"X{n} = {n}\n" for n in range(100))
    with FakeLLM({"m": [Answer(text=text, reject=frozenset({"stream_options"}))]}) as fake:
        reply = _backend(fake).complete(_ask())
        assert [bool(r.get("stream_options")) for r in fake.requests] == [True, False]
    assert reply.text == text
    assert reply.completion_tokens == -(-len(text) // 64)  # one a chunk


def test_a_streamed_answer_is_held_to_the_request_s_time_as_a_whole() -> None:
    # Each read of a stream waits at most timeout_s; an answer that keeps coming must not
    # take longer than a request may.
    slow = Answer(text="x = 1\n" * 100, pace_s=0.2)  # 10 chunks: 2 s
    with FakeLLM({"m": [slow]}) as fake, pytest.raises(InfrastructureError, match="did not answer"):
        _backend(fake, timeout_s=0.5).complete(_ask())


def _code_files() -> list[Path]:
    # Code, not the recorded demo runs (JSON lines) or the katas' prose.
    katas = [
        p for p in (ROOT / "katas").rglob("*") if p.is_file() and p.suffix not in (".md", ".jsonl")
    ]
    return [p for p in katas if p.stat().st_size > WINDOW]


@pytest.mark.parametrize("path", _code_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_bundled_kata_file_reads_as_a_loop_at_any_point(path: Path) -> None:
    # The rule must never stop a real answer: the longest code a kata holds (its tests, its
    # reference) is judged at every point a stream would be looked at.
    text = path.read_text(encoding="utf-8")
    assert not any(repeating(text[:end]) for end in range(WINDOW, len(text) + 1, 100))
