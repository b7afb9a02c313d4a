"""Katas from Exercism, as users have them: a track's practice exercise (`.docs/`,
`.meta/config.json` naming the solution, test and example files, the stub) and a
problem-specifications exercise (`description.md`, `metadata.toml`, `canonical-data.json`).

An exercise becomes a kata folder::

    <slug>/kata.md                         title, instructions, the starting files per language
    <slug>/acceptance/<language>/...       the track's tests: the hidden suite (repo paths)
    <slug>/acceptance/canonical-data.json  the problem's cases as data, where given
    <slug>/scaffold/<language>/...         the track's stub: where a run's repository starts
    <slug>/reference/<language>/...        the example solution (proved, never shown to agents)

Each exercise is written to a temporary folder first and moved into place whole, so a
failure leaves nothing half-written. The tool needs no network: users clone Exercism.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from tdd_sandbox.errors import UsageError

PARTS = ("acceptance", "scaffold", "reference")


@dataclass(frozen=True)
class Exercise:
    """One exercise read from disk, in one language (or none: a problem specification)."""

    slug: str
    title: str
    instructions: str
    language: str | None = None
    tests: dict[str, bytes] = field(default_factory=dict)
    stub: dict[str, bytes] = field(default_factory=dict)
    example: dict[str, bytes] = field(default_factory=dict)
    canonical: bytes | None = None


class ImportProblem(UsageError):
    """An exercise that cannot be imported; the message says why, on one line."""


def find_exercises(sources: list[Path]) -> list[Path]:
    """Every exercise folder among `sources`: an exercise itself, or a folder of them.

    Raises:
        UsageError: a source is missing or holds no exercise.
    """
    found: list[Path] = []
    for source in sources:
        if not source.is_dir():
            raise UsageError(f"{source} is not a directory: pass exercise folders")
        if _is_exercise(source):
            found.append(source)
            continue
        children = sorted(p for p in source.iterdir() if p.is_dir() and _is_exercise(p))
        if not children:
            raise UsageError(
                f"{source} holds no Exercism exercise (.meta/config.json, or "
                "canonical-data.json / description.md): pass exercises/practice or one exercise"
            )
        found.extend(children)
    return found


def _is_exercise(folder: Path) -> bool:
    return (folder / ".meta" / "config.json").is_file() or any(
        (folder / name).is_file() for name in ("canonical-data.json", "description.md")
    )


def read_exercise(folder: Path) -> Exercise:
    """A track exercise or a problem specification.

    Raises:
        ImportProblem: the layout is incomplete or names files that are not there.
    """
    if not (folder / ".meta" / "config.json").is_file():
        return _read_specification(folder)
    try:
        config = json.loads((folder / ".meta" / "config.json").read_text(encoding="utf-8"))
        files = config["files"]
        solution, tests = list(files["solution"]), list(files["test"])
        example = list(files.get("example", []))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ImportProblem(f".meta/config.json is unreadable or lacks files: {exc}") from None
    language = _language_of(solution + tests)
    docs = [folder / ".docs" / n for n in ("introduction.md", "instructions.md")]
    docs.append(folder / ".docs" / "instructions.append.md")
    if not docs[1].is_file():
        raise ImportProblem("no .docs/instructions.md")
    instructions = "\n\n".join(_demote(p.read_text(encoding="utf-8")) for p in docs if p.is_file())
    stub_paths = [p for p in solution if p.endswith((".py", ".rs"))]
    if language == "rust":
        stub_paths.append("Cargo.toml")
    test_map = {p: ("tests/" + PurePosixPath(p).name if language == "python" else p) for p in tests}
    examples = [p for p in example if p.endswith((".py", ".rs"))]
    sources = [p for p in stub_paths if p != "Cargo.toml"]
    if len(examples) != len(sources):
        examples = []  # no one-to-one mapping onto the solution files: keep no reference
    return Exercise(
        slug=folder.name,
        title=_title(folder.name),
        instructions=instructions,
        language=language,
        tests={target: _read(folder, source) for source, target in test_map.items()},
        stub={path: _read(folder, path) for path in dict.fromkeys(stub_paths)},
        example={
            target: _read(folder, source) for source, target in zip(examples, sources, strict=False)
        },
    )


def _read_specification(folder: Path) -> Exercise:
    description = folder / "description.md"
    title = _title(folder.name)
    if (meta := folder / "metadata.toml").is_file():
        try:
            title = str(tomllib.loads(meta.read_text(encoding="utf-8")).get("title", title))
        except tomllib.TOMLDecodeError as exc:
            raise ImportProblem(f"metadata.toml: {exc}") from None
    canonical = folder / "canonical-data.json"
    return Exercise(
        slug=folder.name,
        title=title,
        instructions=_demote(description.read_text(encoding="utf-8"))
        if description.is_file()
        else "",
        canonical=canonical.read_bytes() if canonical.is_file() else None,
    )


def _language_of(paths: list[str]) -> str:
    if any(p.endswith(".py") for p in paths):
        return "python"
    if any(p.endswith(".rs") or p == "Cargo.toml" for p in paths):
        return "rust"
    raise ImportProblem(f"files of a track this tool does not run ({', '.join(paths[:3])})")


def _read(folder: Path, relative: str) -> bytes:
    path = folder / relative
    if ".." in PurePosixPath(relative).parts or not path.is_file() or path.is_symlink():
        raise ImportProblem(f"{relative} (named in .meta/config.json) is not a file here")
    return path.read_bytes()


def _title(slug: str) -> str:
    return " ".join(word.capitalize() for word in slug.split("-"))


def _demote(markdown: str) -> str:
    """Headings one level down, so the kata's own `#` title stays the only top one."""
    lines = markdown.strip().splitlines()
    return "\n".join("#" + line if line.startswith("#") else line for line in lines)


def kata_markdown(title: str, instructions: str, stubs: dict[str, list[str]]) -> str:
    """The kata's description as agents read it."""
    starts = "".join(
        f"- {language}: {', '.join(f'`{p}`' for p in paths)}\n"
        for language, paths in sorted(stubs.items())
        if paths
    )
    start = f"\n\n## Starting point\nThe repository starts with these files:\n{starts}"
    return f"# {title}\n\n{instructions.strip()}" + (start if starts else "") + "\n"


def write_kata(exercises: list[Exercise], out: Path) -> Path:
    """Write the exercises of one slug (one per language, and its specification) into
    `out/<slug>`, merging with a kata already there; all or nothing.

    Raises:
        ImportProblem: nothing to write (no instructions anywhere).
    """
    slug = exercises[0].slug
    target = out / slug
    instructions = next((e.instructions for e in exercises if e.language and e.instructions), "")
    instructions = instructions or next((e.instructions for e in exercises if e.instructions), "")
    if not instructions and not (target / "kata.md").is_file():
        raise ImportProblem("no instructions (.docs/instructions.md or description.md)")
    title = next((e.title for e in exercises if e.language is None), exercises[0].title)
    out.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{slug}-", dir=out))
    try:
        if target.is_dir():
            shutil.copytree(target, staging, dirs_exist_ok=True, symlinks=True)
        stubs = _stubs_listed(staging)
        for exercise in exercises:
            if exercise.language is None:
                if exercise.canonical is not None:
                    _write(staging / "acceptance" / "canonical-data.json", exercise.canonical)
                continue
            parts = (exercise.tests, exercise.stub, exercise.example)
            for part, files in zip(PARTS, parts, strict=True):
                folder = staging / part / exercise.language
                shutil.rmtree(folder, ignore_errors=True)  # a re-import replaces it whole
                for path, data in files.items():
                    _write(folder / path, data)
            stubs[exercise.language] = sorted(exercise.stub)
        if instructions or not (staging / "kata.md").is_file():
            _write(staging / "kata.md", kata_markdown(title, instructions, stubs).encode())
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
            report.written.append(write_kata(exercises, out))
        except ImportProblem as exc:
            report.problems.append(f"{slug}: {exc}")
    return report


def _stubs_listed(kata: Path) -> dict[str, list[str]]:
    folder = kata / "scaffold"
    if not folder.is_dir():
        return {}
    return {
        language.name: sorted(
            p.relative_to(language).as_posix() for p in language.rglob("*") if p.is_file()
        )
        for language in folder.iterdir()
        if language.is_dir()
    }


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
