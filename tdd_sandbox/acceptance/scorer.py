"""Scoring a tree against a kata's hidden suite: the one call, with the pack's driver.

The sandbox holds the implementation files, a driver of the tool's and the cases' inputs;
the expected values stay in this process, which never loads the model's code.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from pathlib import Path

from tdd_sandbox.acceptance.suite import (
    Suite,
    has_calls,
    load_suite,
    missing_suite,
    read_left_out,
)
from tdd_sandbox.acceptance.testfiles import hidden_test_files, run_test_files
from tdd_sandbox.execution.base import Checker
from tdd_sandbox.grading.acceptance import AcceptanceReport, grade
from tdd_sandbox.katas.kata import load_kata
from tdd_sandbox.languages.base import Language
from tdd_sandbox.sandbox.base import ExecResult
from tdd_sandbox.sandbox.snapshot import Snapshot


def run_acceptance(
    checker: Checker,
    language: Language,
    files: Mapping[str, bytes],
    suite: Suite,
    *,
    timeout_s: float | None = None,
) -> AcceptanceReport:
    """Perform every case of `suite` on `files` in a sandbox and grade what came back.

    Raises:
        UsageError: no call mapping for the language.
        SandboxUnavailable: the sandbox failed.
    """
    calls, cases = suite.calls_for(language.name), suite.cases_for(language.name)
    driver = language.driver
    nonce = secrets.token_hex(8)
    prepared = driver.prepare(files, cases, calls, nonce)
    with checker.open(language, Snapshot(prepared.files)) as box:
        result = box.exec(prepared.command, collect=prepared.results, timeout_s=timeout_s)
        data = result.collected
        if data is None:
            data = box.read_file(prepared.results)
    observed, problem = driver.read(data, nonce, cases)
    if not observed and not problem:
        problem = _describe(result)
    return grade(
        cases,
        observed,
        error_types=calls.errors,
        messages=calls.messages,
        none_is_error=calls.none_is_error,
        rounded=calls.rounded,
        hundredths=calls.hundredths,
        unordered=calls.unordered,
        scripts=frozenset(calls.steps),
        transcribed=frozenset(calls.transcripts),
        problem=problem,
    )


def score_kata(
    checker: Checker,
    language: Language,
    files: Mapping[str, bytes],
    kata_dir: Path,
    *,
    timeout_s: float | None = None,
    every_case: bool = False,
) -> AcceptanceReport:
    """The kata's hidden suite for `language` run on `files`: its canonical data where it
    maps them to calls in that language, else its own test files, probed (`timeout_s`: the
    run's limit, when not the sandbox's). The cases the kata's stub passes are left out
    (`read_left_out`), unless `every_case` (a proof, which finds them).

    Raises:
        UsageError: the kata has no suite for the language, or a malformed one.
        SandboxUnavailable: the sandbox failed.
    """
    left_out = frozenset() if every_case else read_left_out(kata_dir, language.name)
    if has_calls(kata_dir, language.name):
        suite = load_suite(kata_dir)
        report = run_acceptance(checker, language, files, suite, timeout_s=timeout_s)
    elif hidden := hidden_test_files(kata_dir, language):
        allow = load_kata(kata_dir / "kata.md").allowed_rules(language.name)
        report = run_test_files(
            checker, language, files, hidden, allow, timeout_s=timeout_s, probe=True
        )
    else:
        raise missing_suite(kata_dir, language.name)
    return report.without(left_out) if left_out else report


def _describe(result: ExecResult) -> str:
    if result.timed_out:
        return f"the cases ran past the sandbox's {result.duration_s:.0f}s limit"
    if result.oom_killed:
        return "the code ran out of memory"
    tail = (result.stderr or result.stdout).strip().splitlines()[-1:] or [""]
    return f"no case ran (exit {result.exit_code}): {tail[0][:300]}"
