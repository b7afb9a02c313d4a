"""Proving a kata's hidden suite before anyone is scored by it: the reference solution must
pass every case and the starting files not all of them. A suite the stub passes whole
measures nothing; one the reference fails measures the suite. A stub may pass some: a Rust
`todo!()` passes every `#[should_panic]` test, and a stub's default value a case or two."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from tdd_sandbox.acceptance.scorer import score_kata
from tdd_sandbox.acceptance.suite import has_calls, load_suite, write_left_out
from tdd_sandbox.errors import UsageError
from tdd_sandbox.execution.base import Checker, GateCheck
from tdd_sandbox.grading.acceptance import AcceptanceReport, CaseStatus
from tdd_sandbox.grading.policy import check_policy
from tdd_sandbox.grading.verdicts import failing_summary
from tdd_sandbox.katas.calls import write_calls
from tdd_sandbox.katas.importer import set_aside_stub
from tdd_sandbox.katas.kata import allow_rules, load_kata
from tdd_sandbox.languages.base import Language
from tdd_sandbox.languages.driving import implementation_files
from tdd_sandbox.repo.scaffolding import starting_files
from tdd_sandbox.vocabulary.cases import Case
from tdd_sandbox.vocabulary.results import GateKind


@dataclass(frozen=True)
class Proof:
    """How the reference and the starting files scored on the suite."""

    kata: str
    language: str
    reference: AcceptanceReport | None
    """None when the kata has no reference in the language."""
    start: AcceptanceReport
    start_gates: str = ""
    """Why the starting files fail their own gates (empty: they pass, so a run can start)."""

    @property
    def suite_proved(self) -> bool:
        """The reference passes every case and the starting files not all of them."""
        return (
            self.reference is not None
            and self.reference.total > 0
            and self.reference.rate == 1.0
            and self.start.passed < self.start.total
        )

    def departures(self, cases: Sequence[Case]) -> list[str]:
        """The error cases the reference fails, where the track reports errors its own way
        (go-counting's JavaScript returns `{error}` where the data throws) and keeps to the
        data elsewhere: each case it fails expects an error, it passes more than half, and of
        each property one that the stub does not. Empty where it does not (every case then
        stays, and the suite is not proved): a value the track answers otherwise could leave
        a property judged by its trivial cases alone (list-ops' `map` of an empty list)."""
        if self.reference is None or self.reference.problem or not self.reference.results:
            return []
        errors = {case.id for case in cases if case.expects_error}
        failed = [r.id for r in self.reference.results if r.status is not CaseStatus.PASSED]
        if len(failed) * 2 >= len(self.reference.results) or not set(failed) <= errors:
            return []
        stub = {r.id for r in self.start.results if r.status is CaseStatus.PASSED}
        property_of = {case.id: case.property for case in cases}
        kept = {property_of.get(r.id) for r in self.reference.results
                if r.status is CaseStatus.PASSED and r.id not in stub}  # fmt: skip
        return failed if set(property_of.values()) <= kept else []

    @property
    def ok(self) -> bool:
        """The suite is proved and a run can start from the starting files."""
        return self.suite_proved and not self.start_gates

    def describe(self) -> str:
        """One line for people."""
        head = f"{self.kata} ({self.language})"
        if self.reference is None:
            gates = f"; the starting files fail their gates ({self.start_gates})"
            gates = gates if self.start_gates else ""
            return f"{head}: no reference; stub {self.start.passed}/{self.start.total}{gates}"
        shown = (
            f"reference {self.reference.passed}/{self.reference.total}, "
            f"stub {self.start.passed}/{self.start.total}"
        )
        if self.ok:
            return f"{head}: proved ({shown})"
        if self.start_gates:
            why = f"the starting files fail their gates ({self.start_gates})"
        elif self.reference.rate < 1.0:
            why = self.reference.why()
        else:
            why = (  # a refactoring exercise's start: its suite cannot tell work from none
                "the stub already passes every case (a refactoring exercise): a run would score "
                f"100% without writing a line, so {self.kata} is not scored in {self.language}"
            )
        return f"{head}: not proved ({shown}): {why}"


def prove(checker: Checker, language: Language, kata_dir: Path) -> Proof:
    """Score the kata's reference and its starting files on its hidden suite, and check that
    the starting files pass their own gates (a run's first commit must be green).

    Raises:
        UsageError: no suite in the language.
        SandboxUnavailable: the sandbox failed.
    """
    start = _encoded(starting_files(language, kata_dir))
    reference = None
    if (kata_dir / "reference" / language.name).is_dir():
        reference = _encoded(starting_files(language, kata_dir, overlay="reference"))
    # Three sandboxes that share nothing: side by side, a kata's proof waits for the slowest
    # of them rather than for all three in turn.
    with ThreadPoolExecutor(max_workers=3, thread_name_prefix="proof") as pool:
        checked = pool.submit(checker.check, GateCheck(language, start))  # as a run checks HEAD
        started = pool.submit(score_kata, checker, language, start, kata_dir, every_case=True)
        solved = None
        if reference is not None:
            solved = pool.submit(
                score_kata, checker, language, reference, kata_dir, every_case=True
            )
        gates = checked.result().report
        start_report = started.result()
        reference_report = solved.result() if solved is not None else None
    start_gates = "" if gates.ok else failing_summary(gates, limit=200).splitlines()[0]
    return Proof(kata_dir.name, language.name, reference_report, start_report, start_gates)


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
            # argument): the track's tests judge.
            write_calls(kata_dir, language.name, None)
            lines.append(
                f"{kata_dir.name} ({language.name}): judged by its track's tests: the derived "
                f"calls cannot be performed ({broken})"
            )
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
        set_aside_stub(kata_dir, language.name, stub)
        lines.append(
            f"{kata_dir.name} ({language.name}): the stub fails its gates as it stands "
            f"({proof.start_gates}): the repository starts without {', '.join(stub)}, "
            "shown in kata.md as the outline to write to"
        )
        proof = prove(checker, language, kata_dir)
    if has_calls(kata_dir, language.name):
        proof = _confirm_calls(checker, language, kata_dir, proof, lines)
    return proof


def _confirm_calls(
    checker: Checker, language: Language, kata_dir: Path, proof: Proof, lines: list[str]
) -> Proof:
    """A data suite derived at import judges only once the reference passes all of it and
    the stub not: else its calls go, and the track's tests judge (proved in turn)."""
    head = f"{kata_dir.name} ({language.name})"
    if proof.reference is not None and proof.suite_proved:
        lines.append(f"{head}: judged as data: the reference passes every case of the data suite")
        return proof
    why = "no reference to confirm them" if proof.reference is None else proof.describe()
    suite = load_suite(kata_dir)
    calls, cases = suite.calls_for(language.name), suite.cases_for(language.name)
    if departed := proof.departures(cases):
        # The track's own tests differ there: those cases go, as its tests.toml's exclusions
        # do, if the rest prove.
        write_calls(
            kata_dir,
            language.name,
            calls.model_copy(update={"exclude": calls.exclude | set(departed)}),
        )
        kept = prove(checker, language, kata_dir)
        if kept.suite_proved:
            lines.append(
                f"{head}: judged as data: the reference passes every case of the data suite but "
                f"{len(departed)} error{'s' if len(departed) > 1 else ''} the track reports its "
                "own way, left out: "
                f"{', '.join(departed[:5])}{', ...' if len(departed) > 5 else ''}"
            )
            return kept
    write_calls(kata_dir, language.name, None)
    lines.append(f"{head}: judged by its track's tests: the derived calls did not prove ({why})")
    return prove(checker, language, kata_dir)


def _solution_stub(language: Language, kata_dir: Path) -> list[str]:
    """The stub's code files that the reference replaces: the solution's, not the files
    it is given to use (those stay, as a start needs them)."""
    stub, reference = (kata_dir / part / language.name for part in ("scaffold", "reference"))
    return [
        path
        for path in _files(stub)
        if path.endswith(language.source_suffixes) and (reference / path).is_file()
    ]


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
    start = _encoded(starting_files(language, kata_dir))
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
    tree = _encoded(starting_files(language, kata_dir, overlay="reference"))
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


def _encoded(files: dict[str, str]) -> dict[str, bytes]:
    return {path: text.encode() for path, text in files.items()}
