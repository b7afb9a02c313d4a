"""The warm interpreter (`sandbox/zygote.py`): a `python3 -I -B -c` command of a check runs in a
fork of an interpreter that imported pytest before any check, in exactly the namespaces,
user and limits the command itself would have had, and nothing of one check reaches the
next through it."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator

import pytest

from tdd_sandbox.sandbox.container import SANDBOX_USER
from tdd_sandbox.sandbox.docker import DockerSandbox
from tdd_sandbox.sandbox.docker_provider import DockerSandboxProvider
from tdd_sandbox.sandbox.snapshot import Snapshot
from tdd_sandbox.sandbox.zygote import SERVED, served

ON_WARM_CONTAINERS = pytest.mark.parametrize("sandbox_isolation", ["namespace"], indirect=True)

SNAPSHOT = Snapshot({"kata.py": b"x = 1\n"})

PROBE = r"""
import json, os, resource, socket, sys
def link(pid, name):
    return os.readlink(f"/proc/{pid}/ns/{name}")
names = ("user", "mnt", "pid", "ipc", "uts", "net", "cgroup")
try:
    s = socket.socket(socket.AF_UNIX)
    s.connect("\0tdd-zygote-" + str(os.getgid()))
    reach = "connected"
except OSError as error:
    reach = error.strerror
cmdlines, others = [], []
for p in os.listdir("/proc"):
    if p.isdigit():
        if int(p) != os.getpid():  # a fork's own shows the interpreter it was forked from
            with open(f"/proc/{p}/cmdline", "rb") as f:
                cmdlines.append(f.read())
        try:  # the supervisor and the client, unreadable (not dumpable), are left out
            others.append(all(link(p, n) == link("self", n) for n in names))
        except OSError:
            pass
print(json.dumps({
    "warm": "_pytest.terminal" in sys.modules,
    "joined": others,
    "ids": [os.getuid(), os.geteuid(), os.getgid(), os.getegid(), sorted(os.getgroups())],
    "status": [l for l in open("/proc/self/status") if l.startswith(("Cap", "NoNew", "Seccomp"))],
    "maps": [open(f"/proc/self/{m}").read() for m in ("uid_map", "gid_map")],
    "limits": [resource.getrlimit(r) for r in (resource.RLIMIT_NOFILE, resource.RLIMIT_FSIZE,
                                                 resource.RLIMIT_CORE, resource.RLIMIT_NPROC)],
    "cgroup": open("/proc/self/cgroup").read().replace(sys.argv[1], "<container>"),
    "cwd": os.getcwd(), "argv": sys.argv[:1],
    "flags": [sys.flags.isolated, sys.flags.dont_write_bytecode],
    "env": os.environ.get("KATA_PROBE"), "stdin": sys.stdin.read(),
    "fds": sorted(os.listdir("/proc/self/fd")),
    "reach": reach, "zygote seen": any(b"PR_SET_" + b"PDEATHSIG" in c for c in cmdlines),
}))
"""


def probe(box: DockerSandbox, *, sealed: bool = False) -> dict[str, object]:
    """What `PROBE` sees, run as a served command."""
    result = box.exec([*SERVED, PROBE, str(box.container_id)], stdin=b"in", env={"KATA_PROBE": "1"},
                      sealed=sealed)  # fmt: skip
    assert result.exit_code == 0, result.stderr
    seen: dict[str, object] = json.loads(result.stdout)
    return seen


@contextlib.contextmanager
def warm_box(
    provider: DockerSandboxProvider, image: str, *, sealed: bool = False
) -> Iterator[DockerSandbox]:
    """A check on a container that served one before (the tests' provider keeps no pool:
    a container started for a check gets warm interpreters before its second)."""
    with provider.open(image, SNAPSHOT) as first:
        assert first.container_id is not None
        assert provider.zygote(first.container_id, SANDBOX_USER) == ""
        used = first.container_id
    with provider.open(image, SNAPSHOT) as box:
        assert box.container_id == used
        wait_warm(box, sealed=sealed)
        yield box


def wait_warm(box: DockerSandbox, *, sealed: bool = False) -> None:
    """Until the container's warm interpreter answers (it imports pytest as the check starts)."""
    deadline = time.monotonic() + 30
    while not probe(box, sealed=sealed)["warm"]:
        assert time.monotonic() < deadline, "the warm interpreter never answered"
        time.sleep(0.2)


@pytest.fixture
def warm_image(provider: DockerSandboxProvider, images: dict[str, str]) -> str:
    """The Python image, its containers with warm interpreters that import pytest."""
    provider.prewarm(images["python"], preload=("pytest", "_pytest.terminal"))
    return images["python"]


@pytest.mark.docker
@ON_WARM_CONTAINERS
def test_a_pool_container_serves_its_first_check_warm_and_one_started_for_a_check_its_second(
    provider: DockerSandboxProvider, warm_image: str
) -> None:
    """A container of the pool starts its warm interpreters as it starts, off the path of any
    check (a Python run's first cycle took 2.1 s, the later ones 0.6 s); one started for a
    check that found the pool empty (the tests' provider keeps none) gets them only before
    its second check, since their imports cost more than one check's commands save."""
    with provider.open(warm_image, SNAPSHOT) as first:
        assert first.container_id is not None
        assert provider.zygote(first.container_id, SANDBOX_USER) == ""
        assert probe(first)["warm"] is False
        used = first.container_id
    with provider.open(warm_image, SNAPSHOT) as second:
        assert second.container_id == used
        wait_warm(second)
    pool = DockerSandboxProvider(provider.settings.model_copy(update={"warm": 1}),
                                 run_id=provider.run_id, client=provider.client)  # fmt: skip
    with pool:
        pool.prewarm(warm_image, preload=("pytest", "_pytest.terminal"))
        with pool.open(warm_image, SNAPSHOT) as box:
            assert box.container_id is not None
            assert pool.zygote(box.container_id, SANDBOX_USER) != ""
            wait_warm(box)


def test_only_the_interpreter_as_it_started_itself_is_served() -> None:
    assert served(["python3", "-m", "pytest"], "tdd-zygote-1") == ["python3", "-m", "pytest"]
    assert served([*SERVED, "pass"], "") == [*SERVED, "pass"]
    assert served([*SERVED], "tdd-zygote-1") == [*SERVED]
    wrapped = served([*SERVED, "pass", "x"], "tdd-zygote-1")
    assert wrapped[:4] == ["python3", "-I", "-S", "-c"]
    assert wrapped[-6:] == [*SERVED, "pass", "x"]


@pytest.mark.docker
@ON_WARM_CONTAINERS
@pytest.mark.parametrize("sealed", [False, True])
def test_a_served_command_sees_what_its_own_process_would_have(
    provider: DockerSandboxProvider, warm_image: str, sealed: bool
) -> None:
    """The same probe in a container with no warm interpreter and in one with it: the same
    namespaces (its own, as pid 1 holds them), users, groups, capabilities (none), seccomp,
    limits, cgroup, arguments, environment, input and open files; the warm one alone has
    pytest imported. Neither reaches the interpreter's socket or sees its process."""
    with warm_box(provider, warm_image, sealed=sealed) as box:
        warm = probe(box, sealed=sealed)
    cold_provider = DockerSandboxProvider(provider.settings, run_id=provider.run_id,
                                          client=provider.client)  # fmt: skip
    with cold_provider, cold_provider.open(warm_image, SNAPSHOT) as box:
        cold = probe(box, sealed=sealed)
    assert warm.pop("warm") is True
    assert cold.pop("warm") is False
    # Every process of the check the probe can read holds the very same namespaces: itself
    # alone, as the client that handed the warm one's command over is not dumpable either.
    assert warm.pop("joined") == cold.pop("joined") == [True]
    assert warm == cold
    assert warm["reach"] != "connected"
    assert not warm["zygote seen"]
    assert warm["argv"] == ["-c"]
    assert warm["stdin"] == "in"
    assert warm["fds"] == ["0", "1", "2", "3", "4"]  # streams, the probe's socket, the listing


MARK = r"""
import atexit, builtins, os, subprocess, sys, threading, time, pytest
pytest.planted = builtins.planted = sys.modules["_pytest.terminal"].planted = "check one"
os.environ["PLANTED"] = "check one"
sys.path.insert(0, "/tmp/planted")
os.makedirs("/tmp/planted", exist_ok=True)
subprocess.Popen(["sleep", "300"], start_new_session=True)
threading.Thread(target=time.sleep, args=(300,), daemon=True).start()
print("planted")
"""

FIND = r"""
import builtins, os, subprocess, sys, pytest
found = [
    getattr(pytest, "planted", None), getattr(builtins, "planted", None),
    getattr(sys.modules["_pytest.terminal"], "planted", None), os.environ.get("PLANTED"),
    "/tmp/planted" in sys.path, os.path.exists("/tmp/planted"),
    subprocess.run(["pgrep", "-f", "sleep " + str(150 * 2)], capture_output=True).returncode == 0,
]
print(sum(bool(f) for f in found))
"""


@pytest.mark.docker
@ON_WARM_CONTAINERS
def test_nothing_of_a_check_reaches_the_next_through_the_warm_interpreter(
    provider: DockerSandboxProvider, warm_image: str
) -> None:
    """One check plants marks in the interpreter (its modules, builtins, environment, import
    path), the file system and processes; the next check, forked from the same warm
    interpreter in the same container, finds none. A naive reuse, one interpreter running
    both checks' code in turn, hands the next check every mark."""
    with warm_box(provider, warm_image) as box:
        naive = box.exec([*SERVED, f"exec({MARK!r})\nexec({FIND!r})"])
        assert naive.stdout.split() == ["planted", "7"], naive.stderr
        used = box.container_id
    with provider.open(warm_image, SNAPSHOT) as box:
        # Once in CI (beside another module's Docker tests) this check ran cold: said with
        # whether its container was the one the first check used (else it was found unclean
        # after the wipe and replaced by a new one, which has no warm interpreter yet).
        seen = probe(box)
        assert seen["warm"] is True, ("replaced" if box.container_id != used else "same", seen)
        assert box.exec([*SERVED, MARK]).stdout.strip() == "planted"
    with provider.open(warm_image, SNAPSHOT) as box:
        assert box.container_id == used
        assert probe(box)["warm"] is True
        assert box.exec([*SERVED, FIND]).stdout.strip() == "0"


ENDINGS = [
    ("raise SystemExit(3)", 3),
    ("import os; os.kill(os.getpid(), 9)", 137),
    ("import sys; print('out'); print('err', file=sys.stderr); 1 / 0", 1),
    ("import atexit; atexit.register(print, 'at exit')", 0),
    ("import threading, time; threading.Thread(target=lambda: (time.sleep(0.3), "
     "print('joined'))).start()", 0),
]  # fmt: skip


@pytest.mark.docker
@ON_WARM_CONTAINERS
def test_a_served_command_ends_as_its_own_process_would(
    provider: DockerSandboxProvider, warm_image: str
) -> None:
    """Exit statuses, signals, tracebacks, exit handlers and the threads the interpreter waits
    for at exit: the same through the warm interpreter as without it."""
    cold_provider = DockerSandboxProvider(provider.settings, run_id=provider.run_id,
                                          client=provider.client)  # fmt: skip
    seen: dict[str, list[tuple[int | None, str, str]]] = {"warm": [], "cold": []}
    with warm_box(provider, warm_image) as box:
        for source, _ in ENDINGS:
            result = box.exec([*SERVED, source])
            seen["warm"].append((result.exit_code, result.stdout, result.stderr))
    with cold_provider, cold_provider.open(warm_image, SNAPSHOT) as box:
        for source, _ in ENDINGS:
            result = box.exec([*SERVED, source])
            seen["cold"].append((result.exit_code, result.stdout, result.stderr))
    assert seen["warm"] == seen["cold"]
    assert [code for code, _, _ in seen["warm"]] == [code for _, code in ENDINGS]
    assert seen["warm"][2][1:] == ("out\n", seen["cold"][2][2])
    assert "ZeroDivisionError" in seen["warm"][2][2]
    assert seen["warm"][3][1] == "at exit\n"
    assert seen["warm"][4][1] == "joined\n"


@pytest.mark.docker
@ON_WARM_CONTAINERS
def test_a_command_past_its_deadline_takes_the_warm_interpreter_with_it_and_a_new_one_serves(
    provider: DockerSandboxProvider, warm_image: str
) -> None:
    """A deadline kills every process of the sandbox user, the servers and their warm
    interpreters too; the next command runs (by itself while a new interpreter imports), and
    then through the new one."""
    with warm_box(provider, warm_image) as box:
        slow = box.exec([*SERVED, "import time; time.sleep(60)"], timeout_s=2)
        assert slow.timed_out
        assert box.exec([*SERVED, "print('after')"]).stdout == "after\n"
        wait_warm(box)


@pytest.mark.docker
@pytest.mark.parametrize("sandbox_runtime", ["runsc"], indirect=True)
@ON_WARM_CONTAINERS
def test_under_gvisor_no_warm_interpreter_is_started(
    provider: DockerSandboxProvider, warm_image: str
) -> None:
    """gVisor's kernel does not join user namespaces (setns: EINVAL), so no warm interpreter
    would ever serve: none is started, and each command starts its own."""
    for _ in range(2):
        with provider.open(warm_image, SNAPSHOT) as box:
            assert box.container_id is not None
            assert provider.zygote(box.container_id, SANDBOX_USER) == ""
            assert probe(box)["warm"] is False


@pytest.mark.docker
@ON_WARM_CONTAINERS
def test_each_interpreter_command_of_a_batch_runs_in_the_warm_interpreter(
    provider: DockerSandboxProvider, warm_image: str
) -> None:
    """A batch (a check's readers: ruff, then mypy) holds one connection: every interpreter
    command in it is forked in turn, each with its own status and output."""
    with warm_box(provider, warm_image) as box:
        source = "import sys; print('_pytest.terminal' in sys.modules)"
        batch = [[*SERVED, source], ["true"], [*SERVED, source + "; raise SystemExit(4)"]]
        results = box.exec_each(batch)
    assert [(r.exit_code, r.stdout) for r in results] == [(0, "True\n"), (0, ""), (4, "True\n")]


THEFT = r"""
import ctypes, errno, json, os
libc = ctypes.CDLL(None, use_errno=True)
def tried(call):
    try:
        result = call()
    except OSError as error:
        return errno.errorcode.get(error.errno, str(error.errno))
    if result < 0:
        return errno.errorcode.get(ctypes.get_errno(), "failed")
    return "taken"
client = None
for p in os.listdir("/proc"):
    if p.isdigit() and int(p) != os.getpid():
        try:
            with open(f"/proc/{p}/cmdline", "rb") as f:
                if b"fileno=3" in f.read():
                    client = int(p)
        except OSError:
            pass
pidfd = os.pidfd_open(client)
print(json.dumps({
    # pidfd_getfd (438): the client's connection to the warm interpreter's handler, outside
    # the check's pid namespace, as a descriptor of the code's own.
    "connection": tried(lambda: libc.syscall(438, pidfd, 3, 0)),
    "memory": tried(lambda: os.open(f"/proc/{client}/mem", os.O_RDWR)),
    "trace": tried(lambda: libc.ptrace(16, client, 0, 0)),  # PTRACE_ATTACH
}))
"""


@pytest.mark.docker
@ON_WARM_CONTAINERS
def test_the_code_cannot_take_its_client_s_connection_to_the_warm_interpreter(
    provider: DockerSandboxProvider, warm_image: str
) -> None:
    """The attack: the code finds the client that handed its command to the warm interpreter
    (a process of the same user in the same namespaces, waiting for the code to end), and
    takes its connection to the interpreter's handler (`pidfd_getfd`), its memory or a trace
    of it: each would let the code speak to a process outside the check in the client's name.
    The client is not dumpable, so the kernel refuses every route: none takes a capability
    the code has (it has none), and the seccomp profile cannot filter `/proc/<pid>/mem`."""
    with warm_box(provider, warm_image) as box:
        result = box.exec([*SERVED, THEFT])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == {"connection": "EPERM", "memory": "EACCES",
                                         "trace": "EPERM"}  # fmt: skip
