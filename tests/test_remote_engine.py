"""A bench job against a remote engine (`DOCKER_HOST=tcp://...`): a second engine runs in a
privileged container built from the base image, reachable over TCP on loopback only, and
shares no disk with this machine, so nothing may assume a host path there."""

from __future__ import annotations

import contextlib
import shutil
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import docker
import docker.errors
import pytest
from testcontainers.core.container import DockerContainer

from tdd_sandbox.bench.pipeline import BenchOptions, run_bench
from tdd_sandbox.images.builder import resolve_base
from tdd_sandbox.sandbox.labels import LABEL, RUN_LABEL
from tdd_sandbox.settings import ImageSettings, load_settings
from tests.helpers.bench_scripts import bench_script
from tests.helpers.fake_llm import FakeLLM

pytestmark = [pytest.mark.docker, pytest.mark.usefixtures("images")]
HERE = Path(__file__).resolve().parent
KATAS = HERE.parent / "katas"
TEST_LABEL = "tdd-sandbox-test"

# Capability bit -> name (linux/capability.h). "Privileged" here means every capability this
# machine's own bounding set allows: some hosts withhold one (e.g. SYS_RESOURCE), and asking
# Docker for --privileged there fails outright.
_CAPS = [
    "CHOWN", "DAC_OVERRIDE", "DAC_READ_SEARCH", "FOWNER", "FSETID", "KILL", "SETGID", "SETUID",
    "SETPCAP", "LINUX_IMMUTABLE", "NET_BIND_SERVICE", "NET_BROADCAST", "NET_ADMIN", "NET_RAW",
    "IPC_LOCK", "IPC_OWNER", "SYS_MODULE", "SYS_RAWIO", "SYS_CHROOT", "SYS_PTRACE", "SYS_PACCT",
    "SYS_ADMIN", "SYS_BOOT", "SYS_NICE", "SYS_RESOURCE", "SYS_TIME", "SYS_TTY_CONFIG", "MKNOD",
    "LEASE", "AUDIT_WRITE", "AUDIT_CONTROL", "SETFCAP", "MAC_OVERRIDE", "MAC_ADMIN", "SYSLOG",
    "WAKE_ALARM", "BLOCK_SUSPEND", "AUDIT_READ",
]  # fmt: skip


def _host_capabilities() -> list[str]:
    line = next(
        line
        for line in Path("/proc/self/status").read_text().splitlines()
        if line.startswith("CapBnd")
    )
    mask = int(line.split()[1], 16)
    return [name for bit, name in enumerate(_CAPS) if mask & (1 << bit)]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def remote_engine(docker_client: docker.DockerClient, images: dict[str, str]) -> Iterator[str]:
    """`tcp://127.0.0.1:PORT` of a second engine holding the base and Python images."""
    base_ref, _ = resolve_base(docker_client, ImageSettings(), "trixie")
    engine_image, _ = docker_client.images.build(
        path=str(HERE / "remote"), buildargs={"BASE_IMAGE": base_ref}, rm=True,
        tag="tdd-sandbox-test/engine:latest", labels={TEST_LABEL: "1"},
    )  # fmt: skip
    port = _free_port()
    volume = docker_client.volumes.create(labels={TEST_LABEL: "1"})
    # testcontainers starts it; its reaper image cannot be pulled here, so it runs with
    # TESTCONTAINERS_RYUK_DISABLED=true and this fixture removes what it started itself.
    engine = (
        DockerContainer(str(engine_image.id))
        .with_volume_mapping(str(volume.name), "/var/lib/docker", "rw")
        .with_volume_mapping("/sys/fs/cgroup", "/sys/fs/cgroup", "rw")
        .with_kwargs(
            labels={TEST_LABEL: "1"},
            cap_add=_host_capabilities(),
            security_opt=["seccomp=unconfined", "apparmor=unconfined"],
        )
    )
    # Loopback only, never every interface: docker-py takes (ip, port), which
    # testcontainers' with_bind_ports cannot express, so the mapping goes in directly.
    cast(dict[str, Any], engine.ports)["2375/tcp"] = ("127.0.0.1", port)
    engine.start()
    url = f"tcp://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                remote = docker.DockerClient(base_url=url, timeout=600)
                remote.ping()
                break
            except (docker.errors.DockerException, OSError):
                if time.monotonic() > deadline:
                    raise AssertionError("the second engine did not come up") from None
                time.sleep(0.5)
        # Images reach the remote engine through the API, as they would a real one. The
        # export may take longer than the session client's 10 s to start on a busy engine.
        local = docker.from_env(timeout=600)
        for tag in (base_ref, images["python"]):
            remote.api.load_image(local.api.get_image(tag))  # type: ignore[no-untyped-call]
        local.close()
        remote.close()
        yield url
    finally:
        engine.stop()
        with contextlib.suppress(docker.errors.APIError):
            volume.remove(force=True)


def _creations(client: docker.DockerClient, since: int, until: int, runs: set[str]) -> list[object]:
    """The sandbox containers an engine created for `runs` between two times (other work on
    the same engine, e.g. a second test session, does not count)."""
    wanted = {"type": "container", "event": "create", "label": LABEL}
    events = client.events(since=since, until=until, decode=True, filters=wanted)
    return [
        event
        for event in events
        if event["Actor"]["Attributes"].get(RUN_LABEL, "").split("-score")[0] in runs
    ]


def test_a_bench_job_runs_on_a_remote_engine(
    remote_engine: str,
    docker_client: docker.DockerClient,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shutil.copytree(KATAS / "fizzbuzz", tmp_path / "katas" / "fizzbuzz")
    started = int(time.time()) - 1
    monkeypatch.setenv("DOCKER_HOST", remote_engine)
    with FakeLLM(bench_script("good", ["fizzbuzz"], 1, good=True)) as fake:
        models = {
            "good": {
                r: f"custom:good-{s}"
                for r, s in (("tester", "tester"), ("implementer", "impl"), ("refactorer", "ref"))
            }
        }
        settings = load_settings(
            overrides={"llm": {"base_url": fake.base_url}, "bench": {"models": models}}
        )
        options = BenchOptions(
            models=["good"], katas=[tmp_path / "katas"], languages=["python"], repeats=1,
            out=tmp_path / "out",
        )  # fmt: skip
        summary = run_bench(options, settings)
    finished = int(time.time()) + 1
    runs = {p.name for p in (tmp_path / "out" / "jobs").glob("*/repo/.tdd/runs/*")}
    assert runs
    [model] = summary["models"]
    assert model["acceptance_pass_rate"] == 1.0, (tmp_path / "out" / "results.jsonl").read_text()
    remote = docker.DockerClient(base_url=remote_engine)
    try:
        created = _creations(remote, started, finished, runs)
        assert created, "the sandboxes were not created on the remote engine"
        assert remote.containers.list(all=True, filters={"label": LABEL}) == []
    finally:
        remote.close()
    here = _creations(docker_client, started, finished, runs)
    assert here == [], "a sandbox ran on the local engine"
