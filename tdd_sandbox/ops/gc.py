"""`tdd-sandbox gc`: remove what runs that are no longer alive left behind.

It only ever considers things that carry the tool's mark: containers labelled `tdd-sandbox`,
worktrees under `<git dir>/tdd-worktrees/` on `tdd/<run>/...` branches, images labelled
`tdd-sandbox`, and `.tdd/runs/` folders. A run is alive while its process holds the
repository lock (containers: while their owner process lives); nothing of a live run, and
nothing of the user's, is touched.
"""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

import docker
import docker.errors

from tdd_sandbox.engine.journal import latest_run
from tdd_sandbox.images.builder import plan_image
from tdd_sandbox.images.catalog import BOOTSTRAP_REPOSITORY, LANGUAGE_LABEL, language_folders
from tdd_sandbox.repo.hardened import HardenedRepo
from tdd_sandbox.repo.leftovers import collect_worktrees
from tdd_sandbox.repo.lock import run_is_live
from tdd_sandbox.sandbox.labels import (
    LABEL,
)
from tdd_sandbox.sandbox.leftovers import collect_containers
from tdd_sandbox.settings import ImageSettings
from tdd_sandbox.vocabulary.cleanup import GcReport, Item, dir_size
from tdd_sandbox.vocabulary.files import TDD_DIR

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_age(text: str) -> float:
    """`90s`, `30m`, `2h`, `1d` -> seconds.

    Raises:
        ValueError: not such a duration.
    """
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*", text)
    if match is None:
        raise ValueError(f"{text!r} is not a duration; write e.g. 90s, 30m, 2h or 1d")
    return float(match.group(1)) * _UNITS[match.group(2) or "s"]


def collect_logs(
    repo_dir: Path, report: GcReport, live: str | None, older_than_s: float | None
) -> None:
    """`.tdd/runs/<run>` folders of finished or dead runs, the latest always kept."""
    runs = repo_dir / TDD_DIR / "runs"
    latest = latest_run(repo_dir)
    now = time.time()
    for folder in sorted(runs.iterdir()) if runs.is_dir() else []:
        if folder.name == live or (latest is not None and folder == latest):
            report.kept.append(Item("logs", folder.name, "live or latest run"))
            continue
        if older_than_s is not None and now - folder.stat().st_mtime < older_than_s:
            report.kept.append(Item("logs", folder.name, "younger than --older-than"))
            continue
        size = dir_size(folder)
        if not report.dry_run:
            shutil.rmtree(folder, ignore_errors=True)
        report.removed.append(Item("logs", folder.name, "an old run's records", size))


def collect_images(client: docker.DockerClient, settings: ImageSettings, report: GcReport) -> None:
    """Tool images that are no longer any language's current tag and that no container uses."""
    current = set()
    for language in language_folders(settings):
        try:
            current.add(plan_image(client, language, settings).tag)
        except Exception:  # noqa: BLE001 - an unplannable language keeps its images
            return
    used = {c.get("ImageID") for c in client.api.containers(all=True)}
    for image in client.images.list(filters={"label": f"{LABEL}"}):
        tags = set(image.tags)
        bootstrapped = any(tag.startswith(BOOTSTRAP_REPOSITORY + ":") for tag in tags)
        if tags & current or bootstrapped or image.id in used:
            report.kept.append(Item("image", ",".join(sorted(tags)) or image.short_id, "in use"))
            continue
        if LANGUAGE_LABEL not in image.labels:
            continue
        if not report.dry_run:
            try:
                client.images.remove(str(image.id), force=True)
            except docker.errors.APIError:
                continue
        name = ",".join(sorted(tags)) or image.short_id
        report.removed.append(Item("image", name, "superseded", int(image.attrs.get("Size", 0))))


def collect_garbage(
    *,
    repo_dir: Path | None,
    client: docker.DockerClient | None,
    images: ImageSettings | None = None,
    older_than_s: float | None = None,
    logs: bool = False,
    dry_run: bool = False,
) -> GcReport:
    """Everything gc does, in order: containers, worktrees and branches, logs, images."""
    report = GcReport(dry_run=dry_run)
    if client is not None:
        collect_containers(client, report, older_than_s=older_than_s)
    if repo_dir is not None:
        repo = HardenedRepo(repo_dir)
        try:
            collect_worktrees(repo, report, older_than_s=older_than_s)
            if logs:
                collect_logs(repo_dir, report, run_is_live(repo), older_than_s)
        finally:
            repo.close()
    if client is not None and images is not None:
        collect_images(client, images, report)
    return report
