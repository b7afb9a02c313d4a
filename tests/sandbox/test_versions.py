"""What ran the sandboxes, as the engine says it, and whether its runc has the 2025 fixes."""

from __future__ import annotations

import subprocess
from typing import Any

import docker
import pytest

from tdd_sandbox.sandbox.versions import EngineVersions, read_versions, runc_unpatched


@pytest.mark.parametrize(
    ("version", "unpatched"),
    [
        ("1.1.5+ds1", True), ("1.1.5+ds1-1+deb12u1", True), ("v1.2.7", True),
        ("1.2.8", False), ("1.3.0", True), ("1.3.2", True), ("1.3.3", False),
        ("1.4.0-rc.1", False), ("2.0.0", False), ("", None), ("unknown", None),
    ],
)  # fmt: skip
def test_a_runc_before_the_fixed_releases_is_unpatched(
    version: str, unpatched: bool | None
) -> None:
    assert runc_unpatched(version) is unpatched


class _Engine:
    """An engine's answers to `info` and `version`, as Debian 12's docker.io gives them."""

    def __init__(self, *, fail: bool = False) -> None:
        self.fail = fail

    def info(self) -> dict[str, Any]:
        if self.fail:
            raise docker.errors.APIError("engine gone")
        return {
            "ServerVersion": "20.10.24+dfsg1", "KernelVersion": "6.1.0-28-amd64",
            "DefaultRuntime": "runc", "RuncCommit": {"ID": "1.1.5+ds1-1+deb12u1"},
        }  # fmt: skip

    def version(self) -> dict[str, Any]:
        return {"Version": "20.10.24+dfsg1",
                "Components": [{"Name": "runc", "Version": "1.1.5+ds1"}]}  # fmt: skip


def test_the_engine_runtime_and_kernel_are_read_from_the_engine() -> None:
    versions = read_versions(_Engine())  # type: ignore[arg-type]
    assert versions == EngineVersions("20.10.24+dfsg1", "runc", "1.1.5+ds1", "6.1.0-28-amd64")
    assert versions.line() == "docker 20.10.24+dfsg1, runc 1.1.5+ds1, kernel 6.1.0-28-amd64"


def test_an_engine_that_does_not_answer_is_unknown_not_a_crash() -> None:
    assert read_versions(_Engine(fail=True)) == EngineVersions("", "", "", "")  # type: ignore[arg-type]


@pytest.mark.docker
def test_the_live_engine_says_what_it_runs(docker_client: docker.DockerClient) -> None:
    versions = read_versions(docker_client)
    assert versions.engine == docker_client.version()["Version"]
    assert versions.kernel == docker_client.info()["KernelVersion"]
    assert versions.runtime == docker_client.info()["DefaultRuntime"]
    assert versions.runtime_version


@pytest.mark.docker
def test_runsc_is_recorded_with_its_own_version(docker_client: docker.DockerClient) -> None:
    """The engine names runsc's binary but not its version: it is asked of the binary."""
    versions = read_versions(docker_client, "runsc")
    assert versions.runtime == "runsc"
    path = docker_client.info()["Runtimes"]["runsc"]["path"]
    said = subprocess.run([path, "--version"], capture_output=True, text=True, check=True)
    assert said.stdout.splitlines()[0].endswith(f" {versions.runtime_version}")
    assert versions.runtime_version[0].isdigit() or versions.runtime_version.startswith("rel")
