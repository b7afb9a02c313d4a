"""Each restriction of the container, checked on a live one from outside and from inside."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import docker
import pytest

from tdd_sandbox.sandbox.container import (
    BASE_ENV,
    KEEPER_USER,
    SENTRY_MEMORY,
    SENTRY_THREADS,
    SHIPPER_USER,
)
from tdd_sandbox.sandbox.docker import DockerSandbox
from tdd_sandbox.sandbox.docker_provider import DockerSandboxProvider
from tdd_sandbox.sandbox.labels import LABEL, OWNER_LABEL, RUN_LABEL, owner_id
from tdd_sandbox.sandbox.snapshot import Snapshot
from tdd_sandbox.settings import SandboxSettings
from tdd_sandbox.settings.sandbox import Isolation, OciRuntime
from tests.conftest import ON_EVERY_ISOLATION, ON_EVERY_RUNTIME

pytestmark = [pytest.mark.docker, ON_EVERY_RUNTIME, ON_EVERY_ISOLATION]

SETTINGS = SandboxSettings(
    memory="200m", cpus=0.5, pids=64, work_size="8m", tmp_size="16m", nofile=256,
    fsize="4m", warm=0, env={"KATA_MODE": "strict"},
)  # fmt: skip
CANARY = "sk-canary-must-never-reach-a-sandbox"


@pytest.fixture
def box(
    docker_client: docker.DockerClient,
    images: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    sandbox_runtime: OciRuntime,
    sandbox_isolation: Isolation,
) -> Iterator[DockerSandbox]:
    monkeypatch.setenv("OPENAI_API_KEY", CANARY)
    monkeypatch.setenv("TDD_SANDBOX_CANARY", CANARY)
    with (
        DockerSandboxProvider(
            SETTINGS.model_copy(
                update={"runtime": sandbox_runtime, "isolation": sandbox_isolation}
            ),
            run_id="pytest-hard",
            client=docker_client,
        ) as made,
        made.open(images["python"], Snapshot({"a.txt": b"a"})) as opened,
    ):
        yield opened


def _inspect(client: docker.DockerClient, box: DockerSandbox) -> dict[str, Any]:
    assert box.container_id is not None
    return dict(client.api.inspect_container(box.container_id))


def _status(box: DockerSandbox) -> dict[str, str]:
    text = box.exec(["cat", "/proc/self/status"]).stdout
    return dict(line.split(":\t", 1) for line in text.splitlines() if ":\t" in line)


def test_no_network(docker_client: docker.DockerClient, box: DockerSandbox) -> None:
    assert _inspect(docker_client, box)["HostConfig"]["NetworkMode"] == "none"
    interfaces = box.exec(["cat", "/proc/net/dev"]).stdout
    assert [line.split(":")[0].strip() for line in interfaces.splitlines()[2:]] == ["lo"]


def _keeper_sees(client: docker.DockerClient, box: DockerSandbox, command: list[str]) -> str:
    """What `command` prints run as the keeper in the container itself (in no namespace of a
    command's): where the commands' own view cannot tell the keeper from any other user."""
    exec_id = client.api.exec_create(box.container_id, command, user=KEEPER_USER)["Id"]
    return client.api.exec_start(exec_id).decode()


def test_non_root_users(
    docker_client: docker.DockerClient, box: DockerSandbox, sandbox_isolation: Isolation
) -> None:
    assert _inspect(docker_client, box)["Config"]["User"] == SHIPPER_USER
    assert box.exec(["id", "-u"]).stdout.strip() == "10001"
    assert _keeper_sees(docker_client, box, ["ps", "-o", "user=", "-p", "1"]).strip() == "keeper"
    # In namespaces of its own, pid 1 is the command's supervisor, the sandbox user's.
    first = "keeper" if sandbox_isolation == "container" else "sandbox"
    assert box.exec(["ps", "-o", "user=", "-p", "1"]).stdout.strip() == first


def test_all_capabilities_dropped_and_no_new_privileges(
    docker_client: docker.DockerClient,
    box: DockerSandbox,
    sandbox_runtime: OciRuntime,
    sandbox_isolation: Isolation,
) -> None:
    host = _inspect(docker_client, box)["HostConfig"]
    assert host["CapDrop"] == ["ALL"]
    assert not host["CapAdd"]
    assert "no-new-privileges:true" in host["SecurityOpt"]
    assert not host["Privileged"]
    status = _status(box)
    assert int(status["CapEff"], 16) == 0
    assert int(status["CapPrm"], 16) == 0
    # In namespaces of its own under gVisor, the code's user namespace starts with a full
    # bounding set that nothing can empty (gVisor keeps no ambient capabilities to do it
    # with); it bounds nothing there: the code holds no capability and may gain none.
    if not (sandbox_runtime == "runsc" and sandbox_isolation == "namespace"):
        assert int(status["CapBnd"], 16) == 0
    # Asked of the kernel (PR_GET_NO_NEW_PRIVS): gVisor's /proc/self/status has no such line.
    asked = "import ctypes; print(ctypes.CDLL(None).prctl(39, 0, 0, 0, 0))"
    assert box.exec(["python3", "-c", asked]).stdout.strip() == "1"


def test_read_only_root_and_bounded_tmpfs(
    docker_client: docker.DockerClient, box: DockerSandbox
) -> None:
    host = _inspect(docker_client, box)["HostConfig"]
    assert host["ReadonlyRootfs"] is True
    assert set(host["Tmpfs"]) == {"/work", "/tmp"}
    assert box.exec(["touch", "/etc/x"]).exit_code != 0
    assert box.exec(["touch", "/home/x"]).exit_code != 0
    full = box.exec(["sh", "-c", "head -c 20000000 /dev/zero > /tmp/fill"])
    assert "No space left" in full.stderr or "File size limit" in full.stderr or full.exit_code
    size = box.exec(["sh", "-c", "stat -c %s /tmp/fill"]).stdout.strip()
    assert int(size) <= 16 * 1024 * 1024


def test_process_memory_and_cpu_limits(
    docker_client: docker.DockerClient, box: DockerSandbox, sandbox_runtime: OciRuntime
) -> None:
    host = _inspect(docker_client, box)["HostConfig"]
    if sandbox_runtime == "runsc":  # the processes are gVisor's tasks, bounded by its kernel
        assert host["PidsLimit"] == 64 + SENTRY_THREADS
        assert box.exec(["sh", "-c", "ulimit -p"]).stdout.strip() == "64"
        assert host["Memory"] == 200 * 1024**2 + SENTRY_MEMORY
    else:
        assert host["PidsLimit"] == 64
        assert host["Memory"] == 200 * 1024**2
    assert host["MemorySwap"] == host["Memory"]
    assert host["NanoCpus"] == 500_000_000
    assert host["ShmSize"] <= 16 * 1024**2


def test_ulimits(docker_client: docker.DockerClient, box: DockerSandbox) -> None:
    limits = {u["Name"]: u for u in _inspect(docker_client, box)["HostConfig"]["Ulimits"]}
    assert limits["nofile"]["Hard"] == 256
    assert limits["core"]["Hard"] == 0
    assert limits["fsize"]["Hard"] == 4 * 1024**2
    inside = box.exec(["sh", "-c", "ulimit -n; ulimit -c; ulimit -f"]).stdout.split()
    assert inside == ["256", "0", str(4 * 1024**2 // 512)]  # dash reports fsize in 512-byte blocks


def test_init_process(
    docker_client: docker.DockerClient, box: DockerSandbox, sandbox_isolation: Isolation
) -> None:
    assert _inspect(docker_client, box)["HostConfig"]["Init"] is True
    # In namespaces of its own, the command's supervisor is its pid 1 and reaps for it.
    first = "docker-init" if sandbox_isolation == "container" else "sh"
    assert box.exec(["ps", "-o", "comm=", "-p", "1"]).stdout.strip() == first
    # 150 orphans one after another, 64 processes allowed: each is reaped as it ends.
    orphans = box.exec(["sh", "-c", "for i in $(seq 150); do sh -c 'true & exit'; done"])
    assert orphans.exit_code == 0, orphans.stderr[-300:]


def test_environment_is_an_allowlist(
    docker_client: docker.DockerClient, box: DockerSandbox, images: dict[str, str]
) -> None:
    configured = _inspect(docker_client, box)["Config"]["Env"]
    assert not any(CANARY in entry for entry in configured)
    assert "KATA_MODE=strict" in configured
    inside = box.exec(["env"]).stdout
    assert CANARY not in inside
    assert "OPENAI_API_KEY" not in inside
    image_env = docker_client.images.get(images["python"]).attrs["Config"]["Env"]
    allowed = {entry.split("=", 1)[0] for entry in image_env}
    allowed |= set(BASE_ENV) | set(SETTINGS.env) | {"HOSTNAME", "PWD", "SHLVL", "_"}
    names = {line.split("=", 1)[0] for line in inside.splitlines() if "=" in line}
    assert names <= allowed, names - allowed


def test_bounded_logs_labels_and_no_mounts(
    docker_client: docker.DockerClient, box: DockerSandbox
) -> None:
    info = _inspect(docker_client, box)
    log = info["HostConfig"]["LogConfig"]
    assert log["Type"] == "json-file"
    assert log["Config"]["max-size"] == "1m"
    labels = info["Config"]["Labels"]
    assert labels[LABEL] == "1"
    assert labels[RUN_LABEL] == "pytest-hard"
    assert labels[OWNER_LABEL] == owner_id()
    assert info["Mounts"] == []
    assert not info["HostConfig"]["Binds"]


def test_snapshot_belongs_to_the_keeper(
    docker_client: docker.DockerClient,
    box: DockerSandbox,
    sandbox_runtime: OciRuntime,
    sandbox_isolation: Isolation,
) -> None:
    stat = ["stat", "-c", "%U %a %n", "/work", "/work/a.txt"]
    listing = _keeper_sees(docker_client, box, stat).split("\n")
    assert listing[:2] == ["keeper 755 /work", "keeper 644 /work/a.txt"]
    before = box.exec(["cat", "/work/a.txt"]).stdout
    changes = ["echo x > /work/a.txt", "touch /work/b", "rm /work/a.txt"]
    # A warm container's check reads its own read-only copy, the sandbox user's (`mounts.py`):
    # gVisor lets an owner change a mode on a read-only mount, never a byte.
    if (sandbox_runtime, sandbox_isolation) != ("runsc", "namespace"):
        changes.append("chmod 666 /work/a.txt")
    for change in changes:
        assert box.exec(["sh", "-c", change]).exit_code != 0, change
    assert box.exec(["cat", "/work/a.txt"]).stdout == before


# Rewrites the supervisor's script where it still waits to be read (the shell reads a `-c`
# script a line at a time, from its own memory), so that it reports 0 whatever the command
# returned; then fails. Same user as the supervisor, so only the kernel can say no.
_REACH_PARENT = r"""
import os, re, sys
parent = os.getppid()
patched = 0
with open(f"/proc/{parent}/maps") as maps, open(f"/proc/{parent}/mem", "r+b", 0) as mem:
    for line in maps:
        span, perms = line.split()[:2]
        if "w" not in perms:
            continue
        start, end = (int(x, 16) for x in span.split("-"))
        mem.seek(start)
        try:
            data = mem.read(end - start)
        except OSError:
            continue
        for hit in re.finditer(rb"rc=\$\?", data):
            mem.seek(start + hit.start())
            mem.write(b"rc=0 ")
            patched += 1
print("patched", patched, file=sys.stderr)
sys.exit(1)
"""


# A script of the tool's own, as a guard is: it reads its child's status on a line it has not
# read yet when the child runs, so the child could rewrite that line as it rewrites the
# supervisor's.
_GUARD_LIKE = ["sh", "-c", 'python3 -c "$1"\nrc=$?\nexit "$rc"', "guard", _REACH_PARENT]


def test_a_command_cannot_reach_into_a_script_of_the_tool_s_that_runs_it(
    box: DockerSandbox,
) -> None:
    result = box.exec(_GUARD_LIKE)
    assert result.exit_code == 1, result.stderr
    assert "PermissionError" in result.stderr, result.stderr


def test_a_command_cannot_reach_into_its_supervisor(box: DockerSandbox) -> None:
    # The command runs as the supervisor's user, so no capability stands in its way. Under
    # runc the supervisor's shell is one the sandbox user may run but not read, which Linux
    # then keeps from being traced or having its memory read; gVisor lets no task trace an
    # ancestor. Either way the kernel refuses, and the report is the supervisor's own.
    result = box.exec(["python3", "-c", _REACH_PARENT])
    assert result.exit_code == 1, result.stderr
    assert "PermissionError" in result.stderr, result.stderr
