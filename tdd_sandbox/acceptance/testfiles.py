"""Hidden suites that are test files (a track's own, where no canonical data maps to calls):
`acceptance/<language>/<path>` in the kata folder, laid out as in a repository.

They run in a sandbox on the implementation files alone, under the test gate's guard (its
sentinels and independent channel cross-check the runner's report), with every test the
files define expected; ignored tests are run too. Weaker than a data suite, since the
runner and the model's code share a process: the guard is one defence there, the probe the
other. A scored run (`probe=True`) is run again, in a sandbox of its own, on the tests with
their expected values changed (`grading.probe.plan_tree_probe`): a test that passes both
ways was answered from the tests' text, whatever route the code took to them, and scores
nothing. The report says how many cases the probe could check. docs/judge.md says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path, PurePosixPath

from tdd_sandbox.errors import UsageError
from tdd_sandbox.execution.base import Checker
from tdd_sandbox.execution.steps import run_gates
from tdd_sandbox.grading.acceptance import AcceptanceReport, CaseResult, CaseStatus
from tdd_sandbox.grading.evidence import TamperKind
from tdd_sandbox.grading.gates import GateResult, GateStatus
from tdd_sandbox.grading.ids import matches
from tdd_sandbox.grading.policy import check_policy, worst
from tdd_sandbox.grading.probe import plan_tree_probe
from tdd_sandbox.grading.probe_verdict import answered_by_name, answered_from_text
from tdd_sandbox.languages.base import Language
from tdd_sandbox.languages.driving import implementation_files
from tdd_sandbox.sandbox.snapshot import Snapshot
from tdd_sandbox.vocabulary.results import NOT_RUN, GateKind, TestStatus

SUITE_DIR = "acceptance"


def hidden_test_files(kata_dir: Path, language: Language) -> dict[str, bytes]:
    """The kata's hidden test files for `language` by repository path (empty: none), placed
    where the runner collects them (`place_suite`).

    Raises:
        UsageError: the files define no test the runner collects; the message says where
            they go. A suite of no test would score 0/0, which ranks nobody.
    """
    folder = kata_dir / SUITE_DIR / language.name
    if not folder.is_dir():
        return {}
    found = {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and not path.is_symlink()
    }
    config = _scaffold_config(language)
    placed = place_suite(language, found, config)
    if not language.expected_tests({**config, **placed}):
        home = language.suggest_paths({}, kata_dir.name)[0]
        raise UsageError(
            f"{kata_dir.name}: {SUITE_DIR}/{language.name}/ defines no test the runner "
            f"collects ({language.collects}): put the tests at "
            f"{SUITE_DIR}/{language.name}/{home}"
        )
    return placed


def place_suite(
    language: Language, files: Mapping[str, bytes], config: Mapping[str, bytes]
) -> dict[str, bytes]:
    """Hidden test files placed where the runner collects them, when it collects none where
    they lie: laid out at the root of `acceptance/<language>/` (as a user would guess),
    they move with their helpers under the folder where the language's tests go; failing
    that, each goes where an Exercism track's would (`Language.track_test`: a Jest spec
    becomes a `node --test` file). A suite with any file in that folder already is left as
    it is laid out. `config` is the runner's configuration the suite runs under."""
    if language.expected_tests({**config, **files}):
        return dict(files)
    home = PurePosixPath(language.suggest_paths({}, "kata")[0]).parent.as_posix()
    if home == "." or any(p.startswith(f"{home}/") for p in files):
        return dict(files)
    moved = {p if language.is_runner_config(p) else f"{home}/{p}": d for p, d in files.items()}
    if language.expected_tests({**config, **moved}):
        return moved
    tracked = dict(language.track_test(p, d) for p, d in files.items())
    return tracked if language.expected_tests({**config, **tracked}) else dict(files)


def _scaffold_config(language: Language) -> dict[str, bytes]:
    """The runner's configuration a suite runs under where the repository has none."""
    return {p: d.encode() for p, d in language.scaffold().items() if language.is_runner_config(p)}


def run_test_files(
    checker: Checker,
    language: Language,
    files: Mapping[str, bytes],
    hidden: Mapping[str, bytes],
    allow: frozenset[str] = frozenset(),
    *,
    timeout_s: float | None = None,
    probe: bool = False,
) -> AcceptanceReport:
    """Run the hidden test files against the implementation in `files`; one case per test
    (`timeout_s`: the run's limit, when not the sandbox's). With `probe`, the code is the
    model's: its passes are probed (the module's docstring).
    The code is held to the loop's static policy first (`allow`: the kata's exceptions):
    here it shares a process with the tests that judge it.

    Raises:
        SandboxUnavailable: the sandbox failed.
    """
    suite = {path: language.hidden_test(path, data) for path, data in hidden.items()}
    # The runner's configuration: the scaffold's, where the repository has none of its own
    # at the root (a crate keeps its name). No model may write these files.
    config = _scaffold_config(language)
    config |= {p: d for p, d in files.items() if "/" not in p and language.is_runner_config(p)}
    # Ids as the runner reports them where the suite runs: a Go test's name carries the
    # module's path, which is the stub's own (`leap`), not the scaffold's.
    expected = sorted(language.expected_tests({**config, **suite}))
    code = implementation_files(language, files)
    if found := check_policy(language, code, tree=files, allow=allow):
        named = worst(found)
        label = "not readable by the judge" if named.unreadable else "tampering suspected (policy)"
        problem = f"{label}: {named}"
        return AcceptanceReport(
            tuple(CaseResult(i, CaseStatus.NO_RESULT, problem) for i in expected),
            problem=problem,
            tamper="" if named.unreadable else TamperKind.POLICY.value,
        )
    snapshot = {**config, **code, **suite}
    gate = _test_gate(checker, language, snapshot, timeout_s)
    if gate.tamper is not None:
        problem = str(gate.tamper)
        cases = tuple(CaseResult(i, CaseStatus.NO_RESULT, problem) for i in expected)
        return AcceptanceReport(cases, problem=problem, tamper=gate.tamper.kind.value)
    report = _cases(gate, expected)
    if report.problem and (note := language.toolchain_note(gate.output_tail)):
        report = replace(report, problem=f"{report.problem} ({note})")
    return _probed(checker, language, snapshot, gate, report, timeout_s) if probe else report


def _test_gate(
    checker: Checker, language: Language, snapshot: dict[str, bytes], timeout_s: float | None
) -> GateResult:
    """The test gate's run of `snapshot` in a sandbox of its own."""
    with checker.open(language, Snapshot(snapshot)) as box:
        report = run_gates(
            box, language, snapshot, only=frozenset({GateKind.TEST}), timeout_s=timeout_s
        )
    # A language that seals its tests built them first (`run_gates`): judge the test gate.
    return report.gate(GateKind.TEST) or report.gates[-1]


def _probed(
    checker: Checker,
    language: Language,
    snapshot: dict[str, bytes],
    gate: GateResult,
    report: AcceptanceReport,
    timeout_s: float | None,
) -> AcceptanceReport:
    """`report` with the probe's verdict: each passed case the probe shows answered from the
    tests' text scores nothing, and the report counts the cases the probe could check."""
    probe = plan_tree_probe(language, snapshot)
    if probe is None:
        return replace(report, probed=0)
    probed = sum(1 for r in report.results if any(matches(r.id, t) for t in probe.perturbed))
    if not report.passed:
        return replace(report, probed=probed)
    after = probe.restore_gate(
        _test_gate(checker, language, {**snapshot, **probe.files}, timeout_s)
    )
    named = (
        probe.restore_gate(_test_gate(checker, language, {**snapshot, **probe.renamed}, timeout_s))
        if probe.renamed
        else None
    )
    forged = after.tamper or (named.tamper if named is not None else None)
    if forged is not None:
        answered = {r.id: str(forged) for r in report.results}
    else:
        answered = {
            **(answered_by_name(gate.tests, named.tests) if named is not None else {}),
            **answered_from_text(probe, gate.tests, after.tests),
        }
    results = tuple(
        CaseResult(r.id, CaseStatus.NO_RESULT, f"tampering suspected (answers): {why}")
        if r.status is CaseStatus.PASSED and (why := _why(r.id, answered)) else r
        for r in report.results
    )  # fmt: skip
    tampered = results != report.results
    tamper = TamperKind.ANSWERS.value if tampered else report.tamper
    return replace(report, results=results, tamper=tamper, probed=probed)


def _why(case: str, answered: Mapping[str, str]) -> str:
    """Why the probe refuses `case` (a test id, its parametrised runs included), or ""."""
    return next((why for test_id, why in answered.items() if matches(test_id, case)), "")


def _cases(gate: GateResult, expected: list[str]) -> AcceptanceReport:
    """One case per expected test from the test gate's outcomes."""
    # An error under no expected test's id (a file that did not load or collect, a build)
    # is why the expected tests it held did not run.
    strays = [o for o in gate.tests if not any(matches(o.id, t) for t in expected)]
    why = next((f"{o.id}: {o.message}" for o in strays if o.status is TestStatus.ERROR), "")
    results = []
    for test_id in expected:
        # Every parametrised variant of a test must pass for its case to.
        ran = [o for o in gate.tests if matches(o.id, test_id)]
        bad = next((o for o in ran if o.status is not TestStatus.PASSED), None)
        if not ran:
            results.append(CaseResult(test_id, CaseStatus.NO_RESULT, "did not run"))
        elif bad is not None:
            detail = bad.message or bad.status.value
            results.append(
                _failed(test_id, f"{detail}: {why}" if detail == NOT_RUN and why else detail)
            )
        else:
            results.append(CaseResult(test_id, CaseStatus.PASSED))
    problem = ""
    # Every expected test is listed (as not run, when it did not): none of them run means
    # the build, the load or the collection failed, and its first error says why.
    if gate.status is not GateStatus.PASSED and all(
        o.message == NOT_RUN for o in gate.tests if o not in strays
    ):
        lines = [line for line in gate.output_tail.splitlines() if line.strip()]
        first = next((line for line in lines if "error" in line.lower()), lines[0] if lines else "")
        problem = f"no test ran ({gate.reason}): {(why or first.strip())[:300]}"
    return AcceptanceReport(tuple(results), problem=problem)


def _failed(test_id: str, detail: str) -> CaseResult:
    return CaseResult(test_id, CaseStatus.WRONG, detail[:300])
