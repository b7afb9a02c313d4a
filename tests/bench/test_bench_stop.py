"""A signal stops a bench at once in every mode, whatever its jobs wait on, and `--resume`
runs the stopped jobs again (issue 27, item 3)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import docker
import pytest

from tdd_sandbox.katas.importer import import_katas
from tests.bench.test_implement_mode import FIZZ, LEAP
from tests.bench.test_tester_mode import THOROUGH
from tests.engine.test_race_e2e import _owned_by
from tests.helpers.bench_scripts import kata_answers
from tests.helpers.cli import PROMPTLY_S, as_from_a_terminal, run_cli, wait_until
from tests.helpers.fake_llm import Answer, FakeLLM

pytestmark = [pytest.mark.docker, pytest.mark.usefixtures("images")]
ROOT = Path(__file__).resolve().parents[2]


def _slow(answer: Answer) -> Answer:
    return Answer(plan=answer.plan, delay_s=600)


def _scripts(mode: str) -> tuple[dict[str, list[Answer]], dict[str, list[Answer]]]:
    """The first bench's answers (the asked role's first answer held for ten minutes), and
    the resumed bench's."""
    if mode == "tdd":
        tester, implementer, refactorer = kata_answers("fizzbuzz", good=True)
        first = {"m-tester": tester, "m-impl": [_slow(implementer[0])], "m-ref": refactorer}
        return first, {"m-tester": tester, "m-impl": implementer, "m-ref": refactorer}
    if mode == "implement":
        return {"m-impl": [_slow(FIZZ)]}, {"m-impl": [FIZZ]}
    return {"m-tester": [_slow(THOROUGH)]}, {"m-tester": [THOROUGH]}


@pytest.mark.parametrize(
    ("mode", "signum"),
    [("tdd", signal.SIGINT), ("implement", signal.SIGTERM), ("test", signal.SIGHUP)],
    ids=["tdd-SIGINT", "implement-SIGTERM", "test-SIGHUP"],
)
def test_a_signal_stops_a_bench_at_once_and_resume_finishes_it(
    tmp_path: Path, docker_client: docker.DockerClient, mode: str, signum: int
) -> None:
    katas = tmp_path / "katas"
    if mode == "test":
        import_katas([LEAP], katas)  # test mode needs a reference to measure tests on
    else:
        shutil.copytree(ROOT / "katas" / "fizzbuzz", katas / "fizzbuzz")
    config = tmp_path / "bench.yaml"
    roles = ("tester: custom:m-tester", "implementer: custom:m-impl", "refactorer: custom:m-ref")
    config.write_text("bench:\n  models:\n    m:\n" + "".join(f"      {r}\n" for r in roles))
    out = tmp_path / "out"
    args = ["bench", "--models", "m", "--katas", str(katas), "--mode", mode, "--cycles", "2",
            "--out", str(out), "--config", str(config)]  # fmt: skip
    first, again = _scripts(mode)
    with FakeLLM(first) as fake:
        env = {**os.environ, "TDD_SANDBOX_LLM__BASE_URL": fake.base_url,
               "TDD_SANDBOX_LLM__TIMEOUT_S": "900"}  # fmt: skip
        bench = subprocess.Popen(
            [sys.executable, "-m", "tdd_sandbox", *args], env=env, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, preexec_fn=as_from_a_terminal,
        )  # fmt: skip
        try:
            held = "m-tester" if mode == "test" else "m-impl"
            wait_until(lambda: any(r["model"] == held for r in fake.requests), bench, timeout_s=180)
            sent = time.monotonic()
            bench.send_signal(signum)
            _, stderr = bench.communicate(timeout=60)
            took = time.monotonic() - sent
        finally:
            bench.kill()
    assert bench.returncode == 130, stderr[-1500:]
    print(f"stopped in {took:.2f} s")  # shown with -s
    assert took <= PROMPTLY_S, f"{took:.1f} s to stop"
    assert "Traceback" not in stderr
    assert _owned_by(docker_client, bench.pid) == []
    rows = [json.loads(row) for row in (out / "results.jsonl").read_text().splitlines()]
    assert [row["status"] for row in rows] == ["interrupted"]
    with FakeLLM(again) as fake:
        resumed = run_cli(*args, "--resume", env={"TDD_SANDBOX_LLM__BASE_URL": fake.base_url})
    assert resumed.returncode == 0, resumed.stderr[-1500:]
    rows = [json.loads(row) for row in (out / "results.jsonl").read_text().splitlines()]
    assert [row["status"] for row in rows] == ["completed"]
    assert rows[0]["acceptance_pass_rate"] > 0
