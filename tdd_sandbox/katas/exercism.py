"""Exercism's layouts, read: a track's practice exercise (`.docs/`, `.meta/config.json`
naming the solution, test and example files, the stub) and a problem-specifications exercise
(`description.md`, or today's `introduction.md` and `instructions.md`; `metadata.toml`,
`canonical-data.json`). Nothing here writes."""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from tdd_sandbox.errors import UsageError
from tdd_sandbox.languages.registry import LANGUAGES
from tdd_sandbox.languages.base import Language


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
    included: dict[str, bool] | None = None
    """The track's `.meta/tests.toml`: canonical case uuid -> whether its tests include it
    (None: the track says nothing, so every case)."""
    described: dict[str, str] = field(default_factory=dict)
    """The track's `.meta/tests.toml`: canonical case uuid -> the case's description as the
    track's generator read it (the data may have reworded it since), its groups joined by
    ` > ` as the data's are."""
    notes: tuple[str, ...] = ()
    """What the import changed in the track's files, and why: a line each."""


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
                "canonical-data.json / description.md / instructions.md): pass "
                "exercises/practice or one exercise"
            )
        found.extend(children)
    return found


def _is_exercise(folder: Path) -> bool:
    return (folder / ".meta" / "config.json").is_file() or any(
        (folder / name).is_file()
        for name in ("canonical-data.json", "description.md", "instructions.md")
    )


def read_exercise(folder: Path) -> Exercise:
    """A track exercise or a problem specification.

    Raises:
        ImportProblem: the layout is incomplete or names files that are not there.
    """
    if not (folder / ".meta" / "config.json").is_file():
        return _read_specification(folder)
    try:
        files, salvaged = _config_files(folder / ".meta" / "config.json")
        solution, tests = list(files["solution"]), list(files["test"])
        example = list(files.get("example", []))
        editor = list(files.get("editor", []))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ImportProblem(f".meta/config.json is unreadable or lacks files: {exc}") from None
    language = _language_of(solution + tests)
    code = language.source_suffixes
    docs = [folder / ".docs" / n for n in ("introduction.md", "instructions.md")]
    docs.append(folder / ".docs" / "instructions.append.md")
    if not docs[1].is_file():
        raise ImportProblem("no .docs/instructions.md")
    instructions = "\n\n".join(_demote(p.read_text(encoding="utf-8")) for p in docs if p.is_file())
    sources = [p for p in solution if p.endswith(code)]

    # Editor files are the track's, shown read-only beside the solution: a case table the
    # tests loop over (Go's cases_test.go) goes with the tests, a type the solution uses
    # (Java's exception classes) with the stub.
    def is_test(path: str) -> bool:  # where the track's file goes decides
        return language.is_test_path(language.track_test(path, b"")[0])

    tests += [p for p in editor if is_test(p)]
    support = [p for p in editor if p not in tests]
    # A test file beside the tests that the config leaves unnamed is theirs too (Go's
    # bottle-song keeps its case table so): the track's runner compiles every one.
    unnamed = [p for p in _source_files(folder, code) if p not in tests + solution + editor]
    tests += [p for p in unnamed if is_test(p)]
    # And so is any other file in the tests' own folder or below it, where that is not the
    # exercise's root (shared with the solution): Rust's macros builds tests/invalid/ with
    # its own Cargo.toml, to see each file there fail to compile.
    folders = {PurePosixPath(p).parent for p in tests} - {PurePosixPath(".")}
    tests += [
        p
        for p in _source_files(folder, ("",))
        if p not in tests + solution + editor and folders & set(PurePosixPath(p).parents)
    ]
    # So is a source file beside the solution's (Rust's doubly-linked-list declares
    # `mod pre_implemented;`): the stub's, unless a runner's configuration (Babel's).
    homes = {PurePosixPath(p).parent for p in sources}
    support += [p for p in unnamed if p not in tests and PurePosixPath(p).parent in homes
                and not language.is_runner_config(p)]  # fmt: skip
    stub_paths = sources + support + list(language.project_files)
    examples = [p for p in example if p.endswith(code)]
    reference = {target: _read(folder, source) for source, target in _place(examples, sources)}
    if reference:
        reference |= {
            target: _read(folder, source)
            for source, target in language.example_files
            if (folder / source).is_file()
        }
    stub = {path: _read(folder, path) for path in dict.fromkeys(stub_paths)}
    notes = [salvaged]
    for path in [p for p in reference if p not in language.project_files]:
        reference[path], note = language.track_example(path, reference[path])
        notes.append(note)
    for files in (stub, reference):  # the example's manifest names the crates it uses
        for path in language.project_files:
            if path in files:
                files[path], note = language.track_project(path, files[path])
                notes.append(note)
    return Exercise(
        slug=folder.name,
        title=_title(folder.name),
        instructions=instructions,
        included=_included(folder),
        described=_described(folder),
        language=language.name,
        tests=dict(language.track_test(path, _read(folder, path)) for path in tests),
        stub=stub,
        example=reference,
        notes=tuple(note for note in notes if note),
    )


_FILES = re.compile(r'"files"\s*:\s*(\{[^{}]*\})')


def _config_files(path: Path) -> tuple[dict[str, Any], str]:
    """The `files` of an exercise's config, and a note where only they could be read: a
    config that is not JSON elsewhere (a comma missing upstream, as in three of today's
    TypeScript exercises) still names its files, and nothing else of it is needed.

    Raises:
        OSError, ValueError: the file cannot be read, or its `files` cannot either.
        KeyError, TypeError: it names no files.
    """
    text = path.read_text(encoding="utf-8")
    try:
        files: dict[str, Any] = json.loads(text)["files"]
        return files, ""
    except ValueError as exc:
        block = _FILES.search(text)
        if block is None:
            raise
        found: dict[str, Any] = json.loads(block[1])
        return found, f".meta/config.json is not JSON ({exc}): its files read alone"


def _place(examples: list[str], sources: list[str]) -> list[tuple[str, str]]:
    """Where each example file goes in the solution's place. Where the examples name every
    solution file (Java's `.meta/src/reference/java/` mirrors `src/main/java/`), each keeps its
    path under their common folder, helpers too. Otherwise each example takes the place of
    the one solution file of its suffix (`.meta/example.h` for `leap.h`; a header-only
    reference leaves the stub's `leap.cpp`), or, failing that, of the solution file in its
    order; else none is kept."""
    names = {PurePosixPath(p).name for p in examples}
    if sources and all(PurePosixPath(p).name in names for p in sources):
        home, origin = _common(sources), _common(examples)
        return [(p, (home / PurePosixPath(p).relative_to(origin)).as_posix()) for p in examples]
    suffixes = [PurePosixPath(p).suffix for p in sources]
    by_suffix = [
        (p, sources[suffixes.index(suffix)])
        for p in examples
        if suffixes.count(suffix := PurePosixPath(p).suffix) == 1
    ]
    if examples and len(by_suffix) == len(examples) == len({t for _, t in by_suffix}):
        return by_suffix
    if len(examples) != len(sources):
        return []  # no one-to-one mapping onto the solution files: keep no reference
    return list(zip(examples, sources, strict=True))


def _common(paths: list[str]) -> PurePosixPath:
    """The deepest folder holding every one of `paths`."""
    parts = [PurePosixPath(p).parent.parts for p in paths]
    shared = 0
    while all(len(p) > shared and p[shared] == parts[0][shared] for p in parts):
        shared += 1
    return PurePosixPath(*parts[0][:shared])


def _included(folder: Path) -> dict[str, bool] | None:
    """The track's record of which canonical cases its tests implement."""
    path = folder / ".meta" / "tests.toml"
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8")) if path.is_file() else None
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ImportProblem(f".meta/tests.toml: {exc}") from None
    if table is None:
        return None
    return {
        uuid: not isinstance(entry, dict) or entry.get("include", True) is not False
        for uuid, entry in table.items()
    }


def _described(folder: Path) -> dict[str, str]:
    """The descriptions the track's record gives its cases (read after `_included`)."""
    path = folder / ".meta" / "tests.toml"
    table = tomllib.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    return {
        uuid: entry["description"].replace(" -> ", " > ")
        for uuid, entry in table.items()
        if isinstance(entry, dict) and isinstance(entry.get("description"), str)
    }


def _read_specification(folder: Path) -> Exercise:
    # Older specifications give a description.md; today's most often an introduction.md and
    # an instructions.md, shown in that order as a track's .docs are.
    docs = [folder / "description.md"]
    if not docs[0].is_file():
        docs = [folder / "introduction.md", folder / "instructions.md"]
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
        instructions="\n\n".join(
            _demote(p.read_text(encoding="utf-8")) for p in docs if p.is_file()
        ),
        canonical=canonical.read_bytes() if canonical.is_file() else None,
    )


def _source_files(folder: Path, suffixes: tuple[str, ...]) -> list[str]:
    """The exercise's files of the language, outside its hidden folders (`.meta/`)."""
    return sorted(
        path.relative_to(folder).as_posix()
        for path in folder.rglob("*")
        if path.name.endswith(suffixes)
        and path.is_file()
        and not any(part.startswith(".") for part in path.relative_to(folder).parts)
    )


def _language_of(paths: list[str]) -> Language:
    for language in LANGUAGES.values():
        if any(p.endswith(language.source_suffixes) or p in language.project_files for p in paths):
            return language
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
