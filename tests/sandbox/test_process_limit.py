"""The process limit, told apart: a command the kernel refused a process or thread at the
sandbox's limit says so (`ExecResult.process_limit`), so that an honest run that met it is
not taken for code that ended its runner (Java's bank-account, 1000 threads, on a loaded
machine). Under runc the pids cgroup counts the refusals; gVisor's tasks are not in it."""

from __future__ import annotations

import pytest

from tdd_sandbox.sandbox.docker_provider import DockerSandboxProvider
from tdd_sandbox.sandbox.snapshot import Snapshot
from tests.conftest import ON_EVERY_ISOLATION

pytestmark = [pytest.mark.docker, ON_EVERY_ISOLATION]

# Threads started until the kernel refuses one, then the run ends as a runner that died of
# it does: its threads gone with it, exit 1.
STARTER = """
import os, threading, time
started = 0
while started < 1000:
    try:
        threading.Thread(target=time.sleep, args=(30,), daemon=True).start()
    except RuntimeError:
        break
    started += 1
print(started, flush=True)
os._exit(1)
"""


def test_a_command_refused_a_thread_at_the_limit_says_so_and_others_do_not(
    provider: DockerSandboxProvider, images: dict[str, str]
) -> None:
    with provider.open(images["python"], Snapshot({"a.txt": b"a\n"})) as box:
        limited = box.exec(["python3", "-c", STARTER], timeout_s=30)
        assert limited.exit_code == 1, limited.stderr[-300:]
        assert int(limited.stdout) < provider.settings.pids
        assert limited.process_limit
        plain = box.exec(["sh", "-c", "exit 1"])
        assert (plain.exit_code, plain.process_limit) == (1, False)
        many = box.exec(["sh", "-c", "for i in 1 2 3 4 5; do sleep 0.1 & done; wait"])
        assert (many.exit_code, many.process_limit) == (0, False)
