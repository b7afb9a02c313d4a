"""The conditions of a job: what its result depends on besides its model's answers.

Each result records them (the settings a job's model was asked and judged under, and a digest
of its kata's files), so that `--resume` never reuses, and `bench merge` never joins, results
of other conditions: a board of answers cut at 1,024 tokens beside answers given 2,048, or of
a kata edited between sittings, would rank models by the harness's history. Each also records
the harness that judged it (`harness`), which a board says beside its figures.
"""

from __future__ import annotations

import functools
import hashlib
import subprocess
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from tdd_sandbox import __version__
from tdd_sandbox.bench.jobs import Job, model_settings
from tdd_sandbox.errors import UsageError
from tdd_sandbox.settings import Settings

_JUDGED = ("cycles", "max_attempts_per_agent", "parallel", "parallel_refactor", "autoformat",
           "llm", "roles", "gates", "sandbox")  # fmt: skip
"""The settings that shape what a model is asked, what it may answer, and how it is judged;
the others say where a bench runs and how it reports (its workers, prices, forge)."""
_REACHED = frozenset({"base_url", "api_key_env", "timeout_s", "max_retries"})
"""How a model is reached, not what it is asked: a server moved to another port is the same."""
_PLACED = frozenset({"type", "runtime", "isolation", "fake_gate_s"})
"""Where the sandbox runs, which the judge's verdicts must not depend on."""


def conditions(job: Job, settings: Settings) -> dict[str, Any]:
    """`job`'s conditions under `settings`: its model's judged settings (the bench's seed,
    not each repeat's) and its kata's digest."""
    asked = model_settings(settings, job.model).model_dump(mode="json")
    kept = {name: asked[name] for name in _JUDGED}
    kept["llm"] = _without(kept["llm"], _REACHED)
    kept["roles"] = {role: _without(each, _REACHED) for role, each in kept["roles"].items()}
    kept["sandbox"] = _without(kept["sandbox"], _PLACED)
    kept["seed"] = settings.bench.seed
    # The harness is recorded, not compared: a fix landed between sittings may resume a
    # board, and the board then says which harness judged how many of its jobs.
    return {"settings": kept, "kata": kata_digest(job.kata), "harness": harness()}


PACKAGE = Path(__file__).resolve().parents[1]


def harness(package: Path = PACKAGE) -> str:
    """The harness that judges here, in one line (`describe` of this package), described
    anew when a file of it has changed since: the sandbox's drivers are read from the
    package as each job is judged, so a harness edited under a running bench judges its
    later jobs, and their results must not name the commit it started at."""
    newest = max((path.stat().st_mtime_ns for path in package.rglob("*.py")), default=0)
    return _described(package, newest)


@functools.cache
def _described(package: Path, newest: int) -> str:
    del newest  # the cache's key: the package as its files stand
    return describe(package)


def describe(package: Path) -> str:
    """A package folder's harness in one line: the version and, in a checkout of its own
    repository, the commit (`with changes` when the package's files differ from it)."""
    said = f"tdd-sandbox {__version__}"

    def git(*args: str) -> str:
        done = subprocess.run(["git", "-C", str(package), *args], capture_output=True,
                              text=True, timeout=10, check=True)  # fmt: skip
        return done.stdout.strip()

    try:
        # A package installed into a virtual environment inside some other repository is
        # no checkout of its own: that repository's commit would say nothing about it.
        if Path(git("rev-parse", "--show-toplevel")).resolve() != package.parent.resolve():
            return said
        head = git("rev-parse", "--short=12", "HEAD")
        changed = git("status", "--porcelain", "--untracked-files=no", "--", ".")
    except (OSError, subprocess.SubprocessError):
        return said
    return f"{said} at {head}" + (" with changes" if changed else "")


def kata_digest(kata: Path) -> str:
    """A digest of every file in the kata's folder, by path and content."""
    digest = hashlib.sha256()
    for path in sorted(p for p in kata.rglob("*") if p.is_file()):
        digest.update(path.relative_to(kata).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]


def check_reused(job: Job, recorded: dict[str, Any], now: dict[str, Any], out: Path) -> None:
    """Refuse to reuse `recorded` (a finished result in `out`) under other conditions.

    Raises:
        UsageError: it recorded none, or others, naming the first difference.
    """
    fix = f"resume with the settings it ran under, or run into another --out ({out} is kept)"
    if "conditions" not in recorded:
        raise UsageError(
            f"--resume: {job.id} in {out} recorded no settings (an earlier version ran it): {fix}"
        )
    said = recorded["conditions"]
    if said["kata"] != now["kata"]:
        raise UsageError(f"--resume: the kata {job.kata.name} changed since {job.id} ran: {fix}")
    if changes := differences(said["settings"], now["settings"]):
        raise UsageError(f"--resume: {job.id} ran under other settings ({changes}): {fix}")


def check_mergeable(results: Iterable[dict[str, Any]]) -> None:
    """Refuse to merge a model's results run under different settings (results that
    recorded none cannot be checked and are let through).

    Raises:
        UsageError: naming the model and the first difference.
    """
    seen: dict[str, dict[str, Any]] = {}
    for result in results:
        if "conditions" not in result:
            continue
        settings = result["conditions"]["settings"]
        first = seen.setdefault(result["model"], settings)
        if changes := differences(first, settings):
            raise UsageError(
                f"bench merge: {result['model']} ran under other settings in {result['id']} "
                f"({changes}): merge only boards run with the same settings"
            )


def differences(before: dict[str, Any], after: dict[str, Any]) -> str:
    """The first few settings that differ, as `path before -> after`; empty when none."""
    old, new = dict(_flat(before)), dict(_flat(after))
    keys = sorted(old.keys() | new.keys())
    changed = [
        f"{key} {old.get(key)} -> {new.get(key)}" for key in keys if old.get(key) != new.get(key)
    ]
    more = f" and {len(changed) - 3} more" if len(changed) > 3 else ""
    return ", ".join(changed[:3]) + more


def _flat(tree: dict[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    for key, value in tree.items():
        if isinstance(value, dict) and value:
            yield from _flat(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", value


def _without(section: dict[str, Any], names: frozenset[str]) -> dict[str, Any]:
    return {key: value for key, value in section.items() if key not in names}
