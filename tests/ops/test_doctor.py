"""`doctor`'s runtime line: the configured OCI runtime must be registered and start a hardened
container; a runc that predates the 2025 breakout fixes is a warning with its fix, never a
failure of the doctor."""

from __future__ import annotations

import json
from typing import Any

import docker
import pytest

from tdd_sandbox.ops import doctor
from tdd_sandbox.sandbox import seccomp
from tdd_sandbox.settings import Settings


class _Engine:
    def __init__(self, runtime: str, version: str, *, registered: tuple[str, ...] = ()) -> None:
        self.runtime, self.runtime_version = runtime, version
        self.registered = registered or ("runc", runtime)

    def info(self) -> dict[str, Any]:
        runtimes = {name: {"path": f"/nonexistent/{name}"} for name in self.registered}
        return {"DefaultRuntime": "runc", "KernelVersion": "6.1.0", "Runtimes": runtimes}

    def version(self) -> dict[str, Any]:
        parts = [{"Name": self.runtime, "Version": self.runtime_version}]
        return {"Version": "27.5.1", "Components": parts}


IMAGE = "tdd-sandbox/python:any"


def _settings(runtime: str) -> Settings:
    return Settings.model_validate({"sandbox": {"runtime": runtime}})


@pytest.fixture
def starts(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fake engine cannot start a container: the start is taken as working here and tried
    for real on the live engine below."""
    monkeypatch.setattr(doctor, "_start_under", lambda client, settings, image: "")


@pytest.mark.usefixtures("starts")
def test_an_old_runc_is_a_warning_that_names_the_fix() -> None:
    check = doctor._runtime(_Engine("runc", "1.1.5+ds1"), _settings("runc"), IMAGE)  # type: ignore[arg-type]
    assert (check.ok, check.warn) == (True, True)
    assert "CVE-2025-31133" in check.detail
    assert "1.2.8" in check.fix


@pytest.mark.usefixtures("starts")
def test_a_fixed_runc_and_runsc_are_plain_ok() -> None:
    for engine in (_Engine("runc", "1.3.3"), _Engine("runsc", "release-20250512.0")):
        check = doctor._runtime(engine, _settings(engine.runtime), IMAGE)  # type: ignore[arg-type]
        assert (check.ok, check.warn, check.fix) == (True, False, "")
        assert check.detail.startswith(f"{engine.runtime} {engine.runtime_version}")


def test_a_runtime_the_engine_does_not_know_fails_with_how_to_register_it() -> None:
    engine = _Engine("runc", "1.3.3", registered=("runc",))
    check = doctor._runtime(engine, _settings("runsc"), IMAGE)  # type: ignore[arg-type]
    assert not check.ok
    assert check.detail == "runsc is not registered with the engine"
    assert "scripts/setup.sh" in check.fix
    assert "daemon.json" in check.fix


@pytest.mark.docker
@pytest.mark.parametrize("runtime", ["runc", "runsc"])
def test_each_runtime_starts_a_hardened_container_on_the_live_engine(
    docker_client: docker.DockerClient, images: dict[str, str], runtime: str
) -> None:
    check = doctor._runtime(docker_client, _settings(runtime), images["python"])
    assert check.ok, check
    assert check.detail.startswith(runtime)
    assert doctor._start_under(docker_client, _settings(runtime), images["python"]) == ""


@pytest.mark.docker
def test_namespaces_the_engine_refuses_fail_the_runtime_line_with_the_fix(
    docker_client: docker.DockerClient, images: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    narrowed = seccomp.profile()
    narrowed["syscalls"][0]["names"].remove("unshare")
    monkeypatch.setattr(seccomp, "security_option", lambda: "seccomp=" + json.dumps(narrowed))
    check = doctor._runtime(docker_client, _settings("runc"), images["python"])
    assert not check.ok
    assert "set sandbox.isolation: container" in check.detail
