"""The leftover sweep: one container it cannot remove never stops it."""

from __future__ import annotations

import socket
from typing import Any

import docker.errors

from tdd_sandbox.sandbox.labels import CREATED_LABEL, LABEL, OWNER_LABEL
from tdd_sandbox.sandbox.leftovers import collect_containers
from tdd_sandbox.vocabulary.cleanup import GcReport

GONE = f"{socket.gethostname()}:999999999:1"  # a process of this machine that is not running


class _Api:
    """Two containers of a dead owner; the first is being removed by another sweep (409)."""

    def __init__(self) -> None:
        self.removed: list[str] = []

    def containers(self, **_: Any) -> list[dict[str, Any]]:
        labels = {LABEL: "1", OWNER_LABEL: GONE, CREATED_LABEL: "0"}
        return [{"Id": "a" * 64, "Labels": labels}, {"Id": "b" * 64, "Labels": labels}]

    def remove_container(self, container: str, force: bool) -> None:
        if container.startswith("a"):
            raise docker.errors.APIError("409 Conflict: removal of container is in progress")
        self.removed.append(container)


class _Client:
    def __init__(self) -> None:
        self.api = _Api()


def test_a_container_another_sweep_is_removing_does_not_stop_the_sweep() -> None:
    client = _Client()
    report = GcReport(dry_run=False)
    collect_containers(client, report, older_than_s=None)  # type: ignore[arg-type]
    assert client.api.removed == ["b" * 64]
    assert [item.name for item in report.removed] == ["b" * 12]
    assert [item.name for item in report.kept] == ["a" * 12]
    assert "409" in report.kept[0].reason
