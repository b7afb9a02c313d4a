"""The standard board's subset (`benchmarks/standard_board.py`): a rule over names, not a
pick by hand, with as many exercises in every language."""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from benchmarks import sitting, standard_board
from benchmarks.standard_board import (
    CONFIG,
    FORMATS,
    LANGUAGES,
    SERVERS,
    bench,
    check_answer_limit,
    pick,
    subset,
)
from tdd_sandbox.bench.jobs import resolve_models
from tdd_sandbox.settings import load_settings
from tests.bench.test_standings import job

ROOT = Path(__file__).resolve().parents[1]


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


def test_a_track_s_easy_exercises_are_picked_by_its_own_rating(tmp_path: Path) -> None:
    track = tmp_path / "python"
    rated = {f"e{i:02d}": 1 + i % 4 for i in range(24)}  # ratings 1-4, six of each
    for name in [*rated, "gone", "unrated"]:
        (track / "exercises" / "practice" / name).mkdir(parents=True)
    practice = [{"slug": slug, "difficulty": level} for slug, level in rated.items()]
    practice.append({"slug": "gone", "difficulty": 1, "status": "deprecated"})
    (track / "config.json").write_text(json.dumps({"exercises": {"practice": practice}}))
    chosen = [path.name for path in subset(tmp_path, "python", 8, max_difficulty=2)]
    easy = sorted(name for name, level in rated.items() if level <= 2)
    assert chosen == pick(easy, 8)
    assert set(standard_board.difficulties(track)) == set(rated)  # not "gone", "unrated"
    assert len(subset(tmp_path, "python", 8)) == 8  # no rating asked: every folder counts


def test_a_rating_asked_of_a_set_without_one_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "go" / "exercises" / "practice" / "leap").mkdir(parents=True)
    with pytest.raises(SystemExit, match=r"config\.json.*exercism/go"):
        subset(tmp_path, "go", 8, max_difficulty=2)


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
    # shutdown() waits for the next poll: the default half second, on every test.
    threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
    ).start()
    yield server.server_address[1]
    server.shutdown()


def test_each_model_in_each_format_is_a_condition_on_its_own_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[list[str]] = []
    monkeypatch.setattr(standard_board, "run_stoppably", asked.append)
    args = argparse.Namespace(
        models=["qwen-0.5b", "smollm2-135m"], formats=["whole", "diff"], work=tmp_path, jobs=1
    )
    bench(args, "python")
    conditions = asked[0][asked[0].index("--models") + 1].split(",")
    assert conditions == ["qwen-0.5b-whole", "qwen-0.5b-diff", "smollm2-135m-whole",
                          "smollm2-135m-diff"]  # fmt: skip
    # Every condition the board can ask for is one the bench's own reading of the config
    # knows, asked in its format on its model's server.
    every = [f"{model}-{form}" for model in SERVERS for form in FORMATS]
    entries = resolve_models(every, load_settings(CONFIG).bench)
    for entry, name in zip(entries, every, strict=True):
        model, form = name.rsplit("-", 1)
        assert dict(entry.options)["edit_format"] == form
        assert dict(entry.options)["base_url"] == f"http://127.0.0.1:{SERVERS[model][1]}/v1"


def test_a_format_or_model_the_board_has_not_is_a_clear_error() -> None:
    board = [sys.executable, str(ROOT / "benchmarks" / "standard_board.py"), "--exercises", "x",
             "--specs", "y"]  # fmt: skip
    for wrong in (["--formats", "whole,udiff"], ["--models", "qwen-7b"]):
        done = subprocess.run([*board, *wrong], capture_output=True, text=True, check=False)
        assert done.returncode != 0
        assert done.stderr.count("\n") == 1
        assert f"unknown: {wrong[1].split(',')[-1]};" in done.stderr
        assert "formats: whole, diff, json" in done.stderr


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


def test_a_stopped_board_stops_its_bench_as_a_signal_would(tmp_path: Path) -> None:
    # SIGTERM killed the board outright: its bench died unrecorded, and the models' servers
    # kept their ports. Now the board unwinds, and the bench it runs gets SIGTERM, and time.
    told = tmp_path / "told"
    child = (
        "import signal, sys, time\n"
        f"def stop(signum, frame):\n    open({str(told)!r}, 'w').write(str(signum))\n"
        "    sys.exit(130)\n"
        "signal.signal(signal.SIGTERM, stop)\nprint('ready', flush=True)\ntime.sleep(60)\n"
    )
    board = (
        "import signal, sys\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from benchmarks.sitting import run_stoppably, stopped\n"
        "signal.signal(signal.SIGTERM, stopped)\n"
        "try:\n"
        f"    run_stoppably([sys.executable, '-c', {child!r}])\n"
        "except KeyboardInterrupt:\n    print('unwound', flush=True)\n"
    )
    started = subprocess.Popen([sys.executable, "-c", board], stdout=subprocess.PIPE, text=True)
    assert started.stdout is not None
    assert started.stdout.readline().strip() == "ready"
    started.send_signal(signal.SIGTERM)
    out, _ = started.communicate(timeout=60)
    assert out.strip() == "unwound"
    assert told.read_text() == str(int(signal.SIGTERM))


def _published(folder: Path, results: list[dict[str, str]]) -> None:
    folder.mkdir(parents=True)
    lines = "".join(json.dumps(result) + "\n" for result in results)
    (folder / "results.jsonl").write_text(lines)
    for result in results:
        job = folder / "jobs" / str(result["id"])
        job.mkdir(parents=True)
        (job / "transcript.jsonl").write_text(f'{{"job": "{result["id"]}"}}\n')


def test_a_fresh_machine_resumes_from_the_published_board(tmp_path: Path) -> None:
    # The work folder is not committed: a sitting on a new machine found none and began the
    # board again from nothing (19 Java jobs, about 45 minutes of models, lost). Now the
    # published board's jobs go back where `bench --resume` reads them.
    published, work = tmp_path / "published", tmp_path / "work"
    java = {
        "id": "m__bowling__java__r1__implement",
        "language": "java",
        "status": "completed",
    }
    go = {
        "id": "m__grep__go__r1__implement",
        "language": "go",
        "status": "failed",
    }
    _published(published, [java, go])
    mine = work / "runs" / "go" / "jobs" / go["id"] / "result.json"
    mine.parent.mkdir(parents=True)
    mine.write_text('{"status": "completed"}')  # this machine's own, newer result
    assert sitting.seed(published, work) == 1
    back = work / "runs" / "java" / "jobs" / java["id"]
    assert json.loads((back / "result.json").read_text()) == java
    assert (back / "transcript.jsonl").read_text() == f'{{"job": "{java["id"]}"}}\n'
    assert json.loads(mine.read_text()) == {"status": "completed"}  # kept, not overwritten
    assert sitting.seed(published, work) == 0  # a second sitting puts back none
    assert sitting.seed(tmp_path / "never-published", work) == 0


def test_a_job_killed_before_its_result_is_put_back_too(tmp_path: Path) -> None:
    # kill -9 mid-job leaves the job's folder (its repository) and no result.json: putting
    # the published result back there stopped the board with FileExistsError.
    published, work = tmp_path / "published", tmp_path / "work"
    job = {"id": "m__bowling__java__r1__implement", "language": "java", "status": "completed"}
    _published(published, [job])
    (work / "runs" / "java" / "jobs" / job["id"] / "repo").mkdir(parents=True)
    assert sitting.seed(published, work) == 1
    assert (work / "runs" / "java" / "jobs" / job["id"] / "result.json").is_file()


def test_a_bench_that_fails_fails_the_board(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # With the engine down, every language's bench stopped at once with an error, and the
    # board published the board it had and exited 0: a wrong result that looked finished.
    monkeypatch.setattr(standard_board, "serve", lambda *args, **kwargs: None)
    monkeypatch.setattr(standard_board, "check_answer_limit", lambda args: "limit checked")
    monkeypatch.setattr(standard_board, "import_katas", lambda args, language, into: None)
    published: list[list[Path]] = []
    monkeypatch.setattr(
        standard_board, "report", lambda args, runs, started: published.append(runs)
    )
    # An earlier sitting finished some of Python's jobs: what there is is still published.
    earlier = tmp_path / "work" / "runs" / "python" / "results.jsonl"
    earlier.parent.mkdir(parents=True)
    earlier.write_text("")
    monkeypatch.setattr(sys, "argv", [
        "standard_board.py", "--exercises", str(tmp_path), "--specs", str(tmp_path),
        "--languages", "python,go", "--models", "qwen-0.5b",
        "--work", str(tmp_path / "work"), "--out", str(tmp_path / "out"),
    ])  # fmt: skip
    with pytest.raises(SystemExit) as stopped:
        standard_board.main()
    said = str(stopped.value.code)
    assert "python, go" in said
    assert "run the same command again" in said
    assert published == [[earlier.parent]]


def test_a_sitting_that_asks_fewer_models_publishes_the_whole_board(tmp_path: Path) -> None:
    # The reach board's sitting that asked the two Qwen models for `diff` published a board
    # without the 135M: its jobs were in the work folder, put back from the published board,
    # but the bench reports the conditions it was asked for, and the board was its report.
    published, work = tmp_path / "published", tmp_path / "work"
    earlier = [job("small", "k0", 0.1), job("small", "k1", 0.0)]
    _published(published, earlier)
    run = work / "runs" / "python"
    ran = [job("large-diff", "k0", 0.9), job("large-diff", "k1", 0.7)]
    (run / "jobs").mkdir(parents=True)
    (run / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in ran))
    for result in ran:
        (run / "jobs" / str(result["id"])).mkdir()
        (run / "jobs" / str(result["id"]) / "transcript.jsonl").write_text("{}\n")
    assert sitting.seed(published, work) == 2  # as a sitting begins: the published put back
    args = argparse.Namespace(out=published, work=work)
    standard_board.report(args, [run], 0.0)
    board = [json.loads(line) for line in (published / "results.jsonl").read_text().splitlines()]
    assert sorted(r["model"] for r in board) == ["large-diff", "large-diff", "small", "small"]
    held = sorted(p.parent.name for p in (published / "jobs").glob("*/transcript.jsonl"))
    assert held == sorted(str(r["id"]) for r in earlier + ran)
