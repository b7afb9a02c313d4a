"""Running a language's gates in a sandbox; `grading.gates` judges each one."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import replace

from tdd_sandbox.errors import SandboxUnavailable
from tdd_sandbox.grading.evidence import cross_check
from tdd_sandbox.grading.gates import GateReport, GateResult, abnormal, judge_command, judge_tests
from tdd_sandbox.grading.reconcile import reconcile
from tdd_sandbox.languages.base import Language
from tdd_sandbox.sandbox.base import Sandbox
from tdd_sandbox.sandbox.snapshot import Snapshot
from tdd_sandbox.settings import GateOverride
from tdd_sandbox.vocabulary.results import Gate, GateKind


def plan_gates(language: Language, override: GateOverride | None) -> tuple[Gate, ...]:
    """The language's gates with any configured command overrides applied."""
    if override is None:
        return language.gates()
    planned = []
    for gate in language.gates():
        replacement = getattr(override, gate.kind.value, None)
        planned.append(Gate(gate.kind, tuple(replacement)) if replacement else gate)
    return tuple(planned)


READERS = frozenset({GateKind.FORMAT, GateKind.LINT, GateKind.TYPECHECK})
"""Gates that read the code and never run it, and use nothing another gate makes."""


def split_lanes(
    language: Language,
    override: GateOverride | None,
    only: frozenset[GateKind] | None,
    *,
    lanes_cost_containers: bool = True,
) -> tuple[frozenset[GateKind], ...]:
    """The gates to run as lanes that run at once, each in a sandbox of its own: the readers
    (with a build that only reads, `build_reads_only`) beside the gates that run code. Where
    each lane costs a container of its own (`isolation: container`), only when one of the
    language's `readers_apart` is to run; in a warm container, where a lane is fresh
    namespaces, whenever both are to run. Else every gate in one lane. No lane is empty."""
    planned = frozenset(gate.kind for gate in plan_gates(language, override))
    if only is not None:
        planned &= only
    readers = READERS | {GateKind.BUILD} if language.build_reads_only else READERS
    apart = language.readers_apart if lanes_cost_containers else readers
    lanes = (planned & readers, planned - readers)
    if not planned & apart & readers or not all(lanes):
        return (planned,) if planned else ()
    return lanes


def with_sealable_tests(language: Language, snapshot: Snapshot) -> Snapshot:
    """`snapshot` with the language's test sources sealable: what a sandbox the language's
    gates run in must hold (`run_gates` refuses one that cannot seal them)."""
    return replace(snapshot, sealable=frozenset(language.sealed_tests(snapshot.files)))


def run_gates(
    sandbox: Sandbox,
    language: Language,
    files: Mapping[str, bytes],
    *,
    override: GateOverride | None = None,
    only: frozenset[GateKind] | None = None,
    timeout_s: float | None = None,
) -> GateReport:
    """Run the gates in order on the sandbox's snapshot (`files` is that snapshot's content,
    read for the expected test ids). Every gate runs, so that one report shows every
    problem."""
    expected = language.expected_tests(files)
    # One nonce for the run: a language may prepare its guard in an earlier gate.
    nonce = secrets.token_hex(8)
    plan = plan_gates(language, override)
    # Under its guard, a language that seals its tests runs them with their files unreadable:
    # it runs what its build built (and builds first, asked or not), or its runner loads them
    # from its input. A configured command is unguarded and may need the sources.
    guarded = any(g.kind is GateKind.TEST and language.guard(g.command, nonce) for g in plan)
    sealed = language.sealed_tests(files) if guarded else []
    if unsealable := sorted(set(sealed) - sandbox.sealable):
        # Fail closed: run beside readable tests, the gate could be answered from them.
        raise SandboxUnavailable(f"the sandbox cannot seal {', '.join(unsealable[:3])}")
    feed = language.sealed_input(files, sealed) if sealed else None
    if only is not None and sealed and feed is None and GateKind.TEST in only:
        only = only | {GateKind.BUILD}
    results: list[GateResult] = []
    waiting: list[Gate] = []  # gates before the tests, run together in one round trip

    def run_waiting() -> None:
        commands = [language.guard(g.command, nonce) or g.command for g in waiting]
        ran = sandbox.exec_each(commands, timeout_s=timeout_s)
        results.extend(judge_command(g.kind, r) for g, r in zip(waiting, ran, strict=True))
        waiting.clear()

    for gate in plan:
        if only is not None and gate.kind not in only:
            continue
        if gate.kind is not GateKind.TEST:
            waiting.append(gate)
            continue
        run_waiting()
        # Without a build, the runner compiles the tests and needs them readable, as its
        # errors are the feedback: its verdict is a failure then.
        built = any(r.kind is GateKind.BUILD and r.passed for r in results)
        seal = bool(sealed) and (feed is not None or built)
        results.append(
            _run_tests(sandbox, language, gate, expected, timeout_s, nonce, feed, seal=seal)
        )
    run_waiting()
    return GateReport(language.name, tuple(results))


def _run_tests(
    sandbox: Sandbox,
    language: Language,
    gate: Gate,
    expected: frozenset[str],
    timeout_s: float | None,
    nonce: str,
    feed: bytes | None,
    *,
    seal: bool,
) -> GateResult:
    """The test gate under the language's guard (sentinels, an independent channel), its
    report cross-checked against that channel. A configured override runs unguarded."""
    guarded = language.guard(gate.command, nonce)
    # The results file rides back with the test command's own result where it can.
    result = sandbox.exec(guarded or gate.command, timeout_s=timeout_s,
                          collect=language.results_path, stdin=feed, sealed=seal)  # fmt: skip
    report = result.collected
    if report is None and language.results_path:
        report = sandbox.read_file(language.results_path)
    outcomes = language.parse_results(result, report)
    code, tamper = result.exit_code, None
    if guarded is not None and abnormal(result) is None:
        outcomes, code, tamper = cross_check(outcomes, language.evidence(result, nonce), code)
    # Judged on the exit code the kata's own tests set; shown as a person reads it.
    judged = replace(result, exit_code=code, stdout=language.readable(result.stdout))
    return judge_tests(judged, tuple(reconcile(outcomes, expected)), tamper=tamper)
