"""`tdd-sandbox gc`: remove what runs that are no longer alive left behind.

It only ever considers things that carry the tool's mark: containers labelled `tdd-sandbox`,
worktrees under `<git dir>/tdd-worktrees/` on `tdd/<run>/...` branches, images labelled
`tdd-sandbox`, and `.tdd/runs/` folders. A run is alive while its process holds the
repository lock (containers: while their owner process lives); nothing of a live run, and
nothing of the user's, is touched.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

import docker
import docker.errors
import git.exc

from tdd_sandbox.engine.journal import latest_run
from tdd_sandbox.images.builder import plan_image
from tdd_sandbox.images.catalog import BOOTSTRAP_REPOSITORY, LANGUAGE_LABEL, language_folders
from tdd_sandbox.repo.hardened import HardenedRepo
from tdd_sandbox.repo.lock import run_is_live
from tdd_sandbox.repo.worktrees import Leftover, list_tool_worktrees, remove_worktree
from tdd_sandbox.repo.worktrees import Worktree as _Worktree
from tdd_sandbox.sandbox.docker import ENGINE_ERRORS
from tdd_sandbox.sandbox.labels import (
    CREATED_LABEL,
    LABEL,
    OWNER_LABEL,
    owner_alive,
    owner_is_local,
)
from tdd_sandbox.settings import ImageSettings
from tdd_sandbox.vocabulary.files import TDD_DIR

RUN_ID = re.compile(r"^\d{8}-\d{6}-[0-9a-f]{6}$")
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


@dataclass(frozen=True)
class Item:
    """One thing gc removed (or would remove)."""

    kind: str
    name: str
    reason: str
    bytes: int = 0


@dataclass
class GcReport:
    """What gc did."""

    dry_run: bool
    removed: list[Item] = field(default_factory=list)
    kept: list[Item] = field(default_factory=list)

    @property
    def freed_bytes(self) -> int:
        """Bytes freed (or that would be)."""
        return sum(item.bytes for item in self.removed)


def _dir_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def collect_containers(
    client: docker.DockerClient, report: GcReport, *, older_than_s: float | None
) -> None:
    """Containers whose owner process is gone (on another host: older than the limit)."""
    now = time.time()
    for info in client.api.containers(all=True, filters={"label": LABEL}, size=True):
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
            with contextlib.suppress(docker.errors.NotFound):
                client.api.remove_container(info["Id"], force=True)
        report.removed.append(Item("container", name, reason, int(info.get("SizeRw") or 0)))


def collect_worktrees(repo: HardenedRepo, report: GcReport, *, older_than_s: float | None) -> None:
    """Worktrees and branches of runs that do not hold the repository lock."""
    live = run_is_live(repo)
    now = time.time()
    for leftover in list_tool_worktrees(repo):
        if not RUN_ID.match(leftover.run_id):
            continue  # a `tdd/...` branch that is not of the tool's making
        label = leftover.branch
        if leftover.run_id == live:
            report.kept.append(Item("worktree", label, f"run {live} is alive"))
            continue
        if older_than_s is not None and _age(leftover, now) < older_than_s:
            report.kept.append(Item("worktree", label, "younger than --older-than"))
            continue
        size = _dir_size(leftover.path) if leftover.path and leftover.path.exists() else 0
        if not report.dry_run:
            path = leftover.path or Path("/nonexistent")
            remove_worktree(repo, _Worktree(path, leftover.branch, leftover.run_id))
        kind = "worktree" if leftover.path else "branch"
        report.removed.append(Item(kind, label, f"run {leftover.run_id} is not alive", size))
    if not report.dry_run:
        with contextlib.suppress(git.exc.GitCommandError):
            repo.run("worktree", "prune")


def _age(leftover: Leftover, now: float) -> float:
    if leftover.path is not None and leftover.path.exists():
        return now - leftover.path.stat().st_mtime
    stamp = time.mktime(time.strptime(leftover.run_id[:15], "%Y%m%d-%H%M%S"))
    return now - stamp


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
        size = _dir_size(folder)
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
        try:
            collect_containers(client, report, older_than_s=older_than_s)
        except ENGINE_ERRORS as exc:
            report.kept.append(Item("containers", "-", f"engine error: {exc}"))
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
