"""Containers that runs no longer alive left behind: the Docker backend's own clean-up.

Only containers carrying the tool's label are considered, and only when the owner process
the label names is gone (on another host: when older than the limit).
"""

from __future__ import annotations

import time

import docker
import docker.errors

from tdd_sandbox.sandbox.client import ENGINE_ERRORS
from tdd_sandbox.sandbox.labels import (
    CREATED_LABEL,
    LABEL,
    OWNER_LABEL,
    owner_alive,
    owner_is_local,
)
from tdd_sandbox.vocabulary.cleanup import GcReport, Item


def collect_containers(
    client: docker.DockerClient, report: GcReport, *, older_than_s: float | None
) -> None:
    """Containers whose owner process is gone (on another host: older than the limit). An
    engine that fails is reported as such: what it holds is kept."""
    try:
        found = client.api.containers(all=True, filters={"label": LABEL}, size=True)
    except ENGINE_ERRORS as exc:
        report.kept.append(Item("containers", "-", f"engine error: {exc}"))
        return
    now = time.time()
    for info in found:
        labels = info.get("Labels") or {}
        name = str(info["Id"])[:12]
        owner = labels.get(OWNER_LABEL, "")
        age = now - float(labels.get(CREATED_LABEL, info.get("Created", now)))
        if owner and owner_alive(owner):
            if owner_is_local(owner) or older_than_s is None or age < older_than_s:
                report.kept.append(Item("container", name, f"owner {owner} is alive"))
                continue
            reason = f"owner on another host, older than {older_than_s:.0f}s"
        else:
            if older_than_s is not None and age < older_than_s:
                report.kept.append(Item("container", name, "younger than --older-than"))
                continue
            reason = f"owner {owner or '?'} is gone"
        if not report.dry_run:
            try:
                client.api.remove_container(info["Id"], force=True)
            except docker.errors.NotFound:
                pass  # gone meanwhile: removed all the same
            except ENGINE_ERRORS as exc:
                # Another clean-up removing it at the same moment (409), or an engine hiccup:
                # one container never stops the sweep.
                report.kept.append(Item("container", name, f"not removed: {exc}"[:200]))
                continue
        report.removed.append(Item("container", name, reason, int(info.get("SizeRw") or 0)))
