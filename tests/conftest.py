"""Shared fixtures. Docker tests carry the `docker` mark: skipped on a laptop without an
engine, but never in CI, where a missing engine fails the run."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any, get_args

# testcontainers' reaper image cannot be pulled here: tests remove their own containers.
os.environ.setdefault("TESTCONTAINERS_RYUK_DISABLED", "true")

import docker
import pytest

from tdd_sandbox.errors import PrerequisiteError
from tdd_sandbox.images.builder import ensure_image
from tdd_sandbox.languages.registry import LANGUAGES
from tdd_sandbox.sandbox import removal
from tdd_sandbox.sandbox.client import connect
from tdd_sandbox.sandbox.docker_provider import DockerSandboxProvider
from tdd_sandbox.sandbox.labels import LABEL, RUN_LABEL
from tdd_sandbox.settings import ImageSettings, SandboxSettings
from tdd_sandbox.settings.sandbox import Isolation, OciRuntime


@pytest.fixture(scope="session")
def docker_client() -> docker.DockerClient:
    """A live engine, or a skip (outside CI) / failure (in CI).

    Its calls wait up to a minute: an engine killing a fork bomb under gVisor beside another
    test module held a container listing past 10 s in CI, and the test failed for it."""
    try:
        return connect(timeout_s=60)
    except PrerequisiteError as exc:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the Docker tests: {exc}")
        pytest.skip(f"no Docker engine: {exc}")


@pytest.fixture(scope="session")
def images(docker_client: docker.DockerClient) -> dict[str, str]:
    """Every language's image tag, built on first use like the tool does."""
    return {name: ensure_image(docker_client, name, ImageSettings()) for name in LANGUAGES}


RUNTIMES: tuple[OciRuntime, ...] = get_args(OciRuntime)
"""The OCI runtimes the sandbox suites run on (`sandbox.runtime`); CI has both."""
ON_EVERY_RUNTIME = pytest.mark.parametrize("sandbox_runtime", RUNTIMES, indirect=True)
"""Runs a Docker test once per runtime: the container attacks and the conformance suite."""


@pytest.fixture
def sandbox_runtime(request: pytest.FixtureRequest) -> OciRuntime:
    """The OCI runtime of the test's sandboxes: runc unless the test is on every runtime."""
    runtime: OciRuntime = getattr(request, "param", "runc")
    return runtime


ISOLATIONS: tuple[Isolation, ...] = get_args(Isolation)
"""What makes a check fresh (`sandbox.isolation`): the residue and conformance suites run on
each."""
ON_EVERY_ISOLATION = pytest.mark.parametrize("sandbox_isolation", ISOLATIONS, indirect=True)


@pytest.fixture
def sandbox_isolation(request: pytest.FixtureRequest) -> Isolation:
    """What makes the test's checks fresh: the default unless the test runs on each."""
    isolation: Isolation = getattr(request, "param", SandboxSettings().isolation)
    return isolation


@pytest.fixture
def provider(
    request: pytest.FixtureRequest,
    docker_client: docker.DockerClient,
    sandbox_runtime: OciRuntime,
    sandbox_isolation: Isolation,
) -> Iterator[DockerSandboxProvider]:
    """A provider with short limits; every container it made is gone afterwards.

    A flood stops at 2 MB, not 16: the JVM's `System.out.print` makes one system call per
    call (32 bytes each in the Java attack, as strace shows), which under gVisor gets out
    ~0.4 MB/s on this machine, so 16 MB took longer than the gate's deadline and a flood ended
    as a timeout."""
    settings = SandboxSettings(
        timeout_s=20,
        memory="256m",
        pids=128,
        warm=0,
        runtime=sandbox_runtime,
        isolation=sandbox_isolation,
        flood_limit="2m",
    )
    # One run id per test: the Docker tier runs two modules at once, and a container left
    # behind must fail the test that made it, by name, not every later test of its worker
    # (CI of 9798130: one container, 118 errors, its maker unknown).
    run_id = f"pytest-{request.node.nodeid}"
    with DockerSandboxProvider(settings, run_id=run_id, client=docker_client) as made:
        yield made
    assert_no_containers(docker_client, run_id)


def assert_no_containers(client: docker.DockerClient, run_id: str) -> None:
    """Fail if a container of `run_id` is still there, saying in what state the engine holds
    it; it is removed then, so that it burdens no later test."""
    left = client.containers.list(all=True, filters={"label": [LABEL, f"{RUN_LABEL}={run_id}"]})
    if not left:
        return
    seen = [_described(container.attrs) for container in left]
    gone = removal.sweep(client.api, f"{RUN_LABEL}={run_id}")
    pytest.fail(f"containers left behind by {run_id}: {seen}; removed afterwards: {gone}")


def _described(attrs: dict[str, Any]) -> str:
    state = attrs.get("State", {})
    keys = ("Status", "ExitCode", "OOMKilled", "Dead", "Error", "StartedAt", "FinishedAt")
    held = " ".join(f"{key}={state.get(key)!r}" for key in keys)
    runtime = attrs.get("HostConfig", {}).get("Runtime")
    return f"{attrs.get('Id', '')[:12]} created={attrs.get('Created')} runtime={runtime} {held}"


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by the marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under gVisor, a test that takes every process of its sandbox runs alone: killing such a
    container while another module's tests loaded the machine held the engine for four minutes
    in CI, and every engine call of the tests beside it timed out (16 errors from one case).
    Its verdict is the runtime's to keep, so it still runs, in the tier that runs one test at
    a time."""
    for item in items:
        spec = getattr(item, "callspec", None)
        on_gvisor = spec is not None and spec.params.get("sandbox_runtime") == "runsc"
        if on_gvisor and item.get_closest_marker("exhausts") is not None:
            item.add_marker(pytest.mark.alone)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """In CI a skipped test fails the run: Docker tests must run there, never skip."""
    if not os.environ.get("CI"):
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter is not None else []
    if skipped and exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
        print(f"\nCI: {len(skipped)} tests were skipped; in CI every test must run.")


@pytest.fixture
def without_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Another defence on its own: no pack's static policy refuses anything, as the
    block-lists once let the readers of `tests/helpers/answer_readers.py` through."""
    for pack in LANGUAGES.values():
        monkeypatch.setattr(pack, "check_source", lambda *args, **kwargs: [])
