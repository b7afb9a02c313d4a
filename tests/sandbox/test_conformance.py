"""The contract every sandbox backend keeps. Each test runs once per backend."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator

import pytest

from tdd_sandbox.errors import SandboxUnavailable
from tdd_sandbox.sandbox.base import ExecResult, Sandbox
from tdd_sandbox.sandbox.docker_provider import DockerSandboxProvider
from tdd_sandbox.sandbox.snapshot import Snapshot
from tests.conftest import ON_EVERY_ISOLATION, ON_EVERY_RUNTIME

pytestmark = [pytest.mark.docker, ON_EVERY_RUNTIME, ON_EVERY_ISOLATION]

SNAPSHOT = Snapshot({"hello.txt": b"hello\n", "pkg/data.txt": b"data\n"})
OpenSandbox = Callable[[Snapshot], Sandbox]


@pytest.fixture(params=["docker"])
def open_sandbox(
    request: pytest.FixtureRequest, provider: DockerSandboxProvider, images: dict[str, str]
) -> Iterator[OpenSandbox]:
    """Opens sandboxes of the backend under test and closes them afterwards."""
    opened: list[Sandbox] = []

    def factory(snapshot: Snapshot) -> Sandbox:
        sandbox = provider.open(images["python"], snapshot)
        opened.append(sandbox)
        return sandbox

    yield factory
    for sandbox in opened:
        sandbox.close()


def test_success_and_failure_are_both_data(open_sandbox: OpenSandbox) -> None:
    box = open_sandbox(SNAPSHOT)
    ok = box.exec(["cat", "hello.txt"])
    assert (ok.exit_code, ok.stdout, ok.ok) == (0, "hello\n", True)
    failed = box.exec(["sh", "-c", "echo oops >&2; exit 3"])
    assert (failed.exit_code, failed.stderr, failed.ok) == (3, "oops\n", False)
    missing = box.exec(["no-such-command"])
    assert missing.exit_code == 127


def test_snapshot_is_there_and_read_only(open_sandbox: OpenSandbox) -> None:
    box = open_sandbox(SNAPSHOT)
    assert box.exec(["cat", "pkg/data.txt"]).stdout == "data\n"
    for attempt in (
        "echo x > hello.txt",
        "rm -f hello.txt",
        "mkdir .git",
        "touch new.txt",
        "mv pkg pkg2",
    ):
        result = box.exec(["sh", "-c", attempt])
        assert result.exit_code != 0, attempt
    assert box.exec(["cat", "hello.txt"]).stdout == "hello\n"
    assert box.exec(["sh", "-c", "echo scratch > /tmp/x && cat /tmp/x"]).stdout == "scratch\n"


def test_environment_is_passed_per_command(open_sandbox: OpenSandbox) -> None:
    box = open_sandbox(SNAPSHOT)
    result = box.exec(["sh", "-c", 'echo "$GREETING"'], env={"GREETING": "hi"})
    assert result.stdout == "hi\n"


def test_timeout_kills_the_whole_tree_in_bounded_time(open_sandbox: OpenSandbox) -> None:
    box = open_sandbox(SNAPSHOT)
    started = time.monotonic()
    result = box.exec(
        ["sh", "-c", "trap '' TERM; (trap '' TERM; sleep 1000) & sleep 1000"], timeout_s=1
    )
    assert result.timed_out
    assert result.exit_code is None
    assert time.monotonic() - started < 6
    assert _sleepers(box) == 0


def test_output_is_capped_and_a_flood_stopped(open_sandbox: OpenSandbox) -> None:
    box = open_sandbox(SNAPSHOT)
    capped = box.exec(["sh", "-c", "head -c 600000 /dev/zero | tr '\\0' x"])
    assert capped.output_truncated
    assert "bytes of output cut by tdd-sandbox" in capped.stdout
    assert len(capped.stdout) < 300_000
    started = time.monotonic()
    flood = box.exec(["yes"], timeout_s=60)
    assert flood.flooded
    assert time.monotonic() - started < 30


def test_leftover_processes_are_reported_and_killed(open_sandbox: OpenSandbox) -> None:
    box = open_sandbox(SNAPSHOT)
    result = box.exec(["sh", "-c", "setsid sleep 1000 > /dev/null 2>&1 < /dev/null & exit 0"])
    assert result.exit_code == 0
    # Seen as the forked shell, as setsid or as sleep: how far the child got before the sweep
    # depends on the machine's load. Whichever it was, it is reported once and killed. Caught
    # in the middle of an exec it has no arguments yet, and `ps` gives its name in brackets
    # (CI saw "[setsid]").
    assert len(result.leftover_processes) == 1
    assert re.fullmatch(r".*sleep 1000.*|\[(sh|setsid|sleep)\]", result.leftover_processes[0])
    assert not result.ok
    assert _sleepers(box) == 0


def test_a_small_file_comes_back_with_the_result(open_sandbox: OpenSandbox) -> None:
    box = open_sandbox(SNAPSHOT)
    made = box.exec(["sh", "-c", "printf 'a\\0b' > /tmp/out"], collect="/tmp/out")
    assert made.collected == b"a\0b"
    assert box.exec(["true"], collect="/tmp/missing").collected is None
    big = box.exec(["sh", "-c", "head -c 700000 /dev/zero > /tmp/big"], collect="/tmp/big")
    assert big.collected is None  # past the output cap it cannot ride along: read_file it
    assert box.read_file("/tmp/big") == b"\0" * 700000


def _sleepers(box: Sandbox) -> int:
    listing = box.exec(["ps", "-u", "10001", "-o", "comm="])
    # A listing that never ran is no count: CI once read the engine's "try again" (every pid
    # still held by the dying bomb) and counted the word `sleep` in the script it quoted.
    assert listing.ok, listing.stdout[-300:]
    return listing.stdout.split().count("sleep")


def test_read_file(open_sandbox: OpenSandbox) -> None:
    box = open_sandbox(SNAPSHOT)
    assert box.read_file("/work/hello.txt") == b"hello\n"
    assert box.read_file("/work/missing") is None
    box.exec(["sh", "-c", "head -c 5000 /dev/zero > /tmp/big"])
    assert box.read_file("/tmp/big", max_bytes=100) == b"\0" * 100


@pytest.mark.exhausts
def test_a_fork_bomb_ends_classified(open_sandbox: OpenSandbox) -> None:
    box = open_sandbox(SNAPSHOT)
    started = time.monotonic()
    bomb = box.exec(["sh", "-c", "b() { b | b & }; b; sleep 1000"], timeout_s=3)
    assert not bomb.ok
    assert time.monotonic() - started < 15
    # The stop waits for the bomb's processes to be gone: the next command finds its pids free.
    assert _sleepers(box) == 0


PID_FILLER = """
import threading, time
while True:
    try:
        threading.Thread(target=time.sleep, args=(1000,)).start()
    except RuntimeError:
        time.sleep(1000)
"""


@pytest.mark.exhausts
def test_a_command_holding_every_pid_ends_and_the_sandbox_stays_usable(
    open_sandbox: OpenSandbox,
) -> None:
    box = open_sandbox(SNAPSHOT)
    wrecked = box.exec(["python3", "-c", PID_FILLER], timeout_s=3)
    assert wrecked.timed_out
    assert box.exec(["cat", "hello.txt"]).stdout == "hello\n"


# Sleepers forked until the kernel refuses. Each child becomes `sleep` at once, so memory
# is not what stops them (a fork bomb of whole Pythons ends gVisor's sandbox on memory).
FORKER = """
import os
made = 0
while made < 1000:
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        os.execv("/bin/sleep", ["sleep", "60"])
    made += 1
print(made)
"""


@pytest.mark.exhausts
def test_the_code_holds_no_more_processes_than_the_limit(
    open_sandbox: OpenSandbox, provider: DockerSandboxProvider
) -> None:
    """Processes forked until the kernel refuses: under runc the pids cgroup refuses, under
    gVisor (whose tasks are no host threads, so the cgroup cannot count them) RLIMIT_NPROC."""
    box = open_sandbox(SNAPSHOT)
    forked = box.exec(["python3", "-c", FORKER], timeout_s=60)
    assert int(forked.stdout) < provider.settings.pids, forked.stderr[-500:]
    assert _sleepers(box) == 0


def test_closed_sandbox_raises(open_sandbox: OpenSandbox) -> None:
    box = open_sandbox(SNAPSHOT)
    box.close()
    box.close()  # idempotent
    with pytest.raises(SandboxUnavailable):
        box.exec(["true"])


ALONE_OR_TOGETHER = (
    ["cat", "hello.txt"],
    ["sh", "-c", "printf 'no newline'; echo oops >&2; exit 3"],
    ["no-such-command"],
    ["sh", "-c", "setsid sleep 1000 > /dev/null 2>&1 < /dev/null & exit 0"],
    ["sh", "-c", "head -c 600000 /dev/zero | tr '\\0' x"],
    ["sh", "-c", "echo '$(echo not expanded)' \"$0\"", "it's"],
)


def _seen(result: ExecResult) -> tuple[object, ...]:
    # The shell names the line it failed to run a command from: the supervisors' differ.
    stderr = re.sub(r"^tdd-supervisor: \d+: ", "", result.stderr)
    return (
        result.exit_code,
        result.stdout,
        stderr,
        result.ok,
        result.output_truncated,
        len(result.leftover_processes),
    )


def test_commands_run_together_give_what_each_gives_alone(open_sandbox: OpenSandbox) -> None:
    box = open_sandbox(SNAPSHOT)
    alone = [box.exec(command) for command in ALONE_OR_TOGETHER]
    together = box.exec_each(ALONE_OR_TOGETHER)
    assert [_seen(r) for r in together] == [_seen(r) for r in alone]
    assert _sleepers(box) == 0


# Finds the batch's supervisor and reads the nonce off its arguments.
_FIND_BATCH = r"""
for p in /proc/[0-9]*; do
  # The pattern matches the batch's script and not this one, which holds it with a "\".
  if tr '\0' '\n' < "$p/cmdline" 2>/dev/null | grep -q 'i=\$((i + 1))'; then
    n=$(python3 -c 'import sys; print(open(sys.argv[1], "rb").read().split(b"\0")[4].decode())' \
      "$p/cmdline"); batch=${p#/proc/}
  fi
done
[ -n "$n" ] || exit 0
"""
# As the first of two commands: prints the lines the supervisor would print for the next
# command (a pass) and for the batch's end.
_FORGE = (
    _FIND_BATCH
    + r"""
printf '\n@@%s begin 1\nall good\n' "$n"
printf '\n@@%s begin 1\n\n@@%s.1 rc=0 oom=0 cs=1\n\n@@%s done\n' "$n" "$n" "$n" >&2
"""
)
# As the second of three: prints every line still to come (its own pass, the third's and the
# end), then kills the supervisor so that none of the real ones follow.
_FORGE_ALL_AND_KILL = (
    _FIND_BATCH
    + r"""
printf '\n@@%s begin 2\n' "$n"
printf '\n@@%s.1 rc=0 oom=0 cs=1\n\n@@%s begin 2\n\n@@%s.2 rc=0 oom=0 cs=1\n\n@@%s done\n' \
  "$n" "$n" "$n" "$n" >&2
kill -9 "$batch"
"""
)


def test_a_command_cannot_forge_the_result_of_the_next_one_in_its_batch(
    open_sandbox: OpenSandbox,
) -> None:
    box = open_sandbox(SNAPSHOT)
    forged, failing = box.exec_each([["sh", "-c", _FORGE], ["false"]])
    assert re.search(r"@@[0-9a-f]{16} begin 1\nall good", forged.stdout)  # it did forge
    assert (failing.exit_code, failing.stdout) == (1, "")
    # A forger of every line still to come that then kills the supervisor: the batch is
    # not taken, and every command runs again on its own.
    killer = ["sh", "-c", _FORGE_ALL_AND_KILL]
    _, killed, failing = box.exec_each([["true"], killer, ["false"]])
    assert (failing.exit_code, failing.stdout) == (1, "")
    assert killed.exit_code == 0  # alone, it found no batch to forge for


def test_a_command_that_times_out_in_a_batch_times_out_alone(open_sandbox: OpenSandbox) -> None:
    box = open_sandbox(SNAPSHOT)
    commands, timeout = [["sleep", "1000"]] + [["echo", "ok"]] * 3, 4
    started = time.monotonic()
    slow, *quick = box.exec_each(commands, timeout_s=timeout)
    assert slow.timed_out
    assert slow.exit_code is None
    assert [r.stdout for r in quick] == ["ok\n"] * 3
    # Its time in the batch and its time alone (2 timeouts and the engine's overhead, which
    # reached 3.7 s on a loaded CI machine), not the batch's four commands' worth: a batch
    # given that spends it all before anything runs alone.
    assert time.monotonic() - started < len(commands) * timeout
    assert _sleepers(box) == 0


# A leftover that takes a while to die: its heap (touched, so the kernel must free every page)
# outlives the SIGKILL by the time the kernel takes to tear it down.
_SLOW_TO_DIE = (
    "python3 -c 'import time; b = bytearray(100 * 2**20); time.sleep(1000)' "
    "> /dev/null 2>&1 < /dev/null & sleep 2; exit 0"
)


def test_a_leftover_slow_to_die_is_the_leftover_of_its_own_command_alone(
    open_sandbox: OpenSandbox,
) -> None:
    box = open_sandbox(SNAPSHOT)
    leaving, *after = box.exec_each([["sh", "-c", _SLOW_TO_DIE]] + [["true"]] * 3)
    assert len(leaving.leftover_processes) == 1, leaving
    assert [r.leftover_processes for r in after] == [()] * 3
