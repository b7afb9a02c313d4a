"""Commit messages that carry what the next agent (and person) needs.

Conventional summary, then Context, Rationale, Diff summary and Verification sections, then
trailers the tool itself reads back (`TDD-Cycle` tells a later run where to continue).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from tdd_sandbox.grading.gates import GateReport

_CONVENTIONAL = re.compile(r"^(feat|fix|refactor|test|chore|docs|perf|style)(\([\w./-]+\))?!?: \S")
MAX_SUMMARY = 72


@dataclass(frozen=True)
class CommitFacts:
    """What a commit message is made from."""

    kind: str
    """feat, fix or refactor."""
    scope: str
    model_message: str
    kata_title: str
    cycle: int
    run_id: str
    models: Mapping[str, str]
    attempts: Mapping[str, int]
    rationale: str
    diff_summary: str
    report: GateReport
    scripted: bool = False
    """The gates were scripted by the fake checker: no code ran."""


def _clean(text: str) -> str:
    return "".join(ch for ch in text if ch == "\n" or ch == "\t" or ord(ch) >= 32).strip()


def summary_line(kind: str, scope: str, model_message: str) -> str:
    """The model's first line if it is a conventional summary of the right kind, else ours."""
    first = _clean(model_message).splitlines()[0] if _clean(model_message) else ""
    if _CONVENTIONAL.match(first) and first.startswith((kind, "fix" if kind == "feat" else kind)):
        line = first
    else:
        words = re.sub(r"^\w+(\([^)]*\))?!?:\s*", "", first) or "advance the kata"
        line = f"{kind}({scope}): {words}"
    return line[:MAX_SUMMARY].rstrip()


def verification_lines(report: GateReport) -> list[str]:
    """One line per gate: status, time and test counts."""
    lines = []
    for gate in report.gates:
        counts = gate.counts
        tests = f", {counts.passed} tests passed" if gate.kind.value == "test" else ""
        lines.append(
            f"- {gate.kind.value}: {gate.status.value} ({gate.result.duration_s:.1f}s{tests})"
        )
    return lines


def compose(facts: CommitFacts) -> str:
    """The full message."""
    models = ", ".join(f"{role}={model}" for role, model in facts.models.items())
    attempts = ", ".join(f"{role}={count}" for role, count in facts.attempts.items())
    body = [
        summary_line(facts.kind, facts.scope, facts.model_message),
        "",
        "Context:",
        f"- Kata: {facts.kata_title}",
        f"- Cycle: {facts.cycle}",
        f"- Roles: {models}",
        "",
        "Rationale:",
        _clean(facts.rationale)[:1500] or "-",
        "",
        "Diff summary:",
        facts.diff_summary or "-",
        "",
        "Verification (scripted by the fake checker: no code ran):"
        if facts.scripted
        else "Verification:",
        *verification_lines(facts.report),
        "",
        f"TDD-Run: {facts.run_id}",
        f"TDD-Cycle: {facts.cycle}",
        f"TDD-Model: {models}",
        f"TDD-Attempts: {attempts}",
    ]
    return "\n".join(body) + "\n"


def diff_summary(before: Mapping[str, bytes], after: Mapping[str, bytes]) -> str:
    """`A path (+n)`, `M path (+a -d)`, `D path` per changed file."""
    lines = []
    for path in sorted(set(before) | set(after)):
        old, new = before.get(path), after.get(path)
        if old == new:
            continue
        if old is None:
            lines.append(f"- A {path} (+{len(new.splitlines()) if new else 0})")
        elif new is None:
            lines.append(f"- D {path}")
        else:
            old_lines, new_lines = set(old.splitlines()), set(new.splitlines())
            added = sum(1 for line in new.splitlines() if line not in old_lines)
            removed = sum(1 for line in old.splitlines() if line not in new_lines)
            lines.append(f"- M {path} (+{added} -{removed})")
    return "\n".join(lines)
