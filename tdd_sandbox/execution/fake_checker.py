"""The fake checker: gate results from a script, no Docker, no code run.

It exists so that the engine's rules (red, green, refactor, waves, cancellation, resume) can
be tested in milliseconds, and so that the harness's own overhead can be measured apart from
the sandbox's. Its verdicts say nothing about the code, so `bench` refuses it.

Only the running is faked. Expected tests come from the language plug-in's real static
discovery, and each gate's result is judged by `grading.gates`, as the Docker checker's are.
The script is the files' own text:

- a test passes when its name (`test_one` of `tests/test_x.py::test_one`) appears as a word
  in a file that is not a test file, and fails otherwise; the scaffold's own tests always
  pass;
- `FAKE:skip test_one` anywhere skips that test;
- `FAKE:format`, `FAKE:lint`, `FAKE:typecheck` or `FAKE:build` anywhere fails that gate
  (a failed build runs no test); formatting a path removes `FAKE:format` from it;
- `FAKE:late-lint` in a test file fails the lint gate at that file, as a linter reports it
  (`path:1:1: ...`), once every test passes: go vet reads no test past a name its code has
  not defined yet, so a test's own findings show only in GREEN;
- code passes a test by the test's own name, also where a probe runs it under a neutral
  one, unless `FAKE:reads-names` (code that answers from the name it is called under);
- `FAKE:tamper-sentinel` (or `-channel`, `-runner`) makes the test run show that evidence;
- a test whose expected values a probe changed fails, unless `FAKE:answers` (code that reads
  its answers off the tests) is in a code file.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping
from dataclasses import replace

from typing_extensions import override

from tdd_sandbox.errors import PrerequisiteError, SandboxUnavailable
from tdd_sandbox.execution.base import Checked, Checker, GateCheck
from tdd_sandbox.execution.steps import plan_gates
from tdd_sandbox.grading.evidence import Tamper, TamperKind
from tdd_sandbox.grading.gates import GateReport, GateResult, judge_command, judge_tests
from tdd_sandbox.grading.reconcile import reconcile
from tdd_sandbox.languages.base import Language
from tdd_sandbox.languages.renaming import restored
from tdd_sandbox.sandbox.base import ExecResult, Sandbox
from tdd_sandbox.sandbox.snapshot import Snapshot
from tdd_sandbox.vocabulary.cancel import CancelToken
from tdd_sandbox.vocabulary.results import GateKind, TestOutcome, TestStatus

MARK = b"FAKE:"
FORMAT_MARK = MARK + b"format"


class FakeChecker(Checker):
    """Scripted gates (see the module's docstring); `sandbox.fake_gate_s` is how long each
    check takes, so that races have something to cancel."""

    kind = "fake"
    runs_code = False

    @override
    def open(self, language: Language, snapshot: Snapshot) -> Sandbox:
        """Refused: the fake backend runs no code, so nothing can be performed in it."""
        raise PrerequisiteError(
            f"sandbox.type {self.kind} runs no code: use sandbox.type docker to run {language.name}"
        )

    @override
    def check(self, question: GateCheck, *, token: CancelToken | None = None) -> Checked:
        """Scripted gates on `files` (or the snapshot's, which a worktree holds)."""
        language, kinds = question.language, question.kinds
        judged = dict(question.sandboxed().files)
        self._wait(token)
        results = [
            _gate(gate.kind, language, judged, question.perturbed, question.names)
            for gate in plan_gates(language, self.settings.gates.get(language.name))
            if kinds is None or gate.kind in kinds
        ]
        report = GateReport(language.name, tuple(results))
        formatted = None
        if question.tidy and any(r.kind is GateKind.FORMAT and not r.passed for r in results):
            formatted = dict(judged)
            for path in question.tidy:
                formatted[path] = formatted[path].replace(FORMAT_MARK, b"")
        return Checked(report, formatted)

    def _wait(self, token: CancelToken | None) -> None:
        """Take `fake_gate_s`, or less when the check is cancelled meanwhile.

        Raises:
            SandboxUnavailable: the check was cancelled.
        """
        cancelled = threading.Event()
        if token is not None and not token.register(cancelled.set):
            raise SandboxUnavailable("the attempt was cancelled")
        try:
            if cancelled.wait(self.settings.sandbox.fake_gate_s):
                raise SandboxUnavailable("the attempt was cancelled")
        finally:
            if token is not None:
                token.unregister(cancelled.set)

    @override
    def close(self) -> None:
        """Nothing to release: the fake starts nothing."""


def _marked(files: Mapping[str, bytes], what: bytes) -> bool:
    return any(MARK + what in data for data in files.values())


def _gate(
    kind: GateKind,
    language: Language,
    files: Mapping[str, bytes],
    perturbed: frozenset[str],
    names: Mapping[str, str],
) -> GateResult:
    if kind is GateKind.TEST:
        return _tests(language, files, perturbed, names)
    late = [
        path for path, data in files.items()
        if language.is_test_path(path) and MARK + b"late-lint" in data
    ]  # fmt: skip
    if kind is GateKind.LINT and late and _tests(language, files, perturbed, names).passed:
        said = "".join(f"{path}:1:1: FAKE001 a finding in the test itself\n" for path in late)
        return judge_command(kind, ExecResult(1, said, "", 0.0))
    failed = _marked(files, kind.value.encode())
    said = f"fake {kind.value} gate: {'FAKE:' + kind.value + ' found' if failed else 'clean'}"
    return judge_command(kind, ExecResult(1 if failed else 0, said, "", 0.0))


def _tests(
    language: Language,
    files: Mapping[str, bytes],
    perturbed: frozenset[str],
    names: Mapping[str, str],
) -> GateResult:
    expected = language.expected_tests(files)
    if _marked(files, b"build"):
        result = ExecResult(1, "", "fake build failed: FAKE:build found", 0.0)
        return judge_tests(result, tuple(reconcile([], expected)))
    code = b"\n".join(data for path, data in files.items() if not language.is_test_path(path))
    scaffold = {path: text.encode() for path, text in language.scaffold().items()}
    given = language.expected_tests(scaffold)
    # Code passes a test by the test's own name; code that reads the names it is run under
    # (`FAKE:reads-names`) knows only those.
    own = {} if MARK + b"reads-names" in code else names
    outcomes = [
        TestOutcome(test_id, TestStatus.FAILED, "its expected values were changed")
        if test_id in perturbed and MARK + b"answers" not in code
        else replace(_outcome(restored(test_id, own), code, files, given), id=test_id)
        for test_id in sorted(expected)
    ]
    tamper = next(
        (
            Tamper(kind, "scripted by FAKE:tamper-" + kind.value)
            for kind in TamperKind
            if _marked(files, b"tamper-" + kind.value.encode())
        ),
        None,
    )
    failing = any(o.status in (TestStatus.FAILED, TestStatus.ERROR) for o in outcomes)
    said = "\n".join(f"{o.id} {o.status.value.upper()} {o.message}".rstrip() for o in outcomes)
    result = ExecResult(1 if failing else 0, said, "", 0.0)
    return judge_tests(result, tuple(reconcile(outcomes, expected)), tamper=tamper)


def _outcome(
    test_id: str, code: bytes, files: Mapping[str, bytes], given: frozenset[str]
) -> TestOutcome:
    name = test_id.rsplit("::", 1)[-1].split("[", 1)[0]
    if _marked(files, b"skip " + name.encode()):
        return TestOutcome(test_id, TestStatus.SKIPPED, "skipped by FAKE:skip")
    if test_id in given or re.search(rb"(?<!\w)" + re.escape(name.encode()) + rb"(?!\w)", code):
        return TestOutcome(test_id, TestStatus.PASSED)
    return TestOutcome(test_id, TestStatus.FAILED, f"no code file names {name}")
