"""Planning a bench: the jobs, which models they use, and a deterministic shard of them."""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tdd_sandbox.acceptance.suite import has_calls, has_reference, has_suite
from tdd_sandbox.acceptance.testfiles import hidden_test_files
from tdd_sandbox.bench.mode import Mode
from tdd_sandbox.errors import UsageError
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.settings import (
    BENCH_ENTRY_OPTIONS,
    BenchSettings,
    RolesSettings,
    Settings,
    split_model,
)

ROLES = ("tester", "implementer", "refactorer")


@dataclass(frozen=True)
class ModelEntry:
    """A contestant: a name and the model each role uses."""

    name: str
    roles: tuple[tuple[str, str], ...]
    """(role, `provider:model`) for the three roles."""
    options: tuple[tuple[str, str], ...] = ()
    """Role settings the entry sets for every role (edit_format, base_url, api_key_env)."""

    def model_for(self, role: str) -> str:
        """The model of `role`."""
        return dict(self.roles)[role]

    @property
    def edit_format(self) -> str | None:
        """The edit format every role uses, when the entry sets one."""
        return dict(self.options).get("edit_format")


@dataclass(frozen=True)
class Job:
    """One (model, kata, language, repeat): its own repo, run and score."""

    model: ModelEntry
    kata: Path
    """The kata's folder (`kata.md` and `acceptance/` inside)."""
    language: str
    repeat: int
    mode: Mode = Mode.TDD

    @property
    def id(self) -> str:
        """A stable, file-name-safe identifier (a bench of the loop's keeps its old ids)."""
        model = re.sub(r"[^A-Za-z0-9._-]+", "-", self.model.name).strip("-")
        mode = "" if self.mode is Mode.TDD else f"__{self.mode.value}"
        return f"{model}__{self.kata.name}__{self.language}__r{self.repeat}{mode}"


def resolve_models(names: list[str], bench: BenchSettings) -> list[ModelEntry]:
    """Each `--models` item: a `bench.models` entry name or a plain `provider:model`.

    Raises:
        UsageError: neither.
    """
    entries = []
    for name in names:
        entry = bench.models.get(name)
        if entry is None:
            try:
                split_model(name)
            except ValueError:
                known = ", ".join(sorted(bench.models)) or "none configured"
                raise UsageError(
                    f"--models: {name!r} is neither provider:model nor a bench.models entry "
                    f"({known})"
                ) from None
            entry = name
        options: tuple[tuple[str, str], ...] = ()
        if isinstance(entry, str):
            roles = tuple((role, entry) for role in ROLES)
        else:
            default = entry.get("all")
            options = tuple((key, entry[key]) for key in BENCH_ENTRY_OPTIONS if key in entry)
            roles = tuple((role, entry.get(role) or default or "") for role in ROLES)
            missing = [role for role, model in roles if not model]
            if missing:
                raise UsageError(f"bench.models.{name}: no model for {', '.join(missing)}")
        entries.append(ModelEntry(name, roles, options))
    return entries


def find_katas(*paths: Path) -> list[Path]:
    """Kata folders: each path itself if it holds a kata.md, else its sub-folders that do.

    Raises:
        UsageError: a path holds none, or two katas share a name (their jobs would too).
    """
    found: list[Path] = []
    for path in paths:
        if (path / "kata.md").is_file():
            here = [path]
        else:
            here = sorted(p.parent for p in path.glob("*/kata.md")) if path.is_dir() else []
        if not here:
            raise UsageError(f"no kata found in {path}: pass a folder of <slug>/kata.md")
        for kata in here:
            twin = next((seen for seen in found if seen.name == kata.name), None)
            if twin is not None and twin.resolve() != kata.resolve():
                raise UsageError(f"two katas named {kata.name!r} ({twin}, {kata}): rename one")
            if twin is None:
                found.append(kata)
    return found


def select_katas(katas: list[Path], patterns: list[str]) -> list[Path]:
    """The katas whose name matches one of `patterns` (`bench -k`), each a glob (`two-*`)
    or a part of the name (`bucket`), as pytest's -k reads a word; all with none.

    Raises:
        UsageError: no kata matches, named with some that would.
    """
    if not patterns:
        return katas
    chosen = [
        kata for kata in katas
        if any(fnmatch.fnmatchcase(kata.name, p) or p in kata.name for p in patterns)
    ]  # fmt: skip
    if not chosen:
        names = ", ".join(kata.name for kata in katas[:8]) + (", ..." if len(katas) > 8 else "")
        raise UsageError(f"-k {' -k '.join(patterns)} matches no kata: there are {names}")
    return chosen


def plan_jobs(
    models: list[ModelEntry],
    katas: list[Path],
    languages: list[str],
    repeats: int,
    *,
    require_data: bool = False,
    mode: Mode = Mode.TDD,
) -> tuple[list[Job], list[str]]:
    """Every combination, sorted by id (so that shards and reports are deterministic), and
    why each kata x language left out was left out (it has no suite in that language, or,
    with `require_data`, only test files that would run beside the code).

    Raises:
        UsageError: an unknown language, a language no kata has a suite for, or a suite
            of test files that defines no test.
    """
    pairs: list[tuple[Path, str]] = []
    skipped: list[str] = []
    for language in languages:
        plugin = get_language(language)
        suited = [kata for kata in katas if has_suite(kata, language)]
        as_data = [k for k in suited if has_calls(k, language)]
        for kata in suited:  # a suite of no test is said now, not as 0/0 after every run
            if kata not in as_data:
                hidden_test_files(kata, plugin)
        scored = as_data if require_data else suited
        if mode is Mode.TEST:  # tests are measured against a reference and its mutants
            skipped += [
                f"{k.name} in {language}: no reference to measure tests against (--mode test)"
                for k in scored
                if not has_reference(k, language)
            ]
            scored = [k for k in scored if has_reference(k, language)]
        if not scored:
            if mode is Mode.TEST and suited:
                raise UsageError(
                    f"no kata with a {language} suite has a reference in {language} to measure "
                    f"tests against (--mode test): add reference/{language}/, or import "
                    "Exercism exercises (their example solutions become references)"
                )
            kind = "a data suite (--require-data)" if suited else "an acceptance suite"
            raise UsageError(
                f"no kata in {', '.join(sorted({str(k.parent) for k in katas}))} has {kind} "
                f"for {language}: add acceptance/canonical-data.json and a {language} section "
                f"in calls.yaml, or leave {language} out of --languages"
            )
        pairs += [(kata, language) for kata in scored]
        skipped += [
            f"{k.name} in {language}: no acceptance suite" for k in katas if k not in suited
        ]
        skipped += [
            f"{k.name} in {language}: judged in-process, not as data (--require-data)"
            for k in suited
            if k not in scored
        ]
    jobs = [
        Job(model, kata, language, repeat, mode)
        for model in models
        for kata, language in pairs
        for repeat in range(1, repeats + 1)
    ]
    return sorted(jobs, key=lambda job: job.id), sorted(skipped)


def parse_shard(text: str) -> tuple[int, int]:
    """`i/n` -> (i, n), 1 <= i <= n.

    Raises:
        UsageError: not of that form.
    """
    match = re.fullmatch(r"(\d+)/(\d+)", text.strip())
    if match is None or not 1 <= int(match.group(1)) <= int(match.group(2)):
        raise UsageError(f"--shard {text!r}: write i/n with 1 <= i <= n, e.g. 2/4")
    return int(match.group(1)), int(match.group(2))


def shard(jobs: list[Job], index: int, count: int) -> list[Job]:
    """The deterministic slice `index` of `count` (round robin over the sorted jobs)."""
    return [job for position, job in enumerate(jobs) if position % count == index - 1]


def model_settings(settings: Settings, model: ModelEntry, **update: Any) -> Settings:
    """`settings` with every role on `model`'s entry (its models and options), and `update`
    on each role (a seed)."""
    roles = {}
    for role in ROLES:
        changes = {"model": model.model_for(role), **dict(model.options), **update}
        # Validated, not copied in: an entry's options are text ("whole") where the settings
        # hold values (an EditFormat), and a copy would keep the text.
        current = getattr(settings.roles, role)
        roles[role] = type(current).model_validate({**current.model_dump(), **changes})
    return settings.model_copy(update={"roles": RolesSettings(**roles)})
