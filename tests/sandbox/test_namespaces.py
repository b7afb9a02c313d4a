from __future__ import annotations

import json

import docker
import pytest

from tdd_sandbox.errors import SandboxUnavailable
from tdd_sandbox.sandbox import seccomp
from tdd_sandbox.sandbox.docker_provider import DockerSandboxProvider
from tdd_sandbox.sandbox.namespaces import refusal
from tdd_sandbox.sandbox.snapshot import Snapshot
from tdd_sandbox.settings import SandboxSettings


def test_a_refusal_is_read_from_the_tools_that_make_the_namespaces() -> None:
    said = refusal("noise\nunshare: unshare failed: Operation not permitted\n", "n1")
    assert said is not None
    assert said.startswith("unshare: unshare failed: Operation not permitted")
    assert "set sandbox.isolation: container" in said
    assert refusal("tdd-sandbox: could not make fresh namespaces: /sys\n", "n1") is not None
    assert refusal("a test failed: unshare: not at the start of the line\n", "n1") is None


def test_code_cannot_pass_its_own_failure_off_as_a_refusal() -> None:
    """Code that prints a tool's refusal and then loses its supervisor (an OOM kill) would
    turn its verdict into an unavailable sandbox, its text into the error: past the setup's
    ready line nothing is read as a refusal."""
    printed = "\n@@n1 ns ready\nunshare: \x1b[2Jforged\n"
    assert refusal(printed, "n1") is None


@pytest.mark.docker
def test_namespaces_the_engine_refuses_are_an_unavailable_sandbox_not_a_verdict(
    docker_client: docker.DockerClient, images: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where user namespaces are refused (the engine's default profile, an AppArmor policy, a
    kernel setting), no command runs at all: a failed command would judge code that never
    ran. Under runc, whose system-call profile is ours to narrow here."""
    made = seccomp.profile()
    made["syscalls"][0]["names"].remove("unshare")
    monkeypatch.setattr(seccomp, "security_option", lambda: "seccomp=" + json.dumps(made))
    settings = SandboxSettings(warm=0, runtime="runc", isolation="namespace")
    with (
        DockerSandboxProvider(settings, run_id="pytest-nons", client=docker_client) as provider,
        provider.open(images["python"], Snapshot({"a.txt": b"a"})) as box,
        pytest.raises(SandboxUnavailable, match=r"unshare.*set sandbox\.isolation: container"),
    ):
        box.exec(["true"])
