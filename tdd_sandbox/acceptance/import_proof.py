"""Proving a kata just imported, in one language: what its reference needs beyond the
policy allowed for it, its stub formatted and, where the stub fails its own gates, set aside
as an outline; a derived data suite confirmed (`readings`) or given up; a reference the
suite cannot confirm removed."""

from __future__ import annotations

import shutil
from pathlib import Path

from tdd_sandbox.acceptance.proof import Proof, encoded, prove
from tdd_sandbox.acceptance.readings import confirm_calls, transcribed_calls
from tdd_sandbox.acceptance.suite import has_calls, load_suite, write_left_out
from tdd_sandbox.errors import UsageError
from tdd_sandbox.execution.base import Checker, GateCheck
from tdd_sandbox.grading.acceptance import CaseStatus
from tdd_sandbox.grading.policy import check_policy
from tdd_sandbox.katas.calls import write_calls
from tdd_sandbox.katas.importer import set_aside_stub
from tdd_sandbox.katas.kata import allow_rules, load_kata
from tdd_sandbox.languages.base import Language
from tdd_sandbox.languages.driving import implementation_files
from tdd_sandbox.repo.scaffolding import starting_files
from tdd_sandbox.vocabulary.results import GateKind


def prove_import(checker: Checker, language: Language, kata_dir: Path) -> tuple[bool, list[str]]:
    """Prove a kata just imported, in `language`, and say how it went: whether a run can
    be scored on it, and lines for people. What the reference needs beyond the policy is
    allowed for this kata and language first (`reference_refusals`); a reference the suite
    cannot confirm is removed, since it proves nothing; a suite that cannot be scored at all
    is a line, and the import goes on to the next kata.

    Raises:
        SandboxUnavailable: the sandbox failed.
    """
    lines = []
    if needs := reference_refusals(language, kata_dir):
        allow_rules(kata_dir / "kata.md", language.name, needs)
        lines.append(
            f"{kata_dir.name} ({language.name}): the reference uses {', '.join(needs)}, which "
            "the policy refuses by default: allowed for this kata (allow: in its kata.md)"
        )
    if formatted := format_stub(checker, language, kata_dir):
        lines.append(
            f"{kata_dir.name} ({language.name}): the stub formatted by the language's "
            f"formatter: {', '.join(formatted)}"
        )
    reference = kata_dir / "reference" / language.name
    try:
        try:
            proof = _prove_start(checker, language, kata_dir, lines)
        except UsageError as broken:
            if not has_calls(kata_dir, language.name):
                raise
            # Derived calls the data's inputs cannot be written for (a list of maps as a Go
            # argument): the track's own tests transcribed, else the track's tests, judge.
            head = f"{kata_dir.name} ({language.name})"
            cannot = f"the derived calls cannot be performed ({broken})"
            suite = load_suite(kata_dir)
            calls, cases = suite.calls_for(language.name), suite.cases_for(language.name)
            if transcribed := transcribed_calls(language, kata_dir, calls, cases):
                write_calls(kata_dir, language.name, transcribed)
                lines.append(f"{head}: {cannot}: the track's tests transcribed instead")
                proof = _transcribed_or_tests(checker, language, kata_dir, lines)
            else:
                write_calls(kata_dir, language.name, None)
                lines.append(f"{head}: judged by its track's tests: {cannot}")
                proof = _prove_start(checker, language, kata_dir, lines)
    except UsageError as refused:
        shutil.rmtree(reference, ignore_errors=True)
        return False, [*lines, f"{kata_dir.name} ({language.name}): not proved: {refused}"]
    if proof.reference is not None and not proof.suite_proved:
        shutil.rmtree(reference)
    passed = [r.id for r in proof.start.results if r.status is CaseStatus.PASSED]
    write_left_out(kata_dir, language.name, passed if proof.suite_proved else [])
    lines.append(proof.describe())
    if proof.suite_proved and passed:
        count = f"{len(passed)} case{'s' if len(passed) > 1 else ''} the stub passes"
        lines.append(
            f"{kata_dir.name} ({language.name}): {count} {'are' if len(passed) > 1 else 'is'} "
            f"left out of the score: {', '.join(passed[:5])}{', ...' if len(passed) > 5 else ''}"
        )
    return proof.ok, lines


def _transcribed_or_tests(
    checker: Checker, language: Language, kata_dir: Path, lines: list[str]
) -> Proof:
    """The proof with the track's tests transcribed, or, where those cannot be performed
    either, with the track's tests.

    Raises:
        UsageError: the suite cannot be scored.
        SandboxUnavailable: the sandbox failed.
    """
    try:
        return _prove_start(checker, language, kata_dir, lines)
    except UsageError as broken:
        write_calls(kata_dir, language.name, None)
        lines.append(f"{kata_dir.name} ({language.name}): judged by its track's tests: the "
                     f"transcribed tests cannot be performed ({broken})")  # fmt: skip
        return _prove_start(checker, language, kata_dir, lines)


def _prove_start(checker: Checker, language: Language, kata_dir: Path, lines: list[str]) -> Proof:
    """The proof, after a stub that fails its gates as it stands is set aside, and with a
    derived data suite confirmed (or given up) on the way.

    Raises:
        UsageError: the suite cannot be scored.
        SandboxUnavailable: the sandbox failed.
    """
    proof = prove(checker, language, kata_dir)
    solved = proof.start.total > 0 and proof.start.passed == proof.start.total
    if proof.start_gates and not solved and (stub := _solution_stub(language, kata_dir)):
        # What the solution defines is named in the stub and defined nowhere (Go's `*Game`):
        # the start is the scaffold, and the stub an outline to write to. Never a stub that
        # passes every case (a refactoring's start): that outline would be the answer.
        outline = stub + _given_needing(checker, language, kata_dir, stub)
        set_aside_stub(kata_dir, language.name, outline)
        lines.append(
            f"{kata_dir.name} ({language.name}): the stub fails its gates as it stands "
            f"({proof.start_gates}): the repository starts without {', '.join(outline)}, "
            "shown in kata.md as the outline to write to"
        )
        proof = prove(checker, language, kata_dir)
    if has_calls(kata_dir, language.name):
        proof = confirm_calls(checker, language, kata_dir, proof, lines)
    return proof


def _solution_stub(language: Language, kata_dir: Path) -> list[str]:
    """The stub's code files that the reference replaces: the solution's, not the files
    it is given to use (those stay, as a start needs them)."""
    stub, reference = (kata_dir / part / language.name for part in ("scaffold", "reference"))
    return [
        path
        for path in _files(stub)
        if path.endswith(language.source_suffixes) and (reference / path).is_file()
    ]


def _given_needing(
    checker: Checker, language: Language, kata_dir: Path, stub: list[str]
) -> list[str]:
    """The code files the kata gives beside the stub, where the start fails its gates
    without the stub too: they build only with the solution (Go's robot-simulator gives
    defs.go, whose `var _ fmt.Stringer = Dir(1729)` needs the String method the stub
    defines), so they go into the outline with it, and into the reference, which then
    holds the whole solution.

    Raises:
        SandboxUnavailable: the sandbox failed.
    """
    folder = kata_dir / "scaffold" / language.name
    given = [
        path
        for path in _files(folder)
        if path.endswith(language.source_suffixes)
        and path not in stub
        and not language.is_test_path(path)
    ]
    if not given:
        return []
    start = {p: t for p, t in encoded(starting_files(language, kata_dir)).items() if p not in stub}
    if checker.check(GateCheck(language, start)).report.ok:
        return []
    reference = kata_dir / "reference" / language.name
    for path in given:
        if reference.is_dir() and not (reference / path).exists():
            (reference / path).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(folder / path, reference / path)
    return given


def format_stub(checker: Checker, language: Language, kata_dir: Path) -> list[str]:
    """Format the kata's stub in `language` (`scaffold/<language>/`) with the language's
    formatter, in the sandbox, as a model's edit is formatted before it is judged: a track's
    stub laid out otherwise is no reason to refuse the kata. Returns the paths rewritten.

    Raises:
        SandboxUnavailable: the sandbox failed.
    """
    folder = kata_dir / "scaffold" / language.name
    if not (stub := _files(folder)):
        return []
    start = encoded(starting_files(language, kata_dir))
    question = GateCheck(language, start, frozenset({GateKind.FORMAT}), tidy=stub)
    formatted = checker.check(question).formatted or {}
    changed = [p for p in stub if formatted.get(p, start[p]) != start[p]]
    for path in changed:
        (folder / path).write_bytes(formatted[path])
    return changed


def reference_refusals(language: Language, kata_dir: Path) -> list[str]:
    """The policy's rules the kata's reference in `language` breaks beyond what the kata
    allows: a track's reference that needs more than the default (Exercism's grep opens
    files) is the kata's own need, which an import records for that kata and language.
    Text the judge could not read is never among them: that is refused, not allowed."""
    if not (kata_dir / "reference" / language.name).is_dir():
        return []
    tree = encoded(starting_files(language, kata_dir, overlay="reference"))
    allow = load_kata(kata_dir / "kata.md").allowed_rules(language.name)
    found = check_policy(language, implementation_files(language, tree), tree=tree, allow=allow)
    return sorted({v.rule for v in found if not v.unreadable})


def _files(folder: Path) -> list[str]:
    """The paths of the files under `folder` (none when it is missing), symlinks left out."""
    return sorted(
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.is_file() and not p.is_symlink()
    )
