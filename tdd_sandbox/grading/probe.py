"""The metamorphic probe's plan: the RED state with the new test's expected values changed,
and every test under a neutral name (`languages.renaming`).

The new test is run again against a green candidate with only its expected values changed
(`languages.perturbing` says which tokens those are). Code that computes its answers fails it
now; code that read the answers off the test's text, by whatever route, passes it still, and
so does nothing a block-list of routes could miss. The changed test runs in a sandbox of its
own, so nothing the code left behind in the first run (a copy of the answers) reaches it, and
the code cannot tell which of the two runs it is in. `grading.probe_verdict.check_probe` decides.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field, replace

from tdd_sandbox.grading.gates import GateReport, GateResult
from tdd_sandbox.languages.base import Language
from tdd_sandbox.languages.perturbing import added_lines
from tdd_sandbox.languages.renaming import name_parts, restored


@dataclass(frozen=True)
class Probe:
    """Test files with expected values changed, and what a run on them must show: the new
    test (`test`, GREEN) fails while every other test passes; or, with a `baseline` (the
    code before a refactoring), every test does what it does on that code."""

    test: str
    """The new test (GREEN); "" for a refactoring, whose every test is changed."""
    files: Mapping[str, bytes]
    """Only the test files that changed; the rest of a tree is the candidate's own."""
    where: tuple[str, ...]
    """`path:line` of each change, for the reason a refusal gives."""
    perturbed: frozenset[str]
    """The tests whose expected values changed (what the fake checker fails)."""
    baseline: Mapping[str, bytes] | None = None
    """The code a refactoring started from, run on the same changed tests to compare."""
    groups: tuple[tuple[str, frozenset[str]], ...] = ()
    """A whole tree's probe (`gates`, which has no RED step to name a new test): each changed
    test file with the tests it defines, of which at least one must fail."""
    names: Mapping[str, str] = field(default_factory=dict)
    """Each neutral name the run's tests go by, and the test's own name: a name may carry
    its answer, so the run has none to read, and its outcomes are read back (`restore`)."""
    run_perturbed: frozenset[str] = frozenset()
    """`perturbed` as the run names them (what the fake checker fails)."""
    renamed: Mapping[str, bytes] = field(default_factory=dict)
    """Every test file under the neutral names with its expected values as written: run
    apart, every test must do what it did under its own name. A changed value cannot tell
    the name's reader from honest code (both fail), so the names get a run of their own."""

    def restore_id(self, test_id: str) -> str:
        """A test id of the run under the test's own name."""
        return restored(test_id, self.names)

    def restore_gate(self, gate: GateResult) -> GateResult:
        """A gate of the run with every test under its own name."""
        return replace(gate, tests=tuple(replace(o, id=self.restore_id(o.id)) for o in gate.tests))

    def restore(self, report: GateReport) -> GateReport:
        """The run's report with every test under its own name."""
        return replace(report, gates=tuple(self.restore_gate(gate) for gate in report.gates))


def plan_probe(
    language: Language,
    before: Mapping[str, bytes],
    after: Mapping[str, bytes],
    new_test: str,
    *,
    rng: random.Random | None = None,
) -> Probe | None:
    """The probe of `new_test`, written between `before` and `after` (the RED step): the
    expected values on the lines it added changed. None when no assertion there has an
    expected side the language knows to change (the test is then not probed)."""

    def added(path: str, text: str) -> Collection[int]:
        old = before.get(path)
        return added_lines(language.read_source(old) if old is not None else "", text)

    rng = rng or random.SystemRandom()  # unpredictable: code cannot undo a known change
    written = {p: d for p, d in after.items() if before.get(p) != d}
    files, where = _perturb_tests(language, written, added, rng)
    if not files:
        return None
    return _neutral(language, after, Probe(new_test, files, where, frozenset({new_test})), rng)


def plan_refactor_probe(
    language: Language, files: Mapping[str, bytes], *, rng: random.Random | None = None
) -> Probe | None:
    """The probe of a refactoring of `files`: every test's expected values changed, to be
    run on the code before and after it (a refactoring keeps behaviour, so both must do
    the same). None when no test has an expected side the language knows to change."""
    rng = rng or random.SystemRandom()
    changed, where = _perturb_tests(language, files, lambda path, text: None, rng)
    if not changed:
        return None
    probe = Probe("", changed, where, language.expected_tests(changed), baseline=files)
    return _neutral(language, files, probe, rng)


def plan_tree_probe(
    language: Language, files: Mapping[str, bytes], *, rng: random.Random | None = None
) -> Probe | None:
    """The probe of a whole tree judged green (`tdd-sandbox gates`): every test's expected
    values changed. With no RED step to say which test is new, the run on them must fail at
    least one test of every changed file and pass every other test: code that read its
    answers passes the changed tests still. None when no test has an expected side the
    language knows to change."""
    rng = rng or random.SystemRandom()
    changed, where = _perturb_tests(language, files, lambda path, text: None, rng)
    if not changed:
        return None
    # A file's tests as the runner names them, found beside the tree's runner configuration
    # (a Go test's id carries its module's path). A file that defines none holds data other
    # files' tests read (Go's cases_test.go): any test may be the one that fails.
    rest = {p: d for p, d in files.items() if not language.is_test_path(p)}
    everything = language.expected_tests(files)
    groups = tuple(
        (path, language.expected_tests({**rest, path: data}) or everything)
        for path, data in changed.items()
    )
    perturbed = frozenset().union(*(ids for _, ids in groups))
    return _neutral(language, files, Probe("", changed, where, perturbed, groups=groups), rng)


def _neutral(
    language: Language, tree: Mapping[str, bytes], probe: Probe, rng: random.Random
) -> Probe:
    """`probe` with every test of `tree` under a neutral name, its changed files and the
    others: code that answered any test from its name fails it now."""
    names = {part for test_id in language.expected_tests(tree) for part in name_parts(test_id)}
    given: dict[str, str] = {}
    mapping: dict[str, str] = {}

    def rename(data: bytes) -> bytes | None:
        renamed = language.rename_tests(language.read_source(data), names, rng, given)
        mapping.update(renamed.names)
        return renamed.text.encode() if renamed.names else None

    files, kept = dict(probe.files), {}
    for path in sorted(tree.keys() | probe.files.keys()):
        if not language.is_test_path(path):
            continue
        as_written = rename(tree[path]) if path in tree else None
        if as_written is not None:
            kept[path] = as_written
        if path in probe.files:
            files[path] = rename(probe.files[path]) or probe.files[path]
        elif as_written is not None:
            files[path] = as_written
    probe = replace(probe, files=files, names=mapping, renamed=kept)
    run = language.expected_tests({**tree, **files})
    perturbed = frozenset(i for i in run if probe.restore_id(i) in probe.perturbed)
    return replace(probe, run_perturbed=perturbed)


def _perturb_tests(
    language: Language,
    files: Mapping[str, bytes],
    lines: Callable[[str, str], Collection[int] | None],
    rng: random.Random,
) -> tuple[dict[str, bytes], tuple[str, ...]]:
    """Each test file of `files` with the expected values on its `lines(path, text)` (None:
    anywhere) changed, where any changed; and `path:line` of every change."""
    changed: dict[str, bytes] = {}
    where: list[str] = []
    for path in sorted(files):
        if not language.is_test_path(path):
            continue
        text = language.read_source(files[path])
        perturbed = language.perturb(text, lines(path, text), rng)
        if perturbed.lines:
            changed[path] = perturbed.text.encode()
            where += [f"{path}:{line}" for line in perturbed.lines]
    return changed, tuple(where)
