"""Hidden acceptance suites: `katas/<slug>/acceptance/<language>/`, never shown to agents.

At the end of a job the suite is copied into the final state of main, in the sandbox only,
and the score is acceptance tests passed over acceptance tests defined.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from tdd_sandbox.errors import UsageError
from tdd_sandbox.gates import run_gates
from tdd_sandbox.languages.base import GateKind, Language, TestStatus
from tdd_sandbox.runtime import Runtime
from tdd_sandbox.sandbox.snapshot import Snapshot

# Where each language's suite lands in the repo: a name no kata test is likely to use.
TARGET = {"python": "tests/test_tdd_acceptance{n}.py", "rust": "tests/tdd_acceptance{n}.rs"}


@dataclass(frozen=True)
class Score:
    """An acceptance result."""

    passed: int
    total: int

    @property
    def rate(self) -> float:
        """Passed over total (0 when there is nothing to pass)."""
        return self.passed / self.total if self.total else 0.0


def acceptance_files(kata_dir: Path, language: Language) -> dict[str, bytes]:
    """The suite's files as they go into the repo.

    Raises:
        UsageError: the kata has no suite for the language.
    """
    folder = kata_dir / "acceptance" / language.name
    sources = sorted(p for p in folder.glob("*") if p.is_file()) if folder.is_dir() else []
    if not sources or language.name not in TARGET:
        raise UsageError(
            f"{kata_dir.name} has no acceptance suite for {language.name}: "
            f"add {folder}/ with the hidden tests"
        )
    return {
        TARGET[language.name].format(n="" if i == 0 else f"_{i}"): path.read_bytes()
        for i, path in enumerate(sources)
    }


def score_files(
    runtime: Runtime, language: Language, files: Mapping[str, bytes], suite: Mapping[str, bytes]
) -> Score:
    """Run the suite against `files` in the sandbox (the test gate only)."""
    combined = {**files, **suite}
    expected = language.expected_tests(suite)
    with runtime.open(language, Snapshot(combined)) as box:
        report = run_gates(box, language, combined, only=frozenset({GateKind.TEST}))
    gate = report.gate(GateKind.TEST)
    outcomes = gate.tests if gate is not None else ()
    passed = sum(
        1
        for test_id in expected
        if (matching := [o for o in outcomes if o.id == test_id or o.id.startswith(test_id + "[")])
        and all(o.status is TestStatus.PASSED for o in matching)
    )
    return Score(passed, len(expected))
