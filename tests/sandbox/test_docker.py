"""Docker-specific behaviour beyond the conformance suite."""

from __future__ import annotations

import threading
import time
from typing import Any

import docker
import pytest
import requests.exceptions

from tdd_sandbox.errors import SandboxUnavailable
from tdd_sandbox.sandbox.container import KEEPER_USER
from tdd_sandbox.sandbox.docker_provider import DockerSandboxProvider
from tdd_sandbox.sandbox.labels import LABEL
from tdd_sandbox.sandbox.snapshot import Snapshot
from tdd_sandbox.settings import SandboxSettings
from tdd_sandbox.settings.sandbox import Isolation, OciRuntime
from tests.conftest import ON_EVERY_ISOLATION, ON_EVERY_RUNTIME, assert_no_containers

pytestmark = [pytest.mark.docker, ON_EVERY_RUNTIME]

SNAPSHOT = Snapshot({"hello.txt": b"hello\n"})


@ON_EVERY_ISOLATION
def test_a_dead_container_is_replaced_with_the_same_snapshot(
    provider: DockerSandboxProvider, images: dict[str, str], docker_client: docker.DockerClient
) -> None:
    with provider.open(images["python"], SNAPSHOT) as box:
        first = box.container_id
        assert first is not None
        docker_client.api.kill(first)
        result = box.exec(["cat", "hello.txt"])
        assert result.stdout == "hello\n"
        assert box.container_id not in (None, first)


@ON_EVERY_ISOLATION
def test_a_sealed_command_cannot_read_a_sealable_file_nor_give_itself_the_right(
    provider: DockerSandboxProvider, images: dict[str, str]
) -> None:
    snapshot = Snapshot(
        {"hello.txt": b"hello\n", "open.txt": b"open\n"}, sealable=frozenset({"hello.txt"})
    )
    with provider.open(images["python"], snapshot) as box:
        assert box.exec(["cat", "hello.txt"]).stdout == "hello\n"
        tries = (
            "cat hello.txt",
            "chmod o+r hello.txt",
            "cp hello.txt /tmp/x",
            "sg 10003 -c 'cat hello.txt'",
            "newgrp 10003 < /dev/null",
            # In a warm container a seal is a mount over the file: lift it, from a user
            # namespace of the code's own if need be (gVisor does not lock mounts).
            "umount /work/hello.txt",
            "unshare -Urm sh -c 'umount /work/hello.txt; cat /work/hello.txt'",
        )
        for attempt in tries:
            result = box.exec(["sh", "-c", f"{attempt} && cat hello.txt"], sealed=True)
            assert result.exit_code != 0, (attempt, result.stdout)
            assert "hello" not in result.stdout, attempt
        # What is not sealable stays readable, and sealing lasts one command.
        assert box.exec(["cat", "open.txt"], sealed=True).stdout == "open\n"
        assert box.exec(["cat", "hello.txt"]).stdout == "hello\n"


@ON_EVERY_ISOLATION
def test_no_command_changes_the_snapshot_not_even_from_a_namespace_of_its_own(
    provider: DockerSandboxProvider, images: dict[str, str]
) -> None:
    """The snapshot is the keeper's, or under `isolation: namespace` the check's read-only
    copy (`mounts.py`), which gVisor would let a user namespace of the code's own remount."""
    with provider.open(images["python"], SNAPSHOT) as box:
        tries = (
            "echo forged > hello.txt",
            "chmod u+w hello.txt && echo forged > hello.txt",
            "rm -f hello.txt && echo forged > hello.txt",
            "mount -o remount,rw /work && echo forged > hello.txt",
            "unshare -Urm sh -c 'mount -o remount,rw /work; echo forged > /work/hello.txt'",
            "unshare -Ur sh -c 'mount -o remount,rw /work; echo forged > /work/hello.txt'",
        )
        for attempt in tries:
            box.exec(["sh", "-c", attempt])
            assert box.exec(["cat", "hello.txt"]).stdout == "hello\n", attempt


@ON_EVERY_ISOLATION
def test_a_sealable_file_is_sealable_in_the_container_that_replaces_a_dead_one(
    provider: DockerSandboxProvider, images: dict[str, str], docker_client: docker.DockerClient
) -> None:
    snapshot = Snapshot({"hello.txt": b"hello\n"}, sealable=frozenset({"hello.txt"}))
    with provider.open(images["python"], snapshot) as box:
        first = box.container_id
        assert first is not None
        docker_client.api.kill(first)
        replaced = box.exec(["cat", "hello.txt"], sealed=True)
        assert box.container_id not in (None, first)
        assert replaced.exit_code != 0, replaced.stdout
        assert "Permission denied" in replaced.stderr
        assert box.exec(["cat", "hello.txt"]).stdout == "hello\n"


@ON_EVERY_ISOLATION
def test_the_warm_pool_serves_each_check_as_its_isolation_says_and_close_removes_all(
    docker_client: docker.DockerClient,
    images: dict[str, str],
    sandbox_runtime: OciRuntime,
    sandbox_isolation: Isolation,
) -> None:
    """A container per check (`container`), or one emptied and checked between checks
    (`namespace`: `test_residue.py` shows nothing of one reaches the next)."""
    settings = SandboxSettings(warm=2, runtime=sandbox_runtime, isolation=sandbox_isolation)
    with DockerSandboxProvider(settings, run_id="pytest-warm", client=docker_client) as made:
        made.prewarm(images["python"])
        seen = set()
        for text in (b"one\n", b"two\n", b"three\n"):
            with made.open(images["python"], Snapshot({"hello.txt": text})) as box:
                assert box.exec(["cat", "hello.txt"]).stdout == text.decode()
                seen.add(box.container_id)
        if sandbox_isolation == "container":
            assert len(seen) == 3  # never reused across snapshots
        else:
            assert len(seen) <= settings.warm  # the pool's, reused
    assert_no_containers(docker_client, "pytest-warm")


def _exists(client: docker.DockerClient, container: str) -> bool:
    return bool(client.api.containers(all=True, filters={"id": container}))


def test_a_closed_sandbox_s_container_is_removed_off_its_path_and_before_the_provider_ends(
    docker_client: docker.DockerClient, images: dict[str, str], sandbox_runtime: OciRuntime
) -> None:
    settings = SandboxSettings(warm=0, runtime=sandbox_runtime, isolation="container")
    with DockerSandboxProvider(settings, run_id="pytest-retire", client=docker_client) as made:
        box = made.open(images["python"], SNAPSHOT)
        first = box.container_id
        assert first is not None
        box.close()
        assert box.container_id is None
        deadline = time.monotonic() + 30
        while _exists(docker_client, first):  # removed in the background, soon
            assert time.monotonic() < deadline, "a closed sandbox's container stayed"
            time.sleep(0.05)
        # Closed right after a sandbox: the provider waits for that removal too.
        last = made.open(images["python"], SNAPSHOT)
        second = last.container_id
        assert second is not None
        last.close()
    assert not _exists(docker_client, second)


def test_a_removal_the_engine_refuses_once_is_tried_again_and_none_is_left(
    docker_client: docker.DockerClient,
    images: dict[str, str],
    sandbox_runtime: OciRuntime,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Seen in CI under gVisor after a flood: the engine answered one forced removal with an
    # error (its kill missed its deadline), the container stayed, and nothing tried again.
    refused: list[str] = []
    remove = docker_client.api.remove_container

    def refuse_each_first(container: str, **kwargs: Any) -> None:
        if container not in refused:
            refused.append(container)
            raise docker.errors.APIError(
                "tried to kill container, but did not receive an exit event"
            )
        remove(container, **kwargs)

    monkeypatch.setattr(docker_client.api, "remove_container", refuse_each_first)
    settings = SandboxSettings(warm=0, runtime=sandbox_runtime, isolation="container")
    with DockerSandboxProvider(settings, run_id="pytest-refused", client=docker_client) as made:
        retired = made.open(images["python"], SNAPSHOT)
        first = retired.container_id
        retired.close()  # removed in the background
        kept = made.open(images["python"], SNAPSHOT)
        second = kept.container_id
        assert first is not None
        assert second is not None
    # The provider has ended: its removals are done, the refused ones tried again.
    assert refused == [first, second]
    assert not _exists(docker_client, first)
    assert not _exists(docker_client, second)


@pytest.mark.parametrize(
    "made_after_s", [0.0, 2.0], ids=["before-the-call-gave-up", "after-the-closing-sweep"]
)
def test_a_container_made_after_its_creation_call_timed_out_is_removed_when_the_provider_ends(
    docker_client: docker.DockerClient,
    images: dict[str, str],
    sandbox_runtime: OciRuntime,
    monkeypatch: pytest.MonkeyPatch,
    made_after_s: float,
) -> None:
    # A busy engine can create a container after the client stopped waiting for its answer:
    # the provider never learns its id, yet it carries the provider's labels. Made two
    # seconds on, it came after the provider's closing sweep had found nothing: it stood.
    create = docker_client.api.create_container
    later: list[threading.Timer] = []

    def late(*args: Any, **kwargs: Any) -> Any:
        if made_after_s:
            later.append(threading.Timer(made_after_s, create, args=args, kwargs=kwargs))
            later[-1].start()
        else:
            create(*args, **kwargs)
        raise requests.exceptions.ReadTimeout("Read timed out. (read timeout=60)")

    monkeypatch.setattr(docker_client.api, "create_container", late)
    settings = SandboxSettings(warm=0, runtime=sandbox_runtime, isolation="container")
    with (
        DockerSandboxProvider(settings, run_id="pytest-late", client=docker_client) as made,
        pytest.raises(SandboxUnavailable),
    ):
        made.open(images["python"], SNAPSHOT)
    for timer in later:
        timer.join()
    assert_no_containers(docker_client, "pytest-late")


def test_a_removal_the_engine_refuses_for_seconds_is_done_before_the_provider_ends(
    docker_client: docker.DockerClient,
    images: dict[str, str],
    sandbox_runtime: OciRuntime,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Seen in CI: a container "left behind" by a provider whose removals had all been
    # refused, in the background and again at its close, within the retries' two seconds.
    remove = docker_client.api.remove_container
    until = time.monotonic() + 6.0

    def refuse_for_a_while(container: str, **kwargs: Any) -> None:
        if time.monotonic() < until:
            raise docker.errors.APIError(
                "tried to kill container, but did not receive an exit event"
            )
        remove(container, **kwargs)

    monkeypatch.setattr(docker_client.api, "remove_container", refuse_for_a_while)
    settings = SandboxSettings(warm=0, runtime=sandbox_runtime, isolation="container")
    with DockerSandboxProvider(settings, run_id="pytest-refusing", client=docker_client) as made:
        made.open(images["python"], SNAPSHOT).close()
    assert_no_containers(docker_client, "pytest-refusing")


def test_a_removal_already_under_way_is_waited_for_and_the_container_is_gone_after(
    docker_client: docker.DockerClient,
    images: dict[str, str],
    sandbox_runtime: OciRuntime,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Seen in CI under gVisor and load: the engine answers a removal with "already in
    # progress" (another call's, taking seconds), the retries ran out before it ended, and
    # the container was still there when its test checked.
    remove = docker_client.api.remove_container
    slow: list[threading.Thread] = []

    def under_way(container: str, **kwargs: Any) -> None:
        if not slow:
            slow.append(threading.Timer(2.5, remove, args=(container,), kwargs=kwargs))
            slow[0].start()
        if slow[0].is_alive():
            raise docker.errors.APIError(f"removal of container {container} is already in progress")
        remove(container, **kwargs)

    monkeypatch.setattr(docker_client.api, "remove_container", under_way)
    settings = SandboxSettings(warm=0, runtime=sandbox_runtime, isolation="container")
    with DockerSandboxProvider(settings, run_id="pytest-removing", client=docker_client) as made:
        container = made.take_container(images["python"])
        made.destroy(container)
        assert not _exists(docker_client, container)
    slow[0].join()


@pytest.mark.parametrize("sandbox_isolation", ["container"], indirect=True)
def test_the_snapshot_is_unpacked_by_the_main_process_with_no_exec_of_its_own(
    provider: DockerSandboxProvider, images: dict[str, str], execs: list[object]
) -> None:
    """An exec costs the engine a runtime process (~50 ms of CPU on two cores); the
    snapshot rides on the attached stdin of the idle main process instead."""
    snapshot = Snapshot({"hello.txt": b"hello\n", "pkg/deep/data.txt": b"data\n"})
    box = provider.open(images["python"], snapshot)
    try:
        assert execs == []
        assert box.exec(["cat", "pkg/deep/data.txt"]).stdout == "data\n"
    finally:
        box.close()


@ON_EVERY_ISOLATION
def test_a_snapshot_that_does_not_fit_is_refused_with_the_reason(
    docker_client: docker.DockerClient,
    images: dict[str, str],
    sandbox_runtime: OciRuntime,
    sandbox_isolation: Isolation,
) -> None:
    settings = SandboxSettings(
        warm=0, work_size="1m", runtime=sandbox_runtime, isolation=sandbox_isolation
    )
    big = Snapshot({"big.bin": b"x" * (3 << 20)})
    refused = r"unpacking the repo .*big\.bin.*sandbox\.work_size"
    with (
        DockerSandboxProvider(settings, run_id="pytest-big", client=docker_client) as made,
        pytest.raises(SandboxUnavailable, match=refused),
    ):
        made.open(images["python"], big)
    left = docker_client.containers.list(
        all=True, filters={"label": [LABEL, f"{LABEL}.run=pytest-big"]}
    )
    assert left == []


@ON_EVERY_ISOLATION
def test_the_snapshot_travels_uncompressed_on_an_exec_never_by_the_engines_copy(
    provider: DockerSandboxProvider,
    images: dict[str, str],
    docker_client: docker.DockerClient,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The 2026 Docker CVEs abuse the engine's archive path (`docker cp`, put/get_archive: a
    compressed upload is unpacked by the container's own decompressor as root; mount races
    in the copy). A snapshot goes in as a plain tar on the stdin of an unprivileged `tar -x`,
    and files come out on an exec's stdout: the archive endpoints are never called."""
    called: list[str] = []
    for endpoint in ("put_archive", "get_archive", "export", "get_archive_stat"):
        if hasattr(docker_client.api, endpoint):
            monkeypatch.setattr(
                docker_client.api, endpoint, lambda *a, _name=endpoint, **k: called.append(_name)
            )
    snapshot = Snapshot({"hello.txt": b"hello\n", "pkg/deep/data.txt": b"data\n"})
    archive = snapshot.to_tar()
    assert archive[257:262] == b"ustar"  # a plain tar: no gzip, bzip2, xz or zstd header
    with provider.open(images["python"], snapshot) as box:
        assert box.exec(["cat", "pkg/deep/data.txt"]).stdout == "data\n"
        box.exec(["sh", "-c", "echo made > /tmp/out"])
        assert box.read_file("/tmp/out") == b"made\n"
        # As the keeper sees them in the container (a command in namespaces of its own
        # sees every user but its own as nobody).
        find = ["find", "/work", "-printf", "%u %p\\n"]
        found = docker_client.api.exec_create(box.container_id, find, user=KEEPER_USER)["Id"]
        owners = docker_client.api.exec_start(found).decode().split("\n")
    assert called == []
    # Unpacked by the keeper (no capability, not root), so nothing it wrote is root's.
    assert {line.split()[0] for line in owners if line} == {"keeper"}


@ON_EVERY_ISOLATION
def test_each_command_of_a_batch_has_its_own_time(
    provider: DockerSandboxProvider, images: dict[str, str], execs: list[object]
) -> None:
    """Three commands of 0.6 s with 1 s each: the batch takes longer than one command may,
    and is taken all the same (one exec: no command ran again alone)."""
    box = provider.open(images["python"], SNAPSHOT)
    try:
        before = len(execs)  # in namespaces of their own, the snapshot came by exec
        results = box.exec_each([["sleep", "0.6"]] * 3, timeout_s=1)
        assert len(execs) == before + 1
    finally:
        box.close()
    assert [r.exit_code for r in results] == [0, 0, 0]
    assert not any(r.timed_out for r in results)
