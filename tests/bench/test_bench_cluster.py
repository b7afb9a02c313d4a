"""The same bench wherever it runs (issue 28): on this machine or as tasks on a real
two-node Ray cluster, under runc or under gVisor, it gives the same scores; a job lost with
its node runs again and is never scored half-done."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import docker
import pytest

from tdd_sandbox.bench.mode import Mode
from tdd_sandbox.bench.pipeline import BenchOptions, run_bench
from tdd_sandbox.sandbox.labels import LABEL, OWNER_LABEL, owner_alive
from tdd_sandbox.settings import load_settings
from tests.helpers.cli import PROMPTLY_S, as_from_a_terminal, run_cli, wait_until
from tests.helpers.fake_llm import Answer, FakeLLM, plan
from tests.helpers.solutions import SOLUTIONS

if TYPE_CHECKING:
    from ray.cluster_utils import Cluster

# A cluster of three Ray nodes takes this machine's two cores: nothing runs beside it.
pytestmark = [pytest.mark.docker, pytest.mark.alone, pytest.mark.usefixtures("images")]
ROOT = Path(__file__).resolve().parents[2]
KATAS = ("fizzbuzz", "roman-numerals")
LANGUAGES = ["python", "go"]
VOLATILE = {"wall_time_s", "model_time_s", "gate_time_s", "tokens", "reason", "sandbox"}


def _asked(body: dict[str, Any]) -> tuple[str, str]:
    """The kata and language a request is about, read from its prompt (jobs on a cluster ask
    in any order, so answers go by content, not by turn)."""
    text = json.dumps(body.get("messages", [])).lower()
    kata = "roman-numerals" if "roman" in text else "fizzbuzz"
    return kata, "go" if "go.mod" in text or ".go" in text else "python"


def _good(body: dict[str, Any]) -> Answer:
    return plan(SOLUTIONS[_asked(body)], message="feat: solve")


def _bad(body: dict[str, Any]) -> Answer:
    """Always the fizzbuzz answer: right for fizzbuzz, wrong for roman numerals."""
    return plan(SOLUTIONS[("fizzbuzz", _asked(body)[1])], message="feat: solve")


def _slow_good(body: dict[str, Any]) -> Answer:
    answer = _good(body)
    return Answer(plan=answer.plan, delay_s=3)


RESPONDERS = {"good-impl": _good, "bad-impl": _bad, "slow-impl": _slow_good}


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    """A head with no engine and two nodes offering one `docker` slot each."""
    # Imported here, not at collection: Ray takes a second to import in every worker of
    # the Docker-free tier, which deselects this module after collecting it.
    import ray
    from ray.cluster_utils import Cluster

    made = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    for _ in range(2):
        made.add_node(num_cpus=1, resources={"docker": 1})
    made.wait_for_nodes()
    ray.init(address=made.address, log_to_driver=False)
    try:
        yield made
    finally:
        ray.shutdown()
        made.shutdown()  # type: ignore[no-untyped-call]


@pytest.fixture
def katas(tmp_path: Path) -> Path:
    folder = tmp_path / "katas"
    for name in KATAS:
        shutil.copytree(ROOT / "katas" / name, folder / name)
    return folder


def _bench(
    katas: Path, out: Path, base_url: str, models: list[str], **bench: Any
) -> dict[str, Any]:
    entries = {name: {"all": f"custom:{name}-impl"} for name in models}
    overrides: dict[str, Any] = {"llm": {"base_url": base_url}, "bench": {"models": entries}}
    runtime = bench.pop("runtime", None)
    if runtime:
        overrides["sandbox"] = {"runtime": runtime}
    overrides["bench"].update(bench)
    options = BenchOptions(
        models=models, katas=[katas], languages=LANGUAGES, repeats=1, out=out, jobs=2,
        mode=Mode.IMPLEMENT,
    )  # fmt: skip
    return run_bench(options, load_settings(overrides=overrides))


def _rows(out: Path) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    return [{k: v for k, v in row.items() if k not in VOLATILE} for row in rows]


def test_a_bench_scores_the_same_locally_on_a_ray_cluster_and_under_gvisor(
    tmp_path: Path, katas: Path, cluster: Cluster
) -> None:
    with FakeLLM({}, RESPONDERS) as fake:
        local = _bench(katas, tmp_path / "local", fake.base_url, ["good", "bad"])
        on_ray = _bench(
            katas, tmp_path / "ray", fake.base_url, ["good", "bad"],
            executor="ray", ray_address=cluster.address,
        )  # fmt: skip
        gvisor = _bench(katas, tmp_path / "runsc", fake.base_url, ["good", "bad"], runtime="runsc")
    good, bad = local["models"]
    assert (good["model"], good["acceptance_pass_rate"]) == ("good", 1.0)
    assert bad["acceptance_pass_rate"] < 1.0
    assert len(_rows(tmp_path / "local")) == 8
    assert _rows(tmp_path / "ray") == _rows(tmp_path / "local")
    assert _rows(tmp_path / "runsc") == _rows(tmp_path / "local")
    for summary in (on_ray, gvisor):
        assert [m["acceptance_pass_rate"] for m in summary["models"]] == [
            m["acceptance_pass_rate"] for m in local["models"]
        ]
    # Each job's folder came back from its node: the repository and its journal.
    for job in (tmp_path / "ray" / "jobs").iterdir():
        assert (job / "result.json").is_file()
    runtimes = {
        json.loads(line)["sandbox"]["runtime"]
        for line in (tmp_path / "runsc" / "results.jsonl").read_text().splitlines()
    }
    assert runtimes == {"runsc"}


def test_a_job_lost_with_its_node_runs_again_elsewhere_and_is_never_scored_half_done(
    tmp_path: Path, katas: Path, cluster: Cluster, docker_client: docker.DockerClient
) -> None:
    doomed = next(iter(cluster.worker_nodes))
    cluster.add_node(num_cpus=1, resources={"docker": 1})  # two nodes still, after the loss
    cluster.wait_for_nodes()
    with FakeLLM({}, RESPONDERS) as fake:
        # Once the first requests are in flight (every job waits 3 s on its model), one node
        # goes, and the jobs it ran with it.
        def kill_a_node() -> None:
            deadline = time.monotonic() + 120
            while len(fake.requests) < 2 and time.monotonic() < deadline:
                time.sleep(0.05)
            cluster.remove_node(doomed, allow_graceful=False)

        killer = threading.Thread(target=kill_a_node)
        killer.start()
        summary = _bench(
            katas, tmp_path / "ray", fake.base_url, ["slow"],
            executor="ray", ray_address=cluster.address,
        )  # fmt: skip
        killer.join()
        asked = len(fake.requests)
    # What the killed jobs had started was removed by the jobs that ran after them.
    assert _owned_by_the_dead(docker_client) == []
    raw = (tmp_path / "ray" / "results.jsonl").read_text().splitlines()
    said = [(row["status"], row.get("reason")) for row in map(json.loads, raw)]
    assert {status for status, _ in said} == {"completed"}, said
    [slow] = summary["models"]
    assert slow["acceptance_pass_rate"] == 1.0
    assert asked > 4  # four jobs, one try each: the lost ones asked again


def _owned_by_the_dead(client: docker.DockerClient) -> list[str]:
    left = client.containers.list(all=True, filters={"label": LABEL})
    return [c.short_id for c in left if not owner_alive(c.labels.get(OWNER_LABEL, ""))]


def test_ctrl_c_stops_a_bench_on_ray_and_resume_finishes_it(
    tmp_path: Path, katas: Path, cluster: Cluster, docker_client: docker.DockerClient
) -> None:
    config = tmp_path / "bench.yaml"
    config.write_text("bench:\n  models:\n    m:\n      all: custom:m-impl\n")
    out = tmp_path / "out"
    args = ["bench", "--models", "m", "--katas", str(katas / "fizzbuzz"), "--mode",
            "implement", "--executor", "ray", "--out", str(out),
            "--config", str(config)]  # fmt: skip
    held = {"m-impl": lambda body: Answer(plan=_good(body).plan, delay_s=600)}
    with FakeLLM({}, held) as fake:
        env = {**os.environ, "TDD_SANDBOX_LLM__BASE_URL": fake.base_url,
               "TDD_SANDBOX_BENCH__RAY_ADDRESS": cluster.address}  # fmt: skip
        bench = subprocess.Popen(
            [sys.executable, "-m", "tdd_sandbox", *args], env=env, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, preexec_fn=as_from_a_terminal,
        )  # fmt: skip
        try:
            wait_until(lambda: bool(fake.requests), bench)
            sent = time.monotonic()
            bench.send_signal(signal.SIGINT)
            _, stderr = bench.communicate(timeout=60)
            took = time.monotonic() - sent
        finally:
            bench.kill()
    assert bench.returncode == 130, stderr[-1500:]
    print(f"stopped in {took:.2f} s")
    assert took <= PROMPTLY_S, f"{took:.1f} s to stop"
    assert "Traceback" not in stderr
    assert _owned_by_the_dead(docker_client) == []
    rows = [json.loads(row) for row in (out / "results.jsonl").read_text().splitlines()]
    assert [row["status"] for row in rows] == ["interrupted"]
    with FakeLLM({}, RESPONDERS | {"m-impl": _good}) as fake:
        resumed = run_cli(
            *args, "--resume",
            env={"TDD_SANDBOX_LLM__BASE_URL": fake.base_url,
                 "TDD_SANDBOX_BENCH__RAY_ADDRESS": cluster.address},
        )  # fmt: skip
    assert resumed.returncode == 0, resumed.stderr[-1500:]
    rows = [json.loads(row) for row in (out / "results.jsonl").read_text().splitlines()]
    assert [(row["status"], row["acceptance_pass_rate"]) for row in rows] == [("completed", 1.0)]
