"""Formatting the files a model wrote, in the sandbox, before they are judged.

Small models rarely emit code exactly as `ruff format` or `rustfmt` would, and a layout
difference says nothing about whether a test is red or an implementation green. So when the
format gate fails, the harness formats the files the attempt changed with the language's own
formatter, inside the same sandbox (the formatter reads untrusted code; the host never runs
it), and judges the formatted files from scratch. What the formatter cannot handle (a syntax
error, a timeout, output past the cap) stays as written and fails on its own merits.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from tdd_sandbox.grading.gates import GateReport
from tdd_sandbox.languages.parts import Runner
from tdd_sandbox.sandbox.base import Sandbox
from tdd_sandbox.vocabulary.results import GateKind

FORMAT_TIMEOUT_S = 30.0


def needs_formatting(report: GateReport) -> bool:
    """Whether the format gate ran and failed."""
    gate = report.gate(GateKind.FORMAT)
    return gate is not None and not gate.passed


def changed_paths(before: Mapping[str, bytes], after: Mapping[str, bytes]) -> list[str]:
    """Paths whose content differs (or is new) in `after`."""
    return sorted(path for path, data in after.items() if before.get(path) != data)


def format_files(
    sandbox: Sandbox, language: Runner, files: Mapping[str, bytes], paths: Iterable[str]
) -> dict[str, bytes]:
    """`files` with each of `paths` replaced by the formatter's output where it succeeded.

    Raises:
        SandboxUnavailable: the sandbox cannot run commands.
    """
    formatted = dict(files)
    paths = list(paths)
    for path in paths:
        command = language.format_command(path)
        if command is None:
            continue
        result = sandbox.exec(command, timeout_s=FORMAT_TIMEOUT_S)
        if not result.ok or result.output_truncated:
            continue
        text = result.stdout
        if not text.strip() and files[path].strip():
            continue  # an empty answer for a non-empty file is a failure, not a format
        formatted[path] = text.encode("utf-8")
    return formatted
