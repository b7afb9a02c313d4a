"""A completion read as it streams, stopped once it only repeats itself.

A small model that falls into a loop writes one stretch of text over and over until the token
limit. On the standard board the 135M spent 98 of its 102 minutes of model time in answers
cut at the limit, 89 of them in a tail that was one stretch repeated; read as it came, each
such answer was told from its first 27% on average. An answer whose last `WINDOW` characters
are one stretch of at most `PERIOD` characters repeated (four times at least) is stopped
there and judged as one the token limit cut: all it would have added is more of the same.
Code the model wrote before its loop is judged as it stands, as after a cut.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

REPEATING = "repeating"
"""The finish reason of an answer stopped for repeating itself (`ChatReply.cut`)."""
WINDOW = 2_000
"""How many of the last characters must be one stretch repeated: more than any run of
identical lines a kata's code or tests hold, and about 500 tokens of a loop."""
PERIOD = 500
"""The longest stretch whose repetition counts (a loop of a few lines)."""
_EVERY = 200
"""Characters of new text between two looks: a look compares up to 500 slices."""


def repeating(text: str) -> bool:
    """Whether `text` ends in `WINDOW` characters that are one stretch of at most `PERIOD`
    characters repeated."""
    if len(text) < WINDOW:
        return False
    tail = text[-WINDOW:]
    return any(tail[shift:] == tail[:-shift] for shift in range(1, PERIOD + 1))


@dataclass
class Streamed:
    """What the non-streamed API would have answered, assembled from the chunks."""

    text: str = ""
    tool_arguments: str | None = None
    finish_reason: str = "error"
    """"error" until the stream says how it ended (one that breaks off says nothing)."""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    """The server's count; where it sent none (an answer stopped here, a server that does not
    count in streams), the chunks: servers send a token a chunk."""
    chunks: int = 0


class Overdue(Exception):
    """The answer was still coming when the request's time ran out."""


def read(chunks: Iterator[Any], *, deadline: float) -> Streamed | None:
    """The completion the chunks of a `stream=True` request make, stopped (`REPEATING`) once
    it repeats itself; None when not one chunk came (not the chat API: an HTML
    page, a proxy's answer). The caller closes the stream.

    Raises:
        Overdue: `deadline` (a `time.monotonic()` value) passed while chunks still came.
    """
    answer = Streamed()
    seen = False
    text, arguments = "", ""  # locals: `+=` on a local string extends it in place
    looked = 0
    for chunk in chunks:
        seen = True
        if time.monotonic() > deadline:
            raise Overdue
        if (usage := getattr(chunk, "usage", None)) is not None:
            answer.prompt_tokens = usage.prompt_tokens or 0
            answer.completion_tokens = usage.completion_tokens or 0
        for choice in getattr(chunk, "choices", None) or []:
            delta = choice.delta
            if delta is not None and delta.content:
                text += delta.content
                answer.chunks += 1
            for call in (delta.tool_calls or []) if delta is not None else []:
                if call.index == 0 and call.function is not None and call.function.arguments:
                    arguments += call.function.arguments
                    answer.chunks += 1
            if choice.finish_reason is not None:
                answer.finish_reason = str(choice.finish_reason)
        if len(text) + len(arguments) - looked >= _EVERY:
            looked = len(text) + len(arguments)
            if repeating(text) or repeating(arguments):
                answer.finish_reason = REPEATING
                break
    answer.text, answer.tool_arguments = text, arguments or None
    if not answer.completion_tokens:  # a server that sent no count
        answer.completion_tokens = answer.chunks
    return answer if seen else None


def whole(response: Any) -> Streamed | None:
    """The same for an answer sent in one piece; None when it is not the chat API's (an HTML
    page, a proxy's answer)."""
    if not hasattr(response, "choices"):
        return None
    choice = response.choices[0] if response.choices else None
    usage = response.usage
    calls = (choice.message.tool_calls or []) if choice is not None else []
    arguments = next(
        (call.function.arguments for call in calls if getattr(call, "function", None)), None
    )
    return Streamed(
        text=(choice.message.content or "") if choice is not None else "",
        tool_arguments=arguments,
        finish_reason=str(choice.finish_reason) if choice is not None else "error",
        prompt_tokens=usage.prompt_tokens if usage else 0,
        completion_tokens=usage.completion_tokens if usage else 0,
    )
