"""The checker registry: `sandbox.type` names the checker that runs a run's gates."""

from __future__ import annotations

from pathlib import Path

from tdd_sandbox.errors import UsageError
from tdd_sandbox.execution.base import Checker, GateCheck
from tdd_sandbox.execution.docker_checker import DockerChecker
from tdd_sandbox.execution.fake_checker import FakeChecker
from tdd_sandbox.grading.gates import GateReport
from tdd_sandbox.grading.probe import plan_tree_probe
from tdd_sandbox.grading.probe_verdict import probe_gate
from tdd_sandbox.grading.verdicts import policy_gate
from tdd_sandbox.images.builder import Progress, quiet
from tdd_sandbox.katas.kata import load_kata
from tdd_sandbox.languages.registry import detect_language, get_language
from tdd_sandbox.sandbox.snapshot import Snapshot
from tdd_sandbox.settings import Settings
from tdd_sandbox.vocabulary.results import GateKind

CHECKERS: dict[str, type[Checker]] = {
    DockerChecker.kind: DockerChecker,
    FakeChecker.kind: FakeChecker,
}


def open_checker(
    settings: Settings,
    *,
    progress: Progress = quiet,
    run_id: str | None = None,
    for_scores: str = "",
) -> Checker:
    """The checker `settings.sandbox.type` names: the one way any command opens one.

    Args:
        for_scores: what the caller does with the verdicts when they are scores or proofs
            (`"the bench"`, `"katas import"`): a checker that runs no code is refused then,
            since its verdicts are scripted.

    Raises:
        UsageError: the checker runs no code and the verdicts are for scores.
        PrerequisiteError: its engine cannot be used (no Docker engine).
    """
    kind = CHECKERS[settings.sandbox.type]
    if for_scores and not kind.runs_code:
        raise UsageError(
            f"{for_scores} needs code to run: sandbox.type {kind.kind} runs none; "
            "set sandbox.type: docker"
        )
    return kind(settings, progress=progress, run_id=run_id)


def check_directory(
    directory: Path,
    settings: Settings,
    *,
    language: str | None = None,
    timeout_s: float | None = None,
    progress: Progress = quiet,
) -> GateReport:
    """Judge the repo at `directory` as the loop judges green: the policy (with the `allow:`
    of a kata.md at its root), then every gate command, then, when all passed, the probe (the
    tests with their expected values changed, `grading.probe.plan_tree_probe`).

    Raises:
        UsageError: the directory or language is wrong.
        PrerequisiteError, SandboxUnavailable: Docker or an image is not usable.
    """
    snapshot = Snapshot.from_directory(directory)
    chosen = language or settings.language
    plugin = get_language(chosen) if chosen else detect_language(snapshot.files)
    kata = directory / "kata.md"
    allow = load_kata(kata).allowed_rules(plugin.name) if kata.is_file() else frozenset()
    policy = policy_gate(plugin, snapshot.files, allow)
    with open_checker(settings, progress=progress) as checker:
        question = GateCheck(plugin, snapshot.files, snapshot=snapshot, timeout_s=timeout_s)
        report = checker.check(question).report
        if not (policy.passed and report.ok):
            return GateReport(report.language, (policy, *report.gates))
        # Green so far: the tests once more with their expected values changed, as the loop
        # probes each step, in a sandbox of their own.
        probe = plan_tree_probe(plugin, snapshot.files)
        probed = named = None
        if probe is not None:
            changed = {**snapshot.files, **probe.files}
            tests = frozenset({GateKind.TEST})
            ask = GateCheck(plugin, changed, tests, perturbed=probe.run_perturbed,
                            names=probe.names, timeout_s=timeout_s)  # fmt: skip
            probed = probe.restore(checker.check(ask).report)
            if probe.renamed:  # and under names that say nothing, every value as written
                ask = GateCheck(plugin, {**snapshot.files, **probe.renamed}, tests,
                                names=probe.names, timeout_s=timeout_s)  # fmt: skip
                named = probe.restore(checker.check(ask).report)
    probed_gate = probe_gate(probe, probed, named)
    return GateReport(report.language, (policy, *report.gates, probed_gate))
