"""What every attempt works with, and judging candidates in the checker.

Judging is where formatting happens: when the format gate fails (and `autoformat` is on),
the changed files are formatted in the sandbox and judged again from scratch.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial

from tdd_sandbox.agents.team import Team
from tdd_sandbox.engine.events import Event, Formatted, GatesRan
from tdd_sandbox.engine.journal import Journal
from tdd_sandbox.engine.workspace import Workspace
from tdd_sandbox.execution.base import Checker, GateCheck
from tdd_sandbox.execution.formatting import changed_paths
from tdd_sandbox.grading.gates import GateReport
from tdd_sandbox.grading.probe import Probe
from tdd_sandbox.grading.probe_verdict import check_names, check_probe
from tdd_sandbox.languages.base import Language
from tdd_sandbox.repo.hardened import HardenedRepo
from tdd_sandbox.sandbox.snapshot import Snapshot
from tdd_sandbox.settings import Settings
from tdd_sandbox.vocabulary.cancel import CancelToken
from tdd_sandbox.vocabulary.results import GateKind

Emit = Callable[[Event], None]


@dataclass(frozen=True)
class Workshop:
    """What every attempt works with."""

    repo: HardenedRepo
    language: Language
    checker: Checker
    settings: Settings
    team: Team
    journal: Journal
    emit: Emit
    run_id: str
    allow: frozenset[str] = frozenset()
    """Policy rules the kata allows (its front matter's `allow:`)."""

    def evaluate(self, files: Mapping[str, bytes]) -> GateReport:
        """Every gate on `files` in a fresh sandbox.

        Raises:
            SandboxUnavailable: the sandbox failed.
        """
        return self._gates(files, None, None, None, ())[0]

    def judge(
        self,
        before: Mapping[str, bytes],
        files: Mapping[str, bytes],
        kinds: frozenset[GateKind] | None,
        *,
        workspace: Workspace,
        token: CancelToken | None = None,
    ) -> tuple[dict[str, bytes], GateReport]:
        """Place a model's `files` (changed from `before`) in `workspace` and run gates on
        them. When the format gate fails (and `autoformat` is on), the changed files are
        formatted in the sandbox, placed, and judged again from scratch.

        Returns:
            The files judged (formatted or as written) and their report.

        Raises:
            SandboxUnavailable: the sandbox failed, or was torn down by a cancellation.
            VerdictError, OSError: the workspace could not hold the files.
        """
        paths = changed_paths(before, files) if self.settings.autoformat else []
        report, formatted = self._gates(files, kinds, workspace.place(files), token, paths)
        if formatted is None or formatted == files:
            return dict(files), report
        self.emit(Formatted(changed_paths(files, formatted)))
        placed = workspace.place(formatted)
        return formatted, self._gates(formatted, kinds, placed, token, ())[0]

    def _gates(
        self,
        files: Mapping[str, bytes],
        kinds: frozenset[GateKind] | None,
        snapshot: Snapshot | None,
        token: CancelToken | None,
        tidy: Sequence[str],
    ) -> tuple[GateReport, dict[str, bytes] | None]:
        started = time.monotonic()
        question = GateCheck(self.language, files, kinds, snapshot, tidy)
        checked = self.checker.check(question, token=token)
        report = checked.report
        gates = {g.kind.value: g.status.value for g in report.gates}
        self.emit(GatesRan(report.ok, gates, round(time.monotonic() - started, 3)))
        return report, checked.formatted


class Probing:
    """A probe's runs on `files`, each in a sandbox of its own, started beside the gates: they
    need nothing the gates decide, so an attempt waits for the slowest rather than all in
    turn. One has the expected values changed, one the tests' names; `verdict` waits for
    them (and runs a refactoring's baseline when that is needed)."""

    def __init__(
        self,
        shop: Workshop,
        probe: Probe,
        files: Mapping[str, bytes],
        token: CancelToken | None,
    ) -> None:
        self.shop, self.probe, self.files, self.token = shop, probe, dict(files), token
        self._pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="probe")
        self._after = self._pool.submit(self._run, self.files)
        # No test renamed (none the language names so): no second run to make.
        self._names = (
            self._pool.submit(self._run, self.files, probe.renamed) if probe.renamed else None
        )

    def _run(
        self, tree: Mapping[str, bytes], tests: Mapping[str, bytes] | None = None
    ) -> GateReport:
        probe = self.probe
        changed = probe.files if tests is None else tests
        perturbed = probe.run_perturbed if tests is None else frozenset()
        question = GateCheck(self.shop.language, {**tree, **changed},
                             frozenset({GateKind.TEST}), perturbed=perturbed,
                             names=probe.names)  # fmt: skip
        return probe.restore(self.shop.checker.check(question, token=self.token).report)

    def verdict(self, files: Mapping[str, bytes]) -> None:
        """Judge the runs (`grading.probe_verdict`) for the candidate as judged: `files`, run
        again if formatting changed them since the probe started.

        Raises:
            VerdictError: the code answers from the tests' text or their names.
            SandboxUnavailable: a sandbox failed, or the check was cancelled.
        """
        baseline = self.probe.baseline
        try:
            same = dict(files) == self.files
            if self._names is not None:
                named = self._names.result() if same else self._run(files, self.probe.renamed)
                check_names(self.probe, named)
            after = self._after.result() if same else self._run(files)
            # The code before a refactoring runs only when the refactoring's own run leaves
            # its verdict open: most often that run settles it alone, and a run is saved.
            before = None if baseline is None else partial(self._run, baseline)
            check_probe(self.probe, after, before)
        finally:
            self.close()

    def close(self) -> None:
        """Wait for the runs to end (a cancelled attempt's token ends them at once)."""
        self._pool.shutdown(wait=True)
