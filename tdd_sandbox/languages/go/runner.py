"""Go's runner: its gates, the guard around its test command, and what the runner
reports."""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable, Mapping
from pathlib import PurePosixPath
from typing import Any

from tdd_sandbox.languages.base import RunnerDefaults
from tdd_sandbox.languages.findings import at_line_start
from tdd_sandbox.languages.go.constraints import builds
from tdd_sandbox.languages.go.guard import (
    GUARD,
    GUARDED_BUILD,
    SENTINEL,
    WARM,
    sentinel_names,
    sentinel_tests,
)
from tdd_sandbox.languages.go.reader import GO_LEXEMES, module_path
from tdd_sandbox.languages.lexing import blank
from tdd_sandbox.sandbox.base import ExecResult
from tdd_sandbox.vocabulary.results import Evidence, GateKind, TestOutcome, TestStatus

_FORMAT = (
    'out=$(gofmt -l .) || exit 2\n[ -z "$out" ] && exit 0\n'
    'printf "not formatted as gofmt would:\\n%s\\n" "$out"\nexit 1\n'
)


_LINT = WARM + "exec go vet ./...\n"


_BUILD = WARM + "exec go build -o /dev/null ./...\n"


# `-vet=off`: the lint gate ran the whole of vet already.
_TEST = WARM + "exec go test -json -count=1 -vet=off ./...\n"


_FRAME = re.compile(
    r"^@@(?P<nonce>[0-9a-f]+) (?:package (?P<package>\S+)|cut (?P<cut>\S+ \d+)|end)$"
)


_ACTIONS = {"pass": TestStatus.PASSED, "fail": TestStatus.FAILED, "skip": TestStatus.SKIPPED}


# `TestXxx(t *testing.T)` where Xxx does not start with a lower-case letter, as go test has it
# (an aliased or dot import of "testing" still counts).
_TEST_FUNC = re.compile(
    r"^func\s+(Test(?![a-z])\w*)\s*\(\s*\w+\s+\*\s*(?:\w+\s*\.\s*)?T\s*\)", re.MULTILINE
)


_IGNORED_DIR = re.compile(r"^[._]|^(testdata|vendor)$")


_MESSAGE_LINES = 20


class GoRunner(RunnerDefaults):
    """gofmt, go vet, go build and `go test -json` under the guard; results read from the
    go command's events."""

    seals_tests = True
    collects = (
        "a func TestXxx(t *testing.T) in a *_test.go file (Xxx not starting with a lower-case "
        "letter), outside testdata/, vendor/ and folders starting with . or _"
    )
    # gofmt (no file may change), go vet, go build, go test.
    shell_gates: tuple[tuple[GateKind, str], ...] = (
        (GateKind.FORMAT, _FORMAT),
        (GateKind.LINT, _LINT),
        (GateKind.BUILD, _BUILD),
        (GateKind.TEST, _TEST),
    )

    def format_command(self, path: str) -> tuple[str, ...] | None:
        """gofmt printing the formatted file."""
        return ("gofmt", path) if path.endswith(".go") else None

    def sealed_tests(self, paths: Iterable[str]) -> list[str]:
        """The `*_test.go` files: the build compiled them (a `testdata/` file is data)."""
        return [p for p in super().sealed_tests(paths) if p.endswith("_test.go")]

    def expected_tests(self, files: Mapping[str, bytes]) -> frozenset[str]:
        """Test functions of every `*_test.go` that `./...` reaches and the go command builds
        (its `//go:build` line and name's suffix: `constraints.py`), as
        `<import path>::<name>`."""
        module = module_path(files)
        found: set[str] = set()
        for path, data in files.items():
            pure = PurePosixPath(path)
            if not path.endswith("_test.go") or any(
                _IGNORED_DIR.search(part) for part in pure.parts[:-1]
            ):
                continue
            text = data.decode("utf-8", "replace")
            if not builds(path, text):
                continue
            package = "/".join([module, *pure.parts[:-1]])
            code = blank(text, GO_LEXEMES)
            found.update(f"{package}::{name}" for name in _TEST_FUNC.findall(code))
        return frozenset(found)

    def test_mistake(self, files: Mapping[str, bytes], outcome: TestOutcome) -> str | None:
        """None: an undefined name is a build failure, which is how every Go RED starts."""
        return None

    def lint_faults(self, output: str, tests: Collection[str]) -> list[str]:
        """go vet's findings in a test file; a type error (`vet: ` before it: an undefined
        name) is how a RED starts, not one."""
        return at_line_start(output, tests, skip="vet: ")

    def guard(self, command: tuple[str, ...], nonce: str) -> tuple[str, ...] | None:
        """The guarded build and test run (see `GUARD`); None for other commands and configured
        ones."""
        scripts: dict[tuple[str, ...], str] = {
            ("sh", "-c", _TEST): GUARD,
            ("sh", "-c", _BUILD): GUARDED_BUILD,
        }
        script = scripts.get(command)
        if script is None:
            return None
        return ("sh", "-c", script, "guard", nonce, sentinel_tests(nonce))

    def evidence(self, result: ExecResult, nonce: str) -> Evidence:
        """The packages the shell announced, and each test's end as the go command saw it."""
        passing, failing = sentinel_names(nonce)
        sentinels: dict[str, TestStatus] = {}
        cut: list[str] = []
        ended = False
        for line in result.stdout.splitlines():
            frame = _FRAME.match(line.strip())
            if frame is None or frame["nonce"] != nonce:
                continue
            if frame["cut"] is not None:
                path, _, code = frame["cut"].partition(" ")
                cut.append(f"the test binary of {path} exited {code}")
            elif frame["package"] is None:
                ended = True
            else:
                sentinels[f"{frame['package']}::{passing}"] = TestStatus.PASSED
                sentinels[f"{frame['package']}::{failing}"] = TestStatus.FAILED
        events = list(_events(result.stdout))
        outcomes: dict[str, TestStatus] = {}
        conflicts: list[str] = []
        finished = {e.get("Package") for e in events if "Test" not in e and e["Action"] in _ACTIONS}
        for event in events:
            if "Test" in event and event["Action"] in _ACTIONS:
                test_id = f"{event.get('Package')}::{event['Test']}"
                status = _ACTIONS[event["Action"]]
                if outcomes.get(test_id, status) is not status:
                    conflicts.append(test_id)
                outcomes[test_id] = status
        announced = {key.partition("::")[0] for key in sentinels}
        built = not any(e["Action"] == "build-fail" for e in events)
        return Evidence(
            outcomes=outcomes,
            ended=ended and built and announced <= finished,
            sentinels=sentinels,
            conflicts=tuple(conflicts),
            cut=tuple(cut),
        )

    def parse_results(self, result: ExecResult, report: bytes | None) -> list[TestOutcome]:
        """One outcome per test end in the go command's events (subtests by their full name,
        `TestX/case`), and an error per package that failed to build or died outside a test."""
        outcomes: list[TestOutcome] = []
        output: dict[tuple[str, str], list[str]] = {}
        tested: set[str] = set()
        built: set[str] = set()  # packages whose build failed: already one error each
        for event in _events(result.stdout):
            action, package = event["Action"], str(event.get("Package", ""))
            test = str(event.get("Test", ""))
            if action == "output":
                output.setdefault((package, test), []).append(str(event.get("Output", "")))
            elif action in _ACTIONS and test:
                tested.add(package)
                lines = output.get((package, test), []) if action == "fail" else []
                message = "".join(lines[-_MESSAGE_LINES:]).strip()
                outcomes.append(TestOutcome(f"{package}::{test}", _ACTIONS[action], message))
            elif action == "build-output":
                key = (_import_path(event), "<build>")
                output.setdefault(key, []).append(str(event.get("Output", "")))
            elif action == "build-fail":
                path = _import_path(event)
                message = "".join(output.get((path, "<build>"), [])[-_MESSAGE_LINES:]).strip()
                built.add(path)
                outcomes.append(TestOutcome(f"{path}::<build>", TestStatus.ERROR, message))
            elif action == "fail" and not test and package not in tested | built:
                # The binary failed with no test ending: it crashed in init or in TestMain.
                message = "".join(output.get((package, ""), [])[-_MESSAGE_LINES:]).strip()
                outcomes.append(TestOutcome(f"{package}::<package>", TestStatus.ERROR, message))
        return outcomes

    def readable(self, stdout: str) -> str:
        """The text `go test` would have printed: the events' output, in order, less the
        guard's sentinel tests (they run first, and a failing test nobody wrote misleads)."""
        return "".join(
            str(event.get("Output", ""))
            for event in _events(stdout)
            if event["Action"] in ("output", "build-output")
            and not SENTINEL.fullmatch(str(event.get("Test", "")))
        )


def _import_path(event: dict[str, Any]) -> str:
    """`kata/x` from a build event's `kata/x [kata/x.test]`."""
    return str(event.get("ImportPath", "")).split(" ", 1)[0]


def _events(stdout: str) -> Iterable[dict[str, Any]]:
    """The go command's JSON events, one per line; anything else is skipped."""
    for line in stdout.splitlines():
        if not line.startswith("{"):
            continue
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict) and isinstance(event.get("Action"), str):
            yield event
