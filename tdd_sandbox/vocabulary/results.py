"""What a gate run produces, in every language: the gates, each test's outcome, and the
evidence a language's guard gathered beside the runner's own report."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass


class GateKind(enum.StrEnum):
    """The gates, in the order they run."""

    POLICY = "policy"
    """No command: the judge's reading of the code before anything runs (its static policy,
    no tests in code files), shown as a gate where a whole tree is judged (`gates`)."""
    FORMAT = "format"
    LINT = "lint"
    TYPECHECK = "typecheck"
    BUILD = "build"
    TEST = "test"
    PROBE = "probe"
    """No command of the pack's: the tests once more, in a sandbox of their own, with their
    expected values changed (`grading.probe`), shown as a gate where a whole tree is judged
    (`gates`); the loop runs its own probe of each step."""


@dataclass(frozen=True)
class Gate:
    """One check: a command run in the sandbox on the repo snapshot."""

    kind: GateKind
    command: tuple[str, ...]


class TestStatus(enum.StrEnum):
    """The outcome of one test."""

    __test__ = False  # not a pytest test class, despite the name

    PASSED = "passed"
    FAILED = "failed"
    SKIPPED = "skipped"
    ERROR = "error"


@dataclass(frozen=True)
class TestOutcome:
    """One test's result. `id` is stable across runs: `<file>::<name>` style."""

    __test__ = False  # not a pytest test class, despite the name

    id: str
    status: TestStatus
    message: str = ""


@dataclass(frozen=True)
class Evidence:
    """What a language's guard saw of a test run through its own channel (the grading
    package cross-checks it against the runner's report)."""

    outcomes: Mapping[str, TestStatus]
    """By test id, as the channel saw each test end."""
    ended: bool
    """The runner reached its end (nothing cut the run short)."""
    sentinels: Mapping[str, TestStatus]
    """Sentinel id (or bare name) -> the status it must end with."""
    failing_exit: int = 1
    """The exit code the runner gives when a test failed (pytest 1, libtest 101)."""
    changed: tuple[str, ...] = ()
    """Runner internals that were different after the run."""
    foreign: tuple[str, ...] = ()
    """Hook implementations registered by anything but the runner and the guard."""
    conflicts: tuple[str, ...] = ()
    """Parts of the channel that arrived twice, differently."""
    cut: tuple[str, ...] = ()
    """Runner processes that exited before their runner's end with a code of the code's
    choosing, where the guard runs several (Go's test binaries)."""

    def sentinel_of(self, test_id: str) -> str | None:
        """The sentinel key a reported id stands for, if it is one."""
        for key in self.sentinels:
            if test_id == key or test_id.endswith("::" + key):
                return key
        return None


NOT_RUN = "expected test did not run"
"""The message of an expected test that never reported (see `grading.reconcile`)."""
