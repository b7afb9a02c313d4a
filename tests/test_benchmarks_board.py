"""The standard board's subset (`benchmarks/standard_board.py`): a rule over names, not a
pick by hand, with as many exercises in every language."""

from __future__ import annotations

import argparse
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from benchmarks import standard_board
from benchmarks.standard_board import LANGUAGES, check_answer_limit, pick, subset


def test_the_rule_takes_evenly_spaced_names_in_sorted_order() -> None:
    names = [f"e{i:02d}" for i in range(26)][::-1]  # given in any order
    picked = pick(names, 8)
    assert picked == ["e00", "e03", "e06", "e09", "e13", "e16", "e19", "e22"]
    assert pick(names[:5], 8) == sorted(names[:5])  # fewer than asked: all of them


def test_every_language_gets_its_count_from_a_set_laid_out_as_aider_s(tmp_path: Path) -> None:
    for index, language in enumerate(LANGUAGES):
        practice = tmp_path / language / "exercises" / "practice"
        for number in range(20 + 5 * index):
            (practice / f"exercise-{number:02d}").mkdir(parents=True)
        (practice / "not-an-exercise.md").write_text("")
    for language in LANGUAGES:
        chosen = subset(tmp_path, language, 8)
        assert len(chosen) == 8
        assert all(path.is_dir() for path in chosen)
        assert chosen[0].name == "exercise-00"


class _Tokenizer(BaseHTTPRequestHandler):
    """llama.cpp's `/tokenize`, a token every four characters."""

    def do_POST(self) -> None:
        asked = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        body = json.dumps({"tokens": [0] * (len(asked["content"]) // 4)}).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        del args


@pytest.fixture
def tokenizer() -> Iterator[int]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Tokenizer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()


def test_the_answer_limit_must_hold_the_longest_reference_and_half_again(
    tmp_path: Path, tokenizer: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    reference = tmp_path / "work" / "katas" / "go" / "bowling" / "reference" / "go"
    reference.mkdir(parents=True)
    (reference / "bowling.go").write_text("x" * 4000)  # 1,000 tokens
    monkeypatch.setattr(standard_board, "SERVERS", {"m": ("model", tokenizer)})
    config = tmp_path / "board.yaml"
    monkeypatch.setattr(standard_board, "CONFIG", config)
    args = argparse.Namespace(languages=["go"], models=["m"], work=tmp_path / "work")
    config.write_text("llm: {max_tokens: 1024}\n")
    with pytest.raises(SystemExit, match=r"\(1000 tokens: bowling in go, m\): raise it to 1500"):
        check_answer_limit(args)
    config.write_text("llm: {max_tokens: 1500}\n")
    assert "the longest reference is 1000 (bowling in go, m)" in check_answer_limit(args)
