"""What a language plug-in provides, and the per-test results every plug-in produces."""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

from tdd_sandbox.grading.ids import matches
from tdd_sandbox.sandbox.base import ExecResult


class GateKind(enum.StrEnum):
    """The gates, in the order they run."""

    FORMAT = "format"
    LINT = "lint"
    TYPECHECK = "typecheck"
    BUILD = "build"
    TEST = "test"


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

    def sentinel_of(self, test_id: str) -> str | None:
        """The sentinel key a reported id stands for, if it is one."""
        for key in self.sentinels:
            if test_id == key or test_id.endswith("::" + key):
                return key
        return None


class Language(Protocol):
    """A language plug-in: one small module in `tdd_sandbox/languages/`."""

    name: str
    """Registry key; also the folder under `images/` holding its Dockerfile."""
    results_path: str | None
    """File the test gate writes machine-readable results to, read after it runs."""
    collects: str
    """What counts as a test, as the runner collects it: told to a tester whose new test
    was not found."""
    prompt_note: str
    """What every prompt says about the language: toolchain, layout, the gates code meets."""
    source_suffixes: tuple[str, ...]
    """How the names of the language's code files end."""
    project_files: tuple[str, ...]
    """Files an Exercism exercise's stub carries beside its code (its manifest)."""

    def gates(self) -> tuple[Gate, ...]:
        """The default gate commands, in running order."""
        ...

    def format_command(self, path: str) -> tuple[str, ...] | None:
        """A command printing `path` formatted to stdout, leaving the file alone (None: the
        language has no formatter, or not for this file)."""
        ...

    def is_test_path(self, path: str) -> bool:
        """Whether `path` (relative, POSIX) holds tests."""
        ...

    def is_runner_config(self, path: str) -> bool:
        """Whether `path` configures how tests are found or run."""
        ...

    def scaffold(self) -> dict[str, str]:
        """The files of an empty kata repo."""
        ...

    def scaffold_under(self, files: Mapping[str, str]) -> dict[str, str]:
        """The scaffold as a kata's own starting `files` (an Exercism stub) are laid over it:
        what of it still fits beside them."""
        ...

    def detect(self, paths: Iterable[str]) -> bool:
        """Whether a repo holding `paths` is in this language."""
        ...

    def expected_tests(self, files: Mapping[str, bytes]) -> frozenset[str]:
        """Test ids found by reading the test files (nothing is run)."""
        ...

    def suggest_paths(self, files: Mapping[str, bytes], slug: str) -> tuple[str, list[str]]:
        """Where the next test and the code under test most likely go: the kata's test file
        and the source files its tests import (small models need the path spelled out)."""
        ...

    def defines_tests(self, path: str, text: str) -> bool:
        """Whether a (non-test) file defines tests: the sign of a test copied into code."""
        ...

    def test_mistake(self, files: Mapping[str, bytes], outcome: TestOutcome) -> str | None:
        """Feedback when a new test fails through its own fault, so that no implementation
        could make it pass (a name its module never imports), else None."""
        ...

    def guard(self, command: tuple[str, ...], nonce: str) -> tuple[str, ...] | None:
        """`command` as it runs under the language's guard (the test command with sentinels
        and an independent results channel keyed by `nonce`; a gate before it may prepare
        that), or None to run it as it is (other gates, configured overrides)."""
        ...

    def evidence(self, result: ExecResult, nonce: str) -> Evidence:
        """What the guard's channel said about a guarded run."""
        ...

    def parse_results(self, result: ExecResult, report: bytes | None) -> list[TestOutcome]:
        """Per-test outcomes from the test gate's output and results file.

        Never raises on malformed input: what cannot be understood becomes an ERROR outcome.
        """
        ...

    def track_test_path(self, path: str) -> str:
        """Where an Exercism track's test file goes in a kata repository."""
        ...

    def hidden_test(self, path: str, data: bytes) -> bytes:
        """A hidden acceptance test file as the judge runs it (every test enabled)."""
        ...

    def readable(self, stdout: str) -> str:
        """What the test command printed, as a person (or the next prompt) reads it: without
        the guard's frames or a machine format the runner was asked for."""
        ...


class Defaults(ABC):
    """What most plug-ins share: inherit it and override what differs (as pre-commit's
    `lang_base` does), so a language module holds only its own facts."""

    results_path: str | None = None
    project_files: tuple[str, ...] = ()
    shell_gates: tuple[tuple[GateKind, str], ...] = ()
    """The gates as (kind, shell script) pairs, in running order, for `gates()`."""

    def gates(self) -> tuple[Gate, ...]:
        """Each of `shell_gates`, run by `sh -c`."""
        return tuple(Gate(kind, ("sh", "-c", script)) for kind, script in self.shell_gates)

    @abstractmethod
    def scaffold(self) -> dict[str, str]:
        """The files of an empty kata repo."""

    def scaffold_under(self, files: Mapping[str, str]) -> dict[str, str]:
        """All of the scaffold: a kata's files replace only the ones they name."""
        del files  # every file of the scaffold fits beside any kata's
        return self.scaffold()

    def track_test_path(self, path: str) -> str:
        """A track's test file goes where the track has it."""
        return path

    def hidden_test(self, path: str, data: bytes) -> bytes:
        """A hidden test file runs as it is written."""
        return data

    def readable(self, stdout: str) -> str:
        """The output without the guard's frames (`@@<nonce> ...` lines, for the judge)."""
        return "\n".join(line for line in stdout.split("\n") if not line.startswith("@@"))


NOT_RUN = "expected test did not run"


def reconcile(outcomes: list[TestOutcome], expected: Iterable[str]) -> list[TestOutcome]:
    """Add an ERROR outcome for each expected test that did not report.

    An expected id is met by an outcome with the same id or a parametrised variant of it
    (`id[...]`): a test that silently did not run must never count as a pass.
    """
    reported = {outcome.id for outcome in outcomes}
    missing = [
        test_id for test_id in sorted(expected) if not any(matches(r, test_id) for r in reported)
    ]
    return outcomes + [TestOutcome(test_id, TestStatus.ERROR, NOT_RUN) for test_id in missing]
