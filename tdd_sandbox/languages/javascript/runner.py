"""JavaScript's runner: its gates, the guard around its test command, and what the runner
reports."""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import PurePosixPath
from typing import Any

from tdd_sandbox.languages.base import RunnerDefaults
from tdd_sandbox.languages.findings import file_sections
from tdd_sandbox.languages.javascript.discovery import literal_test_names
from tdd_sandbox.languages.javascript.flavour import (
    JAVASCRIPT_FLAVOUR,
    LINT,
    PRETTIER,
    RESULTS,
    NodeFlavour,
)
from tdd_sandbox.languages.javascript.guard import (
    NODE_SENTINELS,
    runner_module,
    seal_module,
    sentinel_module,
    sentinel_names,
    server_module,
)
from tdd_sandbox.sandbox.base import WORKDIR, ExecResult
from tdd_sandbox.vocabulary.results import Evidence, GateKind, TestOutcome, TestStatus


def _guard(find_tests: str) -> str:
    """The guarded test gate. Its own process is a module of the tool's (`runner_module`),
    which runs each test file in a process under Node's permission model. A sentinel module
    is imported first into every test file's process, where it takes note of the runner's
    and `assert`'s functions before the test file and the code it imports are loaded; a line
    added to each test file registers, after the file's own tests, two sentinel tests named
    after it (one must pass, one must fail), so a process that forges or rigs its results
    must forge or rig theirs too without knowing their names. The test files are sealed: the
    keeper, the reporter in the runner's own process, reads them from the input, and each
    test file's process loads its own from it (`guard.py`). The shell announces each file
    behind the nonce, then hands back the reporter's file."""
    return (
        r"""
n=$1; out=/tmp/tdd-guard-$n
rm -rf "$out" && mkdir -p "$out" || exit 3
printf '%s' "$2" > "$out/sentinels.mjs" && printf '%s' "$3" > "$out/keeper.mjs" \
  && printf '%s' "$4" > "$out/seal.mjs" && printf '%s' "$5" > "$out/main.mjs" || exit 3
"""
        + f"files=$({find_tests})\n"
        + r"""for file in $files; do printf '@@%s file %s\n' "$n" "${file#./}"; done
if [ -z "$files" ]; then printf '\n@@%s end\n' "$n"; exit 0; fi
"""
        + 'node "$out/main.mjs" $files; status=$?\n'
        + f"printf '\\n@@%s report ' \"$n\"; base64 -w0 < {RESULTS}; printf ' end\\n'\n"
        # A file that did not load ran no test, its sentinels included: the run never got to
        # its tests (as with a build failure), and its `<load>` error says why.
        + f"grep -q '\"diagnostic\"' {RESULTS} && status=2\n"
        + r"""printf '@@%s end\n' "$n"
exit $status
"""
    )


_FRAME = re.compile(
    r"^@@(?P<nonce>[0-9a-f]+) (?:file (?P<file>.+)|report (?P<report>\S*) end|end)$"
)


_STATUS = {"passed": TestStatus.PASSED, "failed": TestStatus.FAILED, "skipped": TestStatus.SKIPPED}


def gates_of(flavour: NodeFlavour) -> tuple[tuple[GateKind, str], ...]:
    """Prettier, ESLint, `tsc` and `node --test` over the flavour's files."""
    return (
        (GateKind.FORMAT, flavour.format),
        (GateKind.LINT, LINT),
        (GateKind.TYPECHECK, flavour.typecheck),
        (GateKind.TEST, flavour.test),
    )


class JavaScriptRunner(RunnerDefaults):
    """Prettier, ESLint, `tsc --checkJs` and `node --test` under the guard; results from
    the image's own reporter."""

    flavour: NodeFlavour = JAVASCRIPT_FLAVOUR
    """The language on Node: its files, its flags, its compiler's check."""
    sentinel_reports = NODE_SENTINELS
    results_path: str | None = RESULTS
    collects = (
        "a test('name', ...) or it('name', ...) call with a literal name, inside describe() "
        "blocks or not, in a *.test.js file (outside node_modules)"
    )
    seals_tests = True
    shell_gates: tuple[tuple[GateKind, str], ...] = gates_of(JAVASCRIPT_FLAVOUR)
    source_suffixes: tuple[str, ...] = JAVASCRIPT_FLAVOUR.suffixes

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A subclass that names another flavour (TypeScript's) gets its gates and its
        suffixes from it: declared once, in the flavour."""
        super().__init_subclass__(**kwargs)
        cls.shell_gates = gates_of(cls.flavour)
        cls.source_suffixes = cls.flavour.suffixes

    def format_command(self, path: str) -> tuple[str, ...] | None:
        """Prettier printing the file formatted."""
        if not path.endswith(self.source_suffixes):
            return None
        return ("sh", "-c", f'exec {PRETTIER} --stdin-filepath "$1" < "$1"', "format", path)

    def expected_tests(self, files: Mapping[str, bytes]) -> frozenset[str]:
        """`test`/`it` calls with a literal name, under their `describe` blocks, as
        `<file>::<suite> > <name>`."""
        found: set[str] = set()
        for path, data in files.items():
            parts = PurePosixPath(path).parts
            if not self.flavour.test_file.search(path) or any(
                p == "node_modules" or p.startswith(".") for p in parts[:-1]
            ):
                continue
            text = data.decode("utf-8", "replace")
            found.update(f"{path}::{name}" for name in literal_test_names(text))
        return frozenset(found)

    def test_mistake(self, files: Mapping[str, bytes], outcome: TestOutcome) -> str | None:
        """None: a missing export fails the test file's import, which is how a RED starts."""
        return None

    def lint_faults(self, output: str, tests: Collection[str]) -> list[str]:
        """eslint's findings, listed under each file's path, in a test file."""
        return file_sections(output, tests)

    def guard(self, command: tuple[str, ...], nonce: str) -> tuple[str, ...] | None:
        """The guarded test run (see `_GUARD`); None for other commands and configured ones."""
        flavour = self.flavour
        if command != ("sh", "-c", flavour.test):
            return None
        modules = (
            sentinel_module(nonce), server_module(nonce), seal_module(nonce),
            runner_module(RESULTS, flavour.node_flags),
        )  # fmt: skip
        return ("sh", "-c", _guard(flavour.find_tests), "guard", nonce, *modules)

    def sealed_input(self, files: Mapping[str, bytes], sealed: Sequence[str]) -> bytes | None:
        """The sealed sources by their path in the sandbox, for the keeper: the test files
        the runner runs, each handed once to its own process, and their helpers."""
        tests: dict[str, str] = {}
        helpers: dict[str, str] = {}
        for path in sealed:
            text = files[path].decode("utf-8", "replace")
            where = tests if self.flavour.test_file.search(path) else helpers
            where[f"{WORKDIR}/{path}"] = text
        return json.dumps({"tests": tests, "helpers": helpers}).encode()

    def evidence(self, result: ExecResult, nonce: str) -> Evidence:
        """The files the shell announced, and the reporter's file as the shell read it back
        after the runner exited."""
        passing, failing = sentinel_names(nonce)
        sentinels: dict[str, TestStatus] = {}
        outcomes: dict[str, TestStatus] = {}
        conflicts: list[str] = []
        ended = reported = False
        for line in result.stdout.splitlines():
            frame = _FRAME.match(line.strip())
            if frame is None or frame["nonce"] != nonce:
                continue
            if frame["file"] is not None:
                sentinels[f"{passing} {frame['file']}"] = TestStatus.PASSED
                sentinels[f"{failing} {frame['file']}"] = TestStatus.FAILED
            elif frame["report"] is not None:
                try:
                    report = base64.b64decode(frame["report"], validate=True)
                except (ValueError, binascii.Error):
                    conflicts.append("<report>")
                    continue
                for outcome in self.parse_results(result, report):
                    if outcomes.get(outcome.id, outcome.status) is not outcome.status:
                        conflicts.append(outcome.id)
                    outcomes[outcome.id] = outcome.status
                reported = "<node>" not in outcomes
            else:
                ended = True
        # The channel names a sentinel as the reporter does (`<its module>::<name>`); the
        # cross-check looks it up by its name.
        for test_id in list(outcomes):
            if (key := test_id.rpartition("::")[2]) in sentinels:
                outcomes[key] = outcomes.pop(test_id)
        return Evidence(
            outcomes=outcomes,
            ended=ended and reported,
            sentinels=sentinels,
            conflicts=tuple(conflicts),
        )

    def parse_results(self, result: ExecResult, report: bytes | None) -> list[TestOutcome]:
        """One outcome per line of the reporter's file; a file that failed outside any test
        (an import that does not resolve) is an error; no end line means the run was cut."""
        outcomes: list[TestOutcome] = []
        ended = False
        for entry in _entries(report):
            if entry.get("end") is True:
                ended = True
            elif "diagnostic" in entry:
                where = str(entry.get("file") or "<run>")
                outcomes.append(
                    TestOutcome(f"{where}::<load>", TestStatus.ERROR, str(entry["diagnostic"]))
                )
            elif isinstance(entry.get("path"), list) and entry.get("status") in _STATUS:
                name = " > ".join(str(part) for part in entry["path"])
                test_id = f"{entry.get('file', '')}::{name}"
                outcomes.append(
                    TestOutcome(test_id, _STATUS[entry["status"]], str(entry.get("message", "")))
                )
        if report is not None and not ended:
            outcomes.append(TestOutcome("<node>", TestStatus.ERROR, "the runner did not finish"))
        return outcomes


def _entries(report: bytes | None) -> Iterable[dict[str, Any]]:
    for line in (report or b"").decode("utf-8", "replace").splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if isinstance(entry, dict):
            yield entry
