"""A run blocked somewhere, and a signal sent to it: the scenario that `tests/engine/test_stop.py`
checks and `benchmarks/stop.py` times.

The test proves that a signal ends the run cleanly, long before what it was blocked on (ten
minutes) could end (`PROMPTLY_S`); the benchmark prints how soon.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import docker

from tests.engine.test_race_e2e import HANGS, TEST, _answer, _killed, _owned_by
from tests.helpers.cli import as_from_a_terminal, wait_until
from tests.helpers.fake_llm import Answer, FakeLLM, plan
from tests.helpers.katas import PY_IMPLS
from tests.helpers.runs import KATAS, ROLES

BLOCKED_S = 600.0
"""How long the model request or the gate a run is blocked on would take."""

SLEEPS = plan(
    ("tests/test_fizzbuzz.py",
     f"import time\n\n\ndef test_waits() -> None:\n    time.sleep({BLOCKED_S:.0f})\n"),
    message="test(fizzbuzz): waits",
)  # fmt: skip
"""A tester's test whose red gate runs for ten minutes."""


def _slow(answer: Answer, seconds: float = BLOCKED_S) -> Answer:
    answer.delay_s = seconds
    return answer


PLACES: dict[str, dict[str, list[Answer]]] = {
    # The first request of the run, held by the endpoint.
    "model": {"tester": [_slow(plan(("tests/test_x.py", "")))]},
    # The red gate of the tester's test, sleeping in its container.
    "gate": {"tester": [SLEEPS]},
    # Three implementers: two hang in their test gate, one waits on its endpoint.
    "race": {
        "tester": [TEST],
        "implementer": [_answer(HANGS), _answer(HANGS), _answer(PY_IMPLS[0], delay=BLOCKED_S)],
    },
}
"""Where a run is blocked when the signal comes, and the scripted answers that block it there."""


def start_run(repo: Path, fake: FakeLLM) -> subprocess.Popen[str]:
    """`tdd-sandbox run` on FizzBuzz with three racing implementers, as from a terminal."""
    env = {
        **os.environ,
        "TDD_SANDBOX_LLM__BASE_URL": fake.base_url,
        "TDD_SANDBOX_LLM__TIMEOUT_S": "900",
        "TDD_SANDBOX_SANDBOX__TIMEOUT_S": "900",
        **{f"TDD_SANDBOX_ROLES__{r.upper()}__MODEL": f"custom:{r}" for r in ROLES},
    }
    return subprocess.Popen(
        [sys.executable, "-m", "tdd_sandbox", "run", str(KATAS / "fizzbuzz" / "kata.md"),
         "--repo", str(repo), "--language", "python", "--parallel", "3", "--json"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=as_from_a_terminal,
    )  # fmt: skip


def blocked(
    place: str, repo: Path, fake: FakeLLM, client: docker.DockerClient
) -> Callable[[subprocess.Popen[str]], bool]:
    """Whether the run is now blocked where `place` says."""

    def check(run: subprocess.Popen[str]) -> bool:
        if place == "model":
            return len(fake.requests) == 1
        if place == "gate":
            return len(fake.requests) == 1 and _gate_running(client, run.pid)
        worktrees = list((repo / ".git" / "tdd-worktrees").glob("*/*"))
        asked = [r for r in fake.requests if r["model"] == "implementer"]
        return len(worktrees) == 3 and len(asked) == 3 and _gate_running(client, run.pid, 2)

    return check


def _gate_running(client: docker.DockerClient, pid: int, count: int = 1) -> bool:
    """`count` of the run's containers are running pytest."""
    busy = 0
    for container_id in _owned_by(client, pid):
        try:
            top = client.api.top(container_id)
        except docker.errors.APIError:
            continue  # removed between the listing and the look
        busy += any("pytest" in " ".join(row) for row in top.get("Processes") or [])
    return busy >= count


def stop_blocked_run(
    place: str, signum: int, repo: Path, client: docker.DockerClient
) -> tuple[int, float, list[str], str]:
    """Start a run, wait until it is blocked at `place`, send `signum`: its exit code, the
    seconds from the signal to its end, the containers it left behind, and its stderr."""
    with FakeLLM(PLACES[place]) as fake:
        run = start_run(repo, fake)
        try:
            wait_until(
                lambda: blocked(place, repo, fake, client)(run),
                run,
                timeout_s=180,
                what=f"the run never blocked in its {place}",
            )
            sent = time.monotonic()
            run.send_signal(signum)
            code = run.wait(timeout=60)
            took = time.monotonic() - sent
        finally:
            left = _killed(client, run)
    stderr = run.stderr.read() if run.stderr else ""
    return code, took, left, stderr
