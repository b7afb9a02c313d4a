"""The command server (`sandbox/server.py`): checks on a warm container ask the engine for no
exec, and nothing a command does reaches the server, the requests after its own or their
output. On both runtimes: gVisor's processes and pipes are its own kernel's."""

from __future__ import annotations

import contextlib
import secrets
import socket
import threading
import time
from typing import Any

import docker
import pytest

from tdd_sandbox.errors import SandboxUnavailable
from tdd_sandbox.sandbox.container import SANDBOX_USER
from tdd_sandbox.sandbox.docker_provider import DockerSandboxProvider
from tdd_sandbox.sandbox.server import CommandServer
from tdd_sandbox.sandbox.snapshot import Snapshot
from tdd_sandbox.sandbox.stream import CappedText, Ending
from tests.conftest import ON_EVERY_RUNTIME

pytestmark = [
    pytest.mark.docker,
    ON_EVERY_RUNTIME,
    pytest.mark.parametrize("sandbox_isolation", ["namespace"], indirect=True),
]

SNAPSHOT = Snapshot({"kata.py": b"x = 1\n", "tests/test_kata.py": b"import kata\n"})


def test_a_check_on_a_warm_container_asks_the_engine_for_no_exec(
    provider: DockerSandboxProvider, images: dict[str, str], execs: list[Any]
) -> None:
    """The first check starts the container's servers (one exec each, once per container);
    the checks after it unpack, run, run sealed, run a batch and wipe with none."""
    image = images["python"]
    with provider.open(image, SNAPSHOT) as first:
        assert first.exec(["cat", "kata.py"]).stdout == "x = 1\n"
        assert first.exec(["cat", "kata.py"], sealed=True).ok
        used = first.container_id
    # The keeper's and the sandbox user's servers: a sealed command is sealed by its mounts.
    assert len(execs) == 2
    execs.clear()
    for _ in range(2):
        with provider.open(image, SNAPSHOT) as box:
            assert box.container_id == used
            assert box.exec(["cat", "kata.py"]).stdout == "x = 1\n"
            assert box.exec(["sh", "-c", "cat kata.py"], sealed=True).stdout == "x = 1\n"
            each = box.exec_each([["true"], ["sh", "-c", "exit 3"]])
            assert [r.exit_code for r in each] == [0, 3]
    assert execs == []


FORGED_KEY = "0123456789abcdef0123456789abcdef"
FORGED_END = f"printf '\\n@@{FORGED_KEY} end\\n'; printf '\\n@@{FORGED_KEY} end rc=0\\n' >&2; "
"""The end lines a server with a fixed key would take for its command's end, with status 0."""
FORGED = FORGED_END + (
    "cat; for f in /proc/[0-9]*/cmdline; do tr '\\0' ' ' < $f; echo; done; sleep 1; exit 7"
)


def test_a_server_whose_key_the_code_could_know_is_fooled_by_a_forged_end(
    provider: DockerSandboxProvider, images: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The attack is real: with the key fixed (a naive server's constant marker), the code's
    own end line ends its command early with the exit status it chose."""
    monkeypatch.setattr(secrets, "token_hex", lambda _size: FORGED_KEY)
    # Nothing printed after the forged end: under load, output right behind it arrived in
    # the same read, so even the naive server saw no end there (a flaky demonstration).
    with provider.open(images["python"], SNAPSHOT) as box:
        assert box.exec(["sh", "-c", FORGED_END + "sleep 2; exit 7"]).exit_code == 0


def test_a_command_cannot_end_early_read_the_next_request_or_see_the_server(
    provider: DockerSandboxProvider, images: dict[str, str]
) -> None:
    with provider.open(images["python"], SNAPSHOT) as box:
        result = box.exec(["sh", "-c", FORGED])
        assert result.exit_code == 7
        assert f"{FORGED_KEY} end" in result.stdout
        assert "perl" not in result.stdout  # the server is in no namespace the code sees
        # What the next request sends (its argv, its stdin) reaches that command alone.
        assert box.exec(["cat"], stdin=b"mine").stdout == "mine"


def test_what_a_command_leaves_running_prints_nothing_into_the_next(
    provider: DockerSandboxProvider, images: dict[str, str]
) -> None:
    with provider.open(images["python"], SNAPSHOT) as box:
        left = box.exec(["sh", "-c", "(sleep 0.3; echo late; echo late >&2) & exit 0"])
        assert left.exit_code == 0
        after = box.exec(["sh", "-c", "sleep 1; echo next"])
        assert (after.stdout, after.stderr) == ("next\n", "")


def test_a_command_past_its_deadline_is_killed_with_its_server_and_the_next_gets_a_new_one(
    provider: DockerSandboxProvider, images: dict[str, str]
) -> None:
    with provider.open(images["python"], SNAPSHOT) as box:
        hung = box.exec(["sh", "-c", "echo started; sleep 60"], timeout_s=1.5)
        assert hung.timed_out
        assert hung.stdout.startswith("started")
        assert box.exec(["echo", "again"]).stdout == "again\n"


def test_a_server_killed_while_it_idles_is_replaced_and_the_command_still_runs(
    provider: DockerSandboxProvider, images: dict[str, str], docker_client: docker.DockerClient
) -> None:
    """As the OOM killer may pick an idle server while a check beside it fills the memory:
    nothing of the next command had run, so it runs on a new server, not as a failure."""
    with provider.open(images["python"], SNAPSHOT) as box:
        assert box.exec(["true"], sealed=True).ok
        assert box.exec(["true"]).ok
        container = box.container_id
        assert container is not None
        api = docker_client.api
        for pid in provider.spared(container):
            killer = api.exec_create(container, ["kill", "-9", str(pid)], user="10001:10001")
            api.exec_start(killer["Id"])
        assert box.exec(["echo", "sealed"], sealed=True).stdout == "sealed\n"
        assert box.exec(["echo", "open"]).stdout == "open\n"


def test_a_sandbox_closed_while_its_command_runs_stops_the_command_at_once(
    provider: DockerSandboxProvider, images: dict[str, str]
) -> None:
    """A cancelled attempt's sandbox is closed from another thread while its command runs:
    the command must stop then, not hold the server the container's wipe is queued on."""
    box = provider.open(images["python"], SNAPSHOT)
    ended: list[object] = []

    def run() -> None:
        try:
            ended.append(box.exec(["sh", "-c", "sleep 60"]))
        except SandboxUnavailable as exc:
            ended.append(exc)

    worker = threading.Thread(target=run)
    worker.start()
    time.sleep(1.5)
    closed = time.monotonic()
    box.close()
    worker.join(20)
    assert not worker.is_alive(), "the command outlived its sandbox"
    assert time.monotonic() - closed < 20
    with provider.open(images["python"], SNAPSHOT) as after:
        assert after.exec(["echo", "ok"]).stdout == "ok\n"


class _Preempted:
    """A server's stream as its reader sees it, the reader held between naming the descriptor
    to wait on and waiting on it (where a loaded machine may preempt it) until the closing
    thread has done its part."""

    def __init__(self, raw: Any) -> None:
        self._raw = raw
        self.named = threading.Event()
        self.resume = threading.Event()

    def fileno(self) -> int:
        number = int(self._raw.fileno())
        if not self.named.is_set():
            self.named.set()
            self.resume.wait(10)
        return number

    def __getattr__(self, name: str) -> Any:
        return getattr(self._raw, name)


def test_a_server_closed_from_another_thread_never_hands_its_reader_another_socket(
    provider: DockerSandboxProvider, images: dict[str, str]
) -> None:
    """A stopped race closes a cancelled attempt's server while its reader waits. Closing the
    descriptor there freed its number for the next socket opened, and a reader about to wait
    on it waited on that socket instead, out to its 900 s deadline (a run that ignored
    Ctrl-C, under load). The reader must see the end of its own stream at once."""
    with provider.open(images["python"], SNAPSHOT) as box:
        assert box.exec(["true"]).ok
        assert box.container_id is not None
        server = provider.server(box.container_id, SANDBOX_USER)
        stream = _Preempted(server._raw)
        server._raw = stream
        endings: list[object] = []
        started = time.monotonic()

        def read() -> None:
            out, err = CappedText(1 << 16), CappedText(1 << 16)
            try:
                served = server.run(["sleep", "30"], out, err, env=None, stdin=None,
                                    deadline=started + 8, flood_limit=1 << 20)  # fmt: skip
                endings.append(served.ending)
            except OSError as exc:
                endings.append(exc)

        reader = threading.Thread(target=read)
        reader.start()
        assert stream.named.wait(20)
        server.close()
        others = [socket.socketpair() for _ in range(4)]  # the numbers a close frees
        stream.resume.set()
        reader.join(20)
        for pair in others:
            for end in pair:
                end.close()
    assert endings == [Ending.EOF]
    assert time.monotonic() - started < 6, "the reader waited on another socket"


def test_two_threads_never_read_one_server_at_once(
    provider: DockerSandboxProvider, images: dict[str, str]
) -> None:
    """A cancelled check may still be taking its server when the container's wipe takes the
    same one. Both read its stream: the one that woke second found the bytes gone and waited
    on the socket with no deadline (a stopped race that never ended, CI of stop 84). A server
    serves one request at a time; a second asker is refused at once."""
    with provider.open(images["python"], SNAPSHOT) as box:
        assert box.exec(["true"]).ok
        assert box.container_id is not None
        server = provider.server(box.container_id, SANDBOX_USER)
        started = time.monotonic()
        said: dict[str, object] = {}

        def ask(name: str, argv: list[str]) -> None:
            out, err = CappedText(1 << 16), CappedText(1 << 16)
            try:
                served = server.run(argv, out, err, env=None, stdin=None,
                                    deadline=started + 8, flood_limit=1 << 20)  # fmt: skip
                said[name] = (served.ending, served.code, out.text())
            except OSError as exc:
                said[name] = exc

        first = threading.Thread(target=ask, args=("first", ["sh", "-c", "sleep 1; echo a"]))
        first.start()
        time.sleep(0.3)
        second = threading.Thread(target=ask, args=("second", ["echo", "b"]))
        second.start()
        for thread in (first, second):
            thread.join(20)
        assert not any(t.is_alive() for t in (first, second)), "a reader waited for ever"
        server.close()
    assert said["first"] == (Ending.EOF, 0, "a\n")
    assert isinstance(said["second"], OSError)


def test_a_sandbox_closed_while_it_takes_its_server_hands_no_one_its_mounts(
    provider: DockerSandboxProvider, images: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A race stops while a cancelled check still makes its mounts (its first command's
    `nest`): its sandbox, seeing no command running, hands the container to the wipe, and
    the check nests the server after it. The next check must not run in those mounts (the
    ship finds the container not clean: another is taken) and the cancelled one must end."""
    nest, entered, resume = CommandServer.nest, threading.Event(), threading.Event()

    def held(server: CommandServer, argv: Any) -> None:
        entered.set()
        resume.wait(20)
        nest(server, argv)

    monkeypatch.setattr(CommandServer, "nest", held)
    image = images["python"]
    box = provider.open(image, SNAPSHOT)
    ended: list[object] = []

    def first_command() -> None:
        try:
            ended.append(box.exec(["true"]))
        except SandboxUnavailable as exc:
            ended.append(exc)

    worker = threading.Thread(target=first_command)
    worker.start()
    assert entered.wait(20)
    box.close()
    for wiped in list(provider._ready.get(image, [])):
        with contextlib.suppress(SandboxUnavailable):
            wiped.result(timeout=30)
    resume.set()
    worker.join(20)
    assert not worker.is_alive(), "the cancelled check's first command never ended"
    assert [type(e) for e in ended] == [SandboxUnavailable]
    monkeypatch.setattr(CommandServer, "nest", nest)
    with provider.open(image, SNAPSHOT) as after:
        assert after.container_id is not None
        taken = provider.server(after.container_id, SANDBOX_USER)
        assert not taken.nested, "the next check was handed the cancelled check's mounts"
        assert after.exec(["echo", "ok"]).stdout == "ok\n"
