"""Implement mode (`bench --mode implement`): the model is given the kata, its starting files
and the tests, and writes the implementation, as aider's polyglot benchmark asks it to.

The tests are the kata's own: an imported kata's track tests (all of them enabled, as the
hidden suite runs them), or, for a kata of data only, its cases rendered as the calls the
judge makes and the values it expects. The tool judges the first try; if any test fails, the
failures go back to the model once and the second try is judged. `pass_1` and `pass_2` are
aider's pass_rate_1 and pass_rate_2 for one job (every test passes after the first try;
after the second, the first's passes included); the case pass rate after the last try is the
job's acceptance score. Every try is judged by `score_kata`: as data, compared on the host,
where the kata has calls for the language, so no try can be answered from the tests at run
time; else by its test files under the test gate's guard.
"""

from __future__ import annotations

import functools
import json
import shutil
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from tdd_sandbox.acceptance.scorer import score_kata
from tdd_sandbox.acceptance.suite import case_names, has_calls, load_suite
from tdd_sandbox.acceptance.testfiles import hidden_test_files
from tdd_sandbox.agents.context import Exchange, Situation, carried
from tdd_sandbox.agents.team import build_team
from tdd_sandbox.bench.solo import solo_metrics, try_edits
from tdd_sandbox.execution.checkers import open_checker
from tdd_sandbox.grading.acceptance import AcceptanceReport, CaseStatus
from tdd_sandbox.katas.kata import Kata, load_kata
from tdd_sandbox.languages.base import Language
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.repo.scaffolding import starting_files
from tdd_sandbox.settings import Settings
from tdd_sandbox.vocabulary.cancel import CancelToken
from tdd_sandbox.vocabulary.failures import Failure
from tdd_sandbox.vocabulary.roles import Role

TRIES = 2
"""aider's: a first try, and one more with the failures fed back."""
_CASES_CHARS = 12_000
_FEEDBACK_CASES = 10


def implement_kata(
    kata_dir: Path,
    language_name: str,
    settings: Settings,
    *,
    run_id: str,
    record: Path | None = None,
    replay: Path | None = None,
    stop: CancelToken | None = None,
    keep: Path | None = None,
) -> dict[str, Any]:
    """One implement-mode job: the tries, each judged, and what the bench records of it;
    the files the last try left changed are kept under `keep`, when given. Cancelling `stop`
    ends it at once (`Cancelled`), whatever it waits on.

    Raises:
        InfrastructureError: the endpoint is unusable.
        SandboxUnavailable, PrerequisiteError: the sandbox is.
        UsageError: the kata has no suite in the language.
    """
    started = time.monotonic()
    piece = prepare(kata_dir, get_language(language_name))
    language, files = piece.language, piece.files
    team = build_team(settings, record=record, replay=replay, header={"mode": "implement"})
    stop = stop or CancelToken()
    passes: list[bool] = []
    kinds: Counter[Failure] = Counter()  # why tries were refused, or caught tampering
    gate_s = 0.0
    feedback = ""
    earlier: tuple[Exchange, ...] = ()
    report: AcceptanceReport | None = None
    try:
        agent = team[Role.IMPLEMENTER]
        with open_checker(settings, for_scores="the bench", run_id=run_id) as checker:
            versions = checker.versions(language)
            for _ in range(TRIES):
                situation = Situation(
                    kata_text=piece.kata.text, kata_path="kata.md", files=files,
                    language=language, task="", writes=piece.sources,
                    focus=[*piece.sources, *sorted(piece.tests)], previous_error=feedback,
                    extra=piece.extra, target=piece.target, solo=True, earlier=earlier,
                )  # fmt: skip
                # A try whose edits are refused changes nothing: it is judged as it stands.
                tried = try_edits(agent, situation, kinds, stop)
                files, feedback = tried.files, tried.feedback
                earlier = carried(earlier, tried.exchange)
                judged_at = time.monotonic()
                report = stop.call(
                    functools.partial(score_kata, checker, language, files, kata_dir)
                )
                gate_s += time.monotonic() - judged_at
                if report.tamper:
                    kinds[Failure.read(report.tamper)] += 1
                passes.append(report.total > 0 and report.passed == report.total)
                if passes[-1]:
                    break
                feedback = "\n".join(filter(None, [feedback, piece.failures(report)]))
    finally:
        team.close()
    assert report is not None  # TRIES >= 1
    if keep is not None:
        keep_files(keep, {path: data for path, data in files.items()
                          if piece.files.get(path) != data})  # fmt: skip
    return {
        "status": "completed",
        "reason": "" if passes[-1] else report.why(piece.names)[:500],
        "pass_1": passes[0],
        "pass_2": any(passes[:TRIES]),
        "tries": len(passes),
        "acceptance_pass_rate": round(report.rate, 4),
        "judged": report.judged.value,
        "acceptance": {
            "passed": report.passed,
            "total": report.total,
            "why": report.why(piece.names),
            "probed": report.probed,
        },
        "green_commits": int(passes[-1]),
        "sandbox": versions,
        # Editing the tests, or code the judge caught forging its verdict, count as tamper:
        # with the tests in plain view, a try that reaches for them is no mistake.
        **solo_metrics(team.ledger, kinds, wall_s=time.monotonic() - started, gate_s=gate_s),
    }


def keep_files(folder: Path, files: Mapping[str, bytes]) -> None:
    """Write `files` (a model's, as data) under `folder`, made afresh. A path that would
    leave the folder (absolute, `..`) is not written: the edits' own checks refuse such a
    path before, and a kept copy must not be the way around them."""
    shutil.rmtree(folder, ignore_errors=True)
    for name, data in files.items():
        relative = PurePosixPath(name)
        if relative.is_absolute() or ".." in relative.parts or not relative.parts:
            continue
        target = folder.joinpath(*relative.parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


@dataclass(frozen=True)
class Workpiece:
    """What an implement-mode job starts from: the kata, its starting files with the tests
    that judge it, and where the code goes. The plain-prompt baseline of
    `benchmarks/harness_fidelity.py` starts from the same."""

    kata: Kata
    language: Language
    files: dict[str, bytes]
    """The starting files and the tests."""
    tests: dict[str, bytes]
    """The kata's own test files, every test enabled (empty for a kata of data only)."""
    sources: list[str]
    """The files the implementation goes in."""
    extra: tuple[str, ...]
    """The cases written out, for a kata of data only."""
    unshown: frozenset[str] = frozenset()
    """The ids of the cases of a kata of data only that the prompt had no room for."""
    names: Mapping[str, str] = field(default_factory=dict)
    """Each case judged as data, its description by its id (a uuid, where the data has one)."""

    def failures(self, report: AcceptanceReport) -> str:
        """What the second try is told: the tests that failed and why, as a runner would say.
        A case the prompt did not show is said to fail with no detail: its detail names the
        expected value, an answer the model was never given."""
        failed = [r for r in report.results if r.status is not CaseStatus.PASSED]
        lines = [f"{report.passed} of {report.total} tests passed."]
        if report.problem:
            lines.append(report.problem)
        if report.problem and not report.passed:
            # No test ran: each would say only that, after the one reason that matters.
            return "\n".join(lines)
        lines += [
            f"- {self.names.get(r.id, r.id)}: "
            + (r.status.value if r.id in self.unshown else r.detail or r.status.value)
            for r in failed[:_FEEDBACK_CASES]
        ]
        if len(failed) > _FEEDBACK_CASES:
            lines.append(f"... and {len(failed) - _FEEDBACK_CASES} more")
        return "\n".join(lines)

    @property
    def target(self) -> str:
        """The first file the implementation goes in."""
        return self.sources[0] if self.sources else ""


def prepare(kata_dir: Path, language: Language) -> Workpiece:
    """The starting point of an implement-mode job of `kata_dir` in `language`.

    Raises:
        UsageError: the kata's suite for the language is unusable.
    """
    kata = load_kata(kata_dir / "kata.md")
    hidden = hidden_test_files(kata_dir, language)
    # Shown as the judge runs them, less what only the harness needs; the judge reads its
    # own copy from the kata (`score_kata`).
    tests = {
        path: language.shown_test(path, language.hidden_test(path, data))
        for path, data in hidden.items()
    }
    rendered, unshown = ("", frozenset[str]()) if tests else _rendered_cases(kata_dir, language)
    # A case judged as data is reported by its id, a uuid where the data has one: the model
    # hears of it by the name it was shown.
    names = case_names(kata_dir, language.name)
    extra = () if tests else (rendered,)
    files = {
        path: text.encode() for path, text in starting_files(language, kata_dir).items()
    } | tests
    sources = implementation_paths(kata_dir, kata.slug, language, files, tests)
    return Workpiece(kata, language, files, tests, sources, extra, unshown, names)


def implementation_paths(
    kata_dir: Path, slug: str, language: Language, files: dict[str, bytes], tests: dict[str, bytes]
) -> list[str]:
    """The files the implementation goes in, as the loop names them to its implementer
    (small models need the path spelled out): a stub set aside's (the outline kata.md shows:
    asked for `kata.go` with `bowling.go` outlined, a model is told two names for one file),
    else those the tests import, or, for a kata of data only, those the judge's setup
    imports (laid where a test of the kata would lie)."""
    outline = kata_dir / "outline" / language.name
    outlined = sorted(p.relative_to(outline).as_posix() for p in outline.rglob("*") if p.is_file())
    if code := [p for p in outlined if p.endswith(language.source_suffixes)
                and not language.is_test_path(p)]:  # fmt: skip
        return code
    if not tests and has_calls(kata_dir, language.name):
        setup = load_suite(kata_dir).calls_for(language.name).setup
        test_path = language.suggest_paths(files, slug)[0]
        return language.suggest_paths({**files, test_path: setup.encode()}, slug)[1]
    return language.suggest_paths(files, slug)[1]


def _rendered_cases(kata_dir: Path, language: Language) -> tuple[str, frozenset[str]]:
    """A kata of data only, its tests written out: each case as the call the judge makes in
    `language` and the value (or error) it expects; and the cases left out for length."""
    if not has_calls(kata_dir, language.name):
        return "", frozenset()
    suite = load_suite(kata_dir)
    calls = suite.calls_for(language.name)
    lines = ["# Tests", "The judge runs each case below and compares what the call returns."]
    if calls.setup:
        lines.append(f"Before any case it runs:\n```\n{calls.setup.strip()}\n```")
    lines.append("Calls, by property: " + "; ".join(f"{k}: `{v}`" for k, v in calls.calls.items()))
    shown, unshown = 0, set[str]()
    for case in suite.cases_for(language.name):
        line = (
            f"- {case.description}: {case.property} with {json.dumps(case.input)} -> "
            f"{json.dumps(case.expected)}"
        )
        if unshown or shown + len(line) > _CASES_CHARS:
            unshown.add(case.id)
            continue
        lines.append(line)
        shown += len(line)
    if unshown:
        lines.append("- ... (more cases of the same properties)")
    return "\n".join(lines), frozenset(unshown)
