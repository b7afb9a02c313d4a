"""How one exec's output is read back: its ending and streams, and for a batch (several
commands in one exec, `supervisor.BATCH`) each command's own time and result."""

from __future__ import annotations

import time
from dataclasses import dataclass

from tdd_sandbox.sandbox import namespaces, supervisor
from tdd_sandbox.sandbox.base import ExecResult
from tdd_sandbox.sandbox.stream import CappedText, Ending
from tdd_sandbox.settings import SandboxSettings, parse_memory


@dataclass(frozen=True)
class Run:
    """How one exec went: why reading stopped, its output and its exit status (None
    unless it ended by itself)."""

    ending: Ending
    out: CappedText
    err: CappedText
    code: int | None
    duration_s: float


_SETUP_S = 10.0
"""Time the sandbox's own setup may take before a batch's first command begins (fresh
namespaces, under load): not the command's to spend."""


class BatchDeadline:
    """When a batch's running command runs out of time: `timeout` after the latest `begin`
    line on its stdout (before the first, `_SETUP_S` more)."""

    def __init__(self, out: CappedText, nonce: str, timeout: float) -> None:
        self._out, self._nonce, self._timeout = out, nonce, timeout
        self._begun, self._read = -1, -1
        self._at = time.monotonic()

    def __call__(self) -> float:
        # Once cut, the batch is not taken: no command needs more time then.
        if self._out.total != self._read and not self._out.truncated:
            self._read = self._out.total
            text = self._out.text()
            while f"\n@@{self._nonce} begin {self._begun + 1}\n" in text:
                self._begun += 1
                self._at = time.monotonic()
        return self._at + self._timeout + (_SETUP_S if self._begun < 0 else 0.0)


def exec_result(run: Run, nonce: str) -> tuple[ExecResult, bool]:
    """One command's result, from its run and its supervisor's report; and whether there
    was a report (none: the supervisor was killed, or no code ran)."""
    ooms, forks_refused = namespaces.counts(run.err.text(), nonce)
    stderr, report = supervisor.extract(run.err.text(), nonce)
    result = ExecResult(
        exit_code=run.code,
        stdout=run.out.text(),
        stderr=stderr,
        duration_s=run.duration_s,
        timed_out=run.ending is Ending.TIMEOUT,
        flooded=run.ending is Ending.FLOOD,
        oom_killed=ooms > 0 or (report is not None and report.oom_kills > 0),
        process_limit=forks_refused > 0 or (report is not None and report.refused > 0),
        output_truncated=run.out.truncated or run.err.truncated,
        leftover_processes=report.leftovers if report is not None else (),
        collected=report.collected if report is not None else None,
    )
    return result, report is not None


def batch_results(
    run: Run, nonce: str, count: int, settings: SandboxSettings
) -> list[ExecResult] | None:
    """Each of a batch's `count` commands' results, each held to the output limit one
    command has; None when the batch did not end as planned (a limit hit, its supervisor
    killed, a report missing, one command's output past the flood limit), so that its
    commands run again one by one."""
    limit, flood = parse_memory(settings.output_limit), parse_memory(settings.flood_limit)
    if run.ending is not Ending.EOF or run.code != 0 or run.out.truncated or run.err.truncated:
        return None
    if any(namespaces.counts(run.err.text(), nonce)):
        return None  # counted for the whole batch: each command alone says whose it was
    parts = supervisor.split_batch(run.out.text(), run.err.text(), nonce, count)
    if parts is None or any(len(p.stdout) + len(p.stderr) > flood for p in parts):
        return None
    results = []
    for part in parts:
        out, err = CappedText(limit), CappedText(limit)
        out.add(part.stdout.encode())
        err.add(part.stderr.encode())
        report = part.report
        results.append(
            ExecResult(
                exit_code=report.exit_code,
                stdout=out.text(),
                stderr=err.text(),
                duration_s=report.seconds if report.seconds is not None else run.duration_s,
                oom_killed=report.oom_kills > 0,
                process_limit=report.refused > 0,
                output_truncated=out.truncated or err.truncated,
                leftover_processes=report.leftovers,
            )
        )
    return results
