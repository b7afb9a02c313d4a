"""The test gate of a tree, run as the loop runs it (guard, sentinels and all), for tests that
judge what a language's runner reports."""

from __future__ import annotations

from collections.abc import Mapping

from tdd_sandbox.execution.docker_checker import DockerChecker
from tdd_sandbox.execution.steps import run_gates
from tdd_sandbox.grading.gates import GateResult
from tdd_sandbox.languages.base import Language
from tdd_sandbox.sandbox.snapshot import Snapshot
from tdd_sandbox.vocabulary.results import GateKind
from tests.helpers.repos import encode


def run_test_gate(
    checker: DockerChecker, language: Language, files: Mapping[str, str]
) -> GateResult:
    """`files` (the whole tree) through `language`'s test gate in one of `checker`'s sandboxes."""
    snapshot = encode(dict(files))
    with checker.open(language, Snapshot(snapshot)) as box:
        report = run_gates(box, language, snapshot, only=frozenset({GateKind.TEST}))
    gate = report.gate(GateKind.TEST)
    assert gate is not None
    return gate
