"""Record and replay: every model exchange kept in a JSONL file, and answered from it.

A transcript's first line is a header; each further line is one exchange: the role, the
model, the messages sent and the reply. Replay answers each role's requests in the order
they were recorded, so a run repeats exactly without any endpoint or key.
"""

from __future__ import annotations

import json
import threading
from collections import defaultdict, deque
from dataclasses import asdict
from pathlib import Path
from typing import Any

from tdd_sandbox.errors import UsageError
from tdd_sandbox.llm.chat import ChatBackend, ChatReply, ChatRequest, InfrastructureError

FORMAT = "tdd-sandbox-transcript"
VERSION = 1


class TranscriptWriter:
    """Appends exchanges to one transcript file; shared by every recorder of a run."""

    def __init__(self, path: Path, header: dict[str, Any]) -> None:
        self.path = path
        self._lock = threading.Lock()
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("w", encoding="utf-8") as handle:
            handle.write(json.dumps({"format": FORMAT, "version": VERSION, **header}) + "\n")

    def write(self, request: ChatRequest, reply: ChatReply) -> None:
        """Append one exchange as a whole line."""
        entry = {
            "role": request.role,
            "model": request.model,
            "messages": request.messages,
            "reply": asdict(reply),
        }
        with self._lock, self.path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(entry) + "\n")


class Recorder:
    """Passes requests to `backend` and records each exchange."""

    def __init__(self, backend: ChatBackend, writer: TranscriptWriter) -> None:
        self.backend = backend
        self.writer = writer

    def complete(self, request: ChatRequest) -> ChatReply:
        """Answer through the wrapped backend and record the exchange."""
        reply = self.backend.complete(request)
        self.writer.write(request, reply)
        return reply


def read_header(path: Path) -> dict[str, Any]:
    """A transcript's header line alone (the exchanges are not read).

    Raises:
        UsageError: the file is missing, unreadable or not a transcript.
    """
    try:
        with path.open(encoding="utf-8") as handle:
            first = handle.readline()
    except FileNotFoundError:
        raise UsageError(
            f"transcript {path} does not exist: pass a file made by --record"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read transcript {path}: {exc}") from None
    try:
        header = json.loads(first) if first.strip() else {}
    except ValueError:
        header = {}
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise UsageError(
            f"{path} is not a tdd-sandbox transcript: make one with `run --record FILE`"
        )
    return header


def check_transcript(
    path: Path, kata: str, language: str | None, *, race: list[int] | None = None
) -> str | None:
    """The language a transcript was recorded in, after checking it fits this run: a
    transcript of another kata, of another language than the one asked for, or of a run that
    raced another number of attempts than `race` (implementers, refactorers) is refused.
    Racing attempts ask in an order no transcript holds: one recorded before runs said how
    many they raced was recorded from one attempt at a time.

    Raises:
        UsageError: it does not fit, or is no transcript; the message names both sides.
    """
    header = read_header(path)
    recorded_race = list(header.get("race") or [1, 1])
    if race is not None and recorded_race != race:
        raise UsageError(
            f"transcript {path} was recorded racing {_raced(recorded_race)}; this run races "
            f"{_raced(race)}: replay it with --parallel {recorded_race[0]} and "
            f"parallel_refactor {recorded_race[1]}, as it was recorded"
        )
    recorded_kata, recorded_language = header.get("kata"), header.get("language")
    if recorded_kata and recorded_kata != kata:
        raise UsageError(
            f"transcript {path} was recorded for kata {recorded_kata!r}; this run is {kata!r}: "
            "replay it with the kata it was recorded for"
        )
    if recorded_language and language and recorded_language != language:
        raise UsageError(
            f"transcript {path} was recorded in {recorded_language}; this run is in {language}: "
            f"pass -l {recorded_language} (or no language at all)"
        )
    return str(recorded_language) if recorded_language else None


def _raced(race: list[int]) -> str:
    implementers, refactorers = race
    return f"{implementers} implementer and {refactorers} refactorer attempts at once"


class Replayer:
    """Answers each role's requests from a transcript, in recorded order."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._queues: dict[str, deque[ChatReply]] = defaultdict(deque)
        self._lock = threading.Lock()
        self.models: dict[str, str] = {}
        """The model each role was recorded with (its first exchange's)."""
        self.header = self._load(path)

    def _load(self, path: Path) -> dict[str, Any]:
        header = read_header(path)
        try:
            for line in path.read_text(encoding="utf-8").splitlines()[1:]:
                if line.strip():
                    entry = json.loads(line)
                    self._queues[str(entry["role"])].append(ChatReply(**entry["reply"]))
                    self.models.setdefault(str(entry["role"]), str(entry["model"]))
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"cannot read transcript {path}: {exc}") from None
        except (ValueError, KeyError, TypeError):
            raise UsageError(
                f"{path} is not a tdd-sandbox transcript: make one with `run --record FILE`"
            ) from None
        return header

    def complete(self, request: ChatRequest) -> ChatReply:
        """The next recorded reply for the request's role.

        Raises:
            InfrastructureError: the transcript has no answer left for this role.
        """
        with self._lock:
            queue = self._queues.get(request.role)
            if not queue:
                raise InfrastructureError(
                    f"transcript {self.path} has no more answers for the {request.role}: "
                    "it was recorded from a different run"
                )
            return queue.popleft()
