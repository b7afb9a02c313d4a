"""Katas from Exercism exercises, as users have them (see `exercism` for the layouts read).

An exercise becomes a kata folder::

    <slug>/kata.md                         title, instructions, the starting files per language
    <slug>/acceptance/<language>/...       the track's tests: the hidden suite (repo paths)
    <slug>/acceptance/canonical-data.json  the problem's cases as data, where given
    <slug>/acceptance/calls.yaml           how each track performs them, where derived
    <slug>/scaffold/<language>/...         the track's stub: where a run's repository starts
    <slug>/reference/<language>/...        the example solution (proved, never shown to agents)
    <slug>/outline/<language>/...          a stub that does not build as it stands, set aside
                                           from the start and shown in kata.md instead

Each exercise is written to a temporary folder first and moved into place whole, so a
failure leaves nothing half-written. The tool needs no network: users clone Exercism.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from tdd_sandbox.katas.calls import derive_data_suites
from tdd_sandbox.katas.exercism import Exercise, ImportProblem, find_exercises, read_exercise

PARTS = ("acceptance", "scaffold", "reference")


def kata_markdown(
    title: str,
    instructions: str,
    stubs: dict[str, list[str]],
    outlines: dict[str, dict[str, str]] | None = None,
) -> str:
    """The kata's description as agents read it: the instructions, the files the repository
    starts with per language, and each stub set aside as an outline (`set_aside_stub`)."""
    starts = "".join(_start_line(language, paths) for language, paths in sorted(stubs.items()))
    start = f"\n\n## Starting point\nThe repository starts with these files:\n{starts}"
    text = f"# {title}\n\n{instructions.strip()}" + (start if starts else "") + "\n"
    for language, files in sorted((outlines or {}).items()):
        text += _outline_section(language, files)
    return text


def set_aside_stub(kata_dir: Path, language: str, paths: list[str]) -> None:
    """Move the stub's `paths` out of the kata's starting files (`scaffold/<language>/`) into
    `outline/<language>/`, and show them in kata.md as the outline to write to. For a stub
    that does not build as it stands, since it names what the solution is to define (Go's
    `*Game` with no type Game, Rust's `_function: ???`): a run's first commit must pass its
    gates, and the signatures are still what the hidden tests call."""
    scaffold, outline = kata_dir / "scaffold" / language, kata_dir / "outline" / language
    files = {}
    for path in paths:
        files[path] = (scaffold / path).read_text(encoding="utf-8")
        (outline / path).parent.mkdir(parents=True, exist_ok=True)
        (scaffold / path).replace(outline / path)
    left = _stubs_listed(kata_dir).get(language, [])
    markdown = kata_dir / "kata.md"
    text = re.sub(
        rf"^- {re.escape(language)}: .*\n", _start_line(language, left), markdown.read_text(),
        count=1, flags=re.MULTILINE,
    )  # fmt: skip
    markdown.write_text(text.rstrip("\n") + "\n" + _outline_section(language, files))


def _start_line(language: str, paths: list[str]) -> str:
    return f"- {language}: {', '.join(f'`{p}`' for p in paths)}\n" if paths else ""


def _outline_section(language: str, files: dict[str, str]) -> str:
    shown = "".join(f"\n`{path}`:\n\n```{language}\n{text.rstrip()}\n```\n"
                    for path, text in sorted(files.items()))  # fmt: skip
    return (
        f"\n## Outline in {language}\nThe exercise's own start in {language} does not build "
        "as it stands (it names what the solution defines), so the repository starts "
        f"without it. Write the solution to this outline:\n{shown}"
    )


def write_kata(exercises: list[Exercise], out: Path, notes: list[str] | None = None) -> Path:
    """Write the exercises of one slug (one per language, and its specification) into
    `out/<slug>`, merging with a kata already there; all or nothing. Where the kata has
    canonical data, each track's calls are derived for a data suite (`derive_data_suites`),
    and `notes` gets a line per track saying how it will be judged.

    Raises:
        ImportProblem: nothing to write (no instructions anywhere).
    """
    slug = exercises[0].slug
    target = out / slug
    instructions = next((e.instructions for e in exercises if e.language and e.instructions), "")
    instructions = instructions or next((e.instructions for e in exercises if e.instructions), "")
    if not instructions and not (target / "kata.md").is_file():
        raise ImportProblem(
            "no instructions (.docs/instructions.md, instructions.md or description.md)"
        )
    title = next((e.title for e in exercises if e.language is None), exercises[0].title)
    out.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{slug}-", dir=out))
    try:
        if target.is_dir():
            shutil.copytree(target, staging, dirs_exist_ok=True, symlinks=True)
        stubs = _stubs_listed(staging)
        outlines = _outlines(staging)
        for exercise in exercises:
            if exercise.language is None:
                if exercise.canonical is not None:
                    _write(staging / "acceptance" / "canonical-data.json", exercise.canonical)
                continue
            shutil.rmtree(staging / "outline" / exercise.language, ignore_errors=True)
            outlines.pop(exercise.language, None)
            parts = (exercise.tests, exercise.stub, exercise.example)
            for part, files in zip(PARTS, parts, strict=True):
                folder = staging / part / exercise.language
                shutil.rmtree(folder, ignore_errors=True)  # a re-import replaces it whole
                for path, data in files.items():
                    _write(folder / path, data)
            stubs[exercise.language] = sorted(exercise.stub)
        lines = [f"{slug} ({e.language}): {note}" for e in exercises for note in e.notes]
        lines += derive_data_suites(staging, exercises)
        if notes is not None:
            notes.extend(lines)
        if instructions or not (staging / "kata.md").is_file():
            _write(staging / "kata.md", kata_markdown(title, instructions, stubs, outlines).encode())
        old = target.with_name(f".{slug}-replaced")
        if target.is_dir():
            target.replace(old)
        staging.replace(target)
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return target


@dataclass
class ImportReport:
    """What an import wrote, and each exercise it could not take with the reason."""

    written: list[Path] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """How each track of a kata with canonical data will be judged: as data, or why not."""


def import_katas(sources: list[Path], out: Path) -> ImportReport:
    """Import every exercise under `sources` into `out`, one kata per slug (a slug's
    languages and specification merged); an exercise that cannot be imported is a line in
    the report and stops nothing else.

    Raises:
        UsageError: a source is not a folder of exercises.
    """
    report = ImportReport()
    by_slug: dict[str, list[Exercise]] = {}
    for folder in find_exercises(sources):
        try:
            exercise = read_exercise(folder)
        except ImportProblem as exc:
            report.problems.append(f"{folder}: {exc}")
            continue
        by_slug.setdefault(folder.name, []).append(exercise)
    for slug, exercises in sorted(by_slug.items()):
        try:
            report.written.append(write_kata(exercises, out, report.notes))
        except ImportProblem as exc:
            report.problems.append(f"{slug}: {exc}")
    return report


def _stubs_listed(kata: Path) -> dict[str, list[str]]:
    return {name: sorted(files) for name, files in _part(kata, "scaffold").items()}


def _outlines(kata: Path) -> dict[str, dict[str, str]]:
    return {
        name: {path: file.read_text(encoding="utf-8") for path, file in files.items()}
        for name, files in _part(kata, "outline").items()
    }


def _part(kata: Path, part: str) -> dict[str, dict[str, Path]]:
    """A kata part's files per language (`<part>/<language>/...`), by path in the language."""
    folder = kata / part
    if not folder.is_dir():
        return {}
    return {
        language.name: {
            p.relative_to(language).as_posix(): p
            for p in sorted(language.rglob("*"))
            if p.is_file()
        }
        for language in folder.iterdir()
        if language.is_dir()
    }


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
