"""`bench`, `bench merge` and `score` through the entry point."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import docker
import pytest

from tests.engine.test_race_e2e import _owned_by
from tests.helpers.bench_scripts import kata_answers
from tests.helpers.cli import as_from_a_terminal, run_cli
from tests.helpers.fake_llm import Answer, FakeLLM
from tests.helpers.solutions import SOLUTIONS

KATAS = Path(__file__).resolve().parents[2] / "katas"


def test_bench_needs_models() -> None:
    result = run_cli("bench")
    assert result.returncode == 2
    assert "--models is required" in result.stderr


def test_bench_rejects_an_unknown_model_and_a_bad_shard(tmp_path: Path) -> None:
    result = run_cli("bench", "--models", "nonsense", "--out", str(tmp_path / "o"))
    assert result.returncode == 2
    assert "neither provider:model nor a bench.models entry" in result.stderr
    result = run_cli(
        "bench", "--models", "openai:x", "--shard", "3/2", "--out", str(tmp_path / "o")
    )
    assert result.returncode == 2
    assert "--shard" in result.stderr
    assert "Traceback" not in result.stderr


def test_bench_refuses_the_fake_checker_before_writing_anything(tmp_path: Path) -> None:
    # The fake checker scripts its verdicts: a score from it would mean nothing.
    out = tmp_path / "o"
    result = run_cli(
        "bench", "--models", "openai:x", "--out", str(out),
        env={"TDD_SANDBOX_SANDBOX__TYPE": "fake"},
    )  # fmt: skip
    assert result.returncode == 2, result.stderr
    assert "sandbox.type fake runs no code" in result.stderr
    assert "Traceback" not in result.stderr
    assert not out.exists()


def test_bench_checks_every_model_s_endpoint_and_key_before_the_first_job(
    tmp_path: Path,
) -> None:
    # A custom model without a base_url ran every job into a harness error and exited 0 on
    # a board of 0 / 0; a hosted one without its key lost every job to "infrastructure".
    # Both are said in one line, naming the model, before an engine is even asked for.
    out = tmp_path / "o"
    args = ("bench", "--katas", str(KATAS / "fizzbuzz"), "--out", str(out))
    env = {"DOCKER_HOST": "unix:///nonexistent/docker.sock", "OPENAI_API_KEY": ""}
    unrouted = run_cli(*args, "--models", "custom:qwen", env=env)
    assert unrouted.returncode == 2, unrouted.stderr
    assert "bench model custom:qwen: roles.tester: provider custom needs a base_url" in (
        unrouted.stderr
    )
    keyless = run_cli(*args, "--models", "openai:gpt-4.1-mini", "--mode", "implement", env=env)
    assert keyless.returncode == 3, keyless.stderr
    assert "bench model openai:gpt-4.1-mini: OPENAI_API_KEY is not set" in keyless.stderr
    assert "roles.implementer" in keyless.stderr  # the one role implement mode calls
    for result in (unrouted, keyless):
        assert "Traceback" not in result.stderr
        assert "Docker" not in result.stderr
    assert not (out / "results.jsonl").exists()


def test_a_bench_of_harness_errors_or_of_nothing_scored_is_no_result() -> None:
    from tdd_sandbox.bench.summary import refuse_unscored, summarise
    from tdd_sandbox.errors import TddSandboxError

    def job(status: str) -> dict[str, object]:
        return {"id": f"m__k__python__r1__{status}", "model": "m", "kata": "k",
                "language": "python", "repeat": 1, "status": status,
                "acceptance_pass_rate": None, "reason": "ConfigError: no base_url"}  # fmt: skip

    with pytest.raises(TddSandboxError, match="1 of 1 jobs failed in the harness"):
        refuse_unscored(summarise([job("harness_error")]))
    with pytest.raises(TddSandboxError, match="no job of 1 was scored"):
        refuse_unscored(summarise([job("interrupted")]))


def test_bench_picks_katas_by_name_and_names_them_when_none_matches(tmp_path: Path) -> None:
    out = tmp_path / "o"
    env = {"TDD_SANDBOX_LLM__BASE_URL": "http://127.0.0.1:9/v1"}
    result = run_cli("bench", "--models", "custom:m", "--katas", str(KATAS), "-k", "zebra",
                     "--out", str(out), env=env)  # fmt: skip
    assert result.returncode == 2, result.stderr
    assert "-k zebra matches no kata: there are bowling, fizzbuzz" in result.stderr
    assert not (out / "results.jsonl").exists()


def test_merge_of_a_folder_without_results(tmp_path: Path) -> None:
    result = run_cli("bench", "merge", str(tmp_path), "--out", str(tmp_path / "m"))
    assert result.returncode == 2
    assert "holds no results.jsonl" in result.stderr


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_score_a_repository(tmp_path: Path) -> None:
    repo = tmp_path / "k"
    assert run_cli("init", str(repo)).returncode == 0
    path, source = SOLUTIONS[("fizzbuzz", "python")]
    (repo / path).write_text(source)
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
    subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"],
        check=True,
    )
    result = run_cli("score", str(KATAS / "fizzbuzz"), "--repo", str(repo), "--min-rate", "1")
    assert result.returncode == 0, result.stderr
    assert "acceptance: 13/13 (100%)" in result.stdout
    assert "judged as data: the expected values never entered the sandbox" in result.stdout
    # Below --min-rate: exit 1, and the line says why.
    (repo / path).write_text("def fizzbuzz(n: int) -> str:\n    return str(n)\n")
    subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam",
         "y"], check=True,
    )  # fmt: skip
    low = run_cli("score", str(KATAS / "fizzbuzz"), "--repo", str(repo), "--min-rate", "0.5")
    assert low.returncode == 1, low.stderr
    assert "acceptance: 4/13 (31%): 9 failed; first: multiples of three > 3 is Fizz: " in low.stdout
    assert "expected 'Fizz', got '3'" in low.stdout


def test_bench_names_a_missing_kata_folder_and_a_bad_entry_key(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    result = run_cli(
        "bench", "--models", "openai:x", "--katas", str(KATAS / "fizzbuzz"),
        "--katas", str(missing), "--out", str(tmp_path / "o"),
    )  # fmt: skip
    assert result.returncode == 2
    assert f"no kata found in {missing}" in result.stderr
    config = tmp_path / "tdd.yaml"
    config.write_text('bench: {models: {q: {all: "custom:q", temprature: "0.1"}}}\n')
    result = run_cli("bench", "--models", "q", "--config", str(config), "--out", str(tmp_path))
    assert result.returncode == 2
    assert "unknown keys ['temprature']" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "o").exists()  # nothing half-made


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_a_bench_lost_to_infrastructure_fails_unless_allowed(tmp_path: Path) -> None:
    # An endpoint that refuses every connection (a closed port on loopback): every job is
    # lost to infrastructure, which CI must see as a failure, not as a ranked result.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {"TDD_SANDBOX_LLM__BASE_URL": f"http://127.0.0.1:{port}/v1",
           "TDD_SANDBOX_LLM__MAX_RETRIES": "0"}  # fmt: skip
    args = ("bench", "--models", "custom:gone", "--katas", str(KATAS / "fizzbuzz"),
            "--cycles", "1")  # fmt: skip
    lost = run_cli(*args, "--out", str(tmp_path / "a"), env=env)
    assert lost.returncode == 6, lost.stderr[-1500:]
    assert "1 of 1 jobs were lost to infrastructure" in lost.stderr
    allowed = run_cli("-v", *args, "--out", str(tmp_path / "b"), "--allow-infra-failures",
                      "--json", env=env)  # fmt: skip
    assert allowed.returncode == 0, allowed.stderr[-1500:]
    # -v says what the job cost, on the terminal and in the bench's log.
    assert re.search(r"\d+ tries, \d+ tokens, model \d+s", allowed.stderr)
    assert "tokens, model" in (tmp_path / "b" / "bench.log").read_text()
    assert "tokens, model" not in lost.stderr
    summary = json.loads(allowed.stdout)  # the summary, not the board
    assert (summary["jobs"], summary["models"][0]["infrastructure_failures"]) == (1, 1)


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_ctrl_c_records_the_running_job_as_interrupted_and_resume_reruns_it(
    tmp_path: Path, docker_client: docker.DockerClient
) -> None:
    # Ctrl-C reaches the whole process group (git and every child too). The running job must
    # be recorded as interrupted, not as a harness error such as "HEAD moved during the run";
    # no further job starts; the reports hold what finished; --resume runs it again.
    tester, implementer, refactorer = kata_answers("fizzbuzz", good=True)
    slow = [Answer(plan=implementer[0].plan, delay_s=4.0)]
    script = {"m-tester": tester * 2, "m-impl": slow + implementer, "m-ref": refactorer * 2}
    out = tmp_path / "out"
    config = tmp_path / "bench.yaml"
    roles = ("tester: custom:m-tester", "implementer: custom:m-impl", "refactorer: custom:m-ref")
    config.write_text("bench:\n  models:\n    m:\n" + "".join(f"      {r}\n" for r in roles))
    with FakeLLM(script) as fake:
        env = {**os.environ, "TDD_SANDBOX_LLM__BASE_URL": fake.base_url}
        args = [sys.executable, "-m", "tdd_sandbox", "bench", "--models", "m",
                "--katas", str(KATAS / "fizzbuzz"), "--repeats", "2", "--cycles", "2",
                "--out", str(out), "--config", str(config)]  # fmt: skip
        bench = subprocess.Popen(
            args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            start_new_session=True, preexec_fn=as_from_a_terminal,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 120
            while not any(r["model"] == "m-impl" for r in fake.requests):
                assert bench.poll() is None
                assert time.monotonic() < deadline
                time.sleep(0.1)
            os.killpg(bench.pid, signal.SIGINT)
            _, stderr = bench.communicate(timeout=90)
        finally:
            bench.kill()
        assert bench.returncode == 130, stderr[-1500:]
        assert "Traceback" not in stderr
        assert _owned_by(docker_client, bench.pid) == []
        started = list((out / "jobs").iterdir())
        assert len(started) == 1  # the other job never started
        first = json.loads((started[0] / "result.json").read_text())
        assert first["status"] == "interrupted", first
        rows = (out / "results.jsonl").read_text().splitlines()
        assert [json.loads(row)["status"] for row in rows] == ["interrupted"]
    with FakeLLM(
        {"m-tester": tester * 2, "m-impl": implementer * 2, "m-ref": refactorer * 2}
    ) as fake:
        resumed = run_cli(*args[3:], "--resume", env={"TDD_SANDBOX_LLM__BASE_URL": fake.base_url})
    assert resumed.returncode == 0, resumed.stderr[-1500:]
    rows = (out / "results.jsonl").read_text().splitlines()
    assert [json.loads(row)["status"] for row in rows] == ["completed", "completed"]
