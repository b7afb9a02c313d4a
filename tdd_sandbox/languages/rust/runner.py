"""Rust's runner: its gates, the guard around its test command, and what the runner
reports."""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Collection, Iterable, Mapping
from pathlib import PurePosixPath

from tdd_sandbox.languages.base import RunnerDefaults
from tdd_sandbox.languages.findings import rust_blocks
from tdd_sandbox.languages.rust.cfg import compiled, default_features
from tdd_sandbox.languages.rust.guard import (
    CARGO_SENTINELS,
    GUARD,
    GUARDED_BUILD,
    GUARDED_LINT,
    sentinel_names,
    sentinel_tests,
)
from tdd_sandbox.languages.rust.reader import newer_rust
from tdd_sandbox.sandbox.base import ExecResult
from tdd_sandbox.vocabulary.results import Evidence, Gate, GateKind, TestOutcome, TestStatus

_FRAME = re.compile(r"^@@(?P<nonce>[0-9a-f]+) (?:log (?P<src>\S+) (?P<data>\S*) end|end)$")


_LOG_STATUS = {"ok": TestStatus.PASSED, "failed": TestStatus.FAILED, "ignored": TestStatus.SKIPPED}


_CARGO = "cargo --offline --color=never"


# `Running` lines go to stderr and test lines to stdout: merged, their order tells which
# test binary each result belongs to.
_TEST = f"{_CARGO} test --no-fail-fast 2>&1"


_BUILD = f"{_CARGO} build --all-targets"


_LINT = f"{_CARGO} clippy --all-targets -- -D warnings"


_RUNNING = re.compile(r"^\s*Running (?:unittests )?(\S+)")


_RESULT = re.compile(r"^test (.+?)(?: - should panic)? \.\.\. (ok|FAILED|ignored)\b")


_SUMMARY = re.compile(r"^test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored")


# An item's outer attributes come with it: `#[cfg(...)]` may leave it out of the build.
_TEST_FN = re.compile(r"((?:#\[[^\]]*\]\s*)+)(?:pub\s+)?(?:async\s+)?fn\s+(\w+)")
_IS_TEST = re.compile(r"#\[\s*test\s*\]")


_MOD_OPEN = re.compile(r"((?:#\[[^\]]*\]\s*)*)\bmod\s+(\w+)\s*\{")


class RustRunner(RunnerDefaults):
    """cargo fmt, clippy, build and test under the guard; results read from libtest's
    output."""

    seals_tests = True
    readers_apart = frozenset({GateKind.LINT})  # clippy compiles the crate as the build does
    sentinel_reports = CARGO_SENTINELS
    collects = "a #[test] fn in a file directly under tests/ (tests/<name>.rs), in any module"

    def gates(self) -> tuple[Gate, ...]:
        """cargo fmt, clippy (warnings are errors), build with tests, test."""
        return (
            Gate(GateKind.FORMAT, ("cargo", "fmt", "--check")),
            Gate(GateKind.LINT, ("sh", "-c", _LINT)),
            Gate(GateKind.BUILD, ("sh", "-c", _BUILD)),
            Gate(GateKind.TEST, ("sh", "-c", _TEST)),
        )

    def format_command(self, path: str) -> tuple[str, ...] | None:
        """rustfmt over stdin (one file, not the modules it declares), in the scaffold's edition."""
        if not path.endswith(".rs"):
            return None
        return ("sh", "-c", 'exec rustfmt --edition 2021 --quiet < "$1"', "format", path)

    def expected_tests(self, files: Mapping[str, bytes]) -> frozenset[str]:
        """`#[test]` functions in `tests/*.rs` that `cargo test` compiles (with the crate's
        default features), as `<binary>::<module path>::<name>`."""
        features = default_features(files)
        found: set[str] = set()
        for path, data in files.items():
            pure = PurePosixPath(path)
            if len(pure.parts) != 2 or pure.parts[0] != "tests" or pure.suffix != ".rs":
                continue
            text = data.decode("utf-8", "replace")
            found.update(f"{pure.stem}::{name}" for name in _test_names(text, features))
        return frozenset(found)

    def test_mistake(self, files: Mapping[str, bytes], outcome: TestOutcome) -> str | None:
        """None: a missing `use` is a compile error, which is how every Rust RED starts."""
        return None

    def lint_faults(self, output: str, tests: Collection[str]) -> list[str]:
        """clippy's lints in a test file; a compile error (it has a code) is not one."""
        return rust_blocks(output, tests)

    def guard(self, command: tuple[str, ...], nonce: str) -> tuple[str, ...] | None:
        """The guarded test run (see `GUARD`), and the lint and build of the same guarded copy
        of the crate (so the test gate reuses it); None for other commands and configured
        ones."""
        scripts: dict[tuple[str, ...], str] = {
            ("sh", "-c", _TEST): GUARD,
            ("sh", "-c", _BUILD): GUARDED_BUILD,
            ("sh", "-c", _LINT): GUARDED_LINT,
        }
        script = scripts.get(command)
        if script is None:
            return None
        return ("sh", "-c", script, "guard", nonce, sentinel_tests(nonce))

    def evidence(self, result: ExecResult, nonce: str) -> Evidence:
        """Each binary's log file, as the shell framed it."""
        outcomes: dict[str, TestStatus] = {}
        sentinels: dict[str, TestStatus] = {}
        seen: set[str] = set()
        conflicts: list[str] = []
        ended = False
        passing, failing = sentinel_names(nonce)
        for line in result.stdout.splitlines():
            frame = _FRAME.match(line.strip())
            if frame is None or frame["nonce"] != nonce:
                continue
            if frame["src"] is None:
                ended = True
                continue
            binary = _binary_name(frame["src"])
            if binary in seen:
                conflicts.append(binary)
            seen.add(binary)
            if frame["src"].startswith("tests/"):
                sentinels[f"{binary}::{passing}"] = TestStatus.PASSED
                sentinels[f"{binary}::{failing}"] = TestStatus.FAILED
            try:
                log = base64.b64decode(frame["data"], validate=True).decode("utf-8", "replace")
            except (ValueError, binascii.Error):
                conflicts.append(binary)
                continue
            for entry in log.splitlines():
                word, _, name = entry.partition(" ")
                if word in _LOG_STATUS and name:
                    outcomes[f"{binary}::{name}"] = _LOG_STATUS[word]
        return Evidence(
            outcomes=outcomes,
            ended=ended,
            sentinels=sentinels,
            failing_exit=101,
            conflicts=tuple(conflicts),
        )

    def toolchain_note(self, output: str) -> str:
        """A feature rustc calls unstable: stable only in a newer Rust (`reader.newer_rust`)."""
        return newer_rust(output)

    def parse_results(self, result: ExecResult, report: bytes | None) -> list[TestOutcome]:
        """Outcomes from libtest's lines, each prefixed by its binary; checked against the
        per-binary summaries so that a line printed by a test itself cannot add a pass."""
        outcomes: list[TestOutcome] = []
        binary = "?"
        counted = {TestStatus.PASSED: 0, TestStatus.FAILED: 0, TestStatus.SKIPPED: 0}
        summed = dict.fromkeys(counted, 0)
        for line in result.stdout.splitlines():
            if running := _RUNNING.match(line):
                binary = _binary_name(running.group(1))
            elif line.strip().startswith("Doc-tests"):
                binary = "doc"
            elif test := _RESULT.match(line):
                status = {
                    "ok": TestStatus.PASSED,
                    "FAILED": TestStatus.FAILED,
                    "ignored": TestStatus.SKIPPED,
                }[test.group(2)]
                counted[status] += 1
                outcomes.append(TestOutcome(f"{binary}::{test.group(1)}", status))
            elif summary := _SUMMARY.match(line):
                for status, value in zip(counted, summary.groups(), strict=True):
                    summed[status] += int(value)
        if counted != summed:
            outcomes.append(
                TestOutcome(
                    "<libtest>",
                    TestStatus.ERROR,
                    f"test lines {dict(counted)} disagree with the summaries {dict(summed)}",
                )
            )
        return outcomes


def _binary_name(source: str) -> str:
    # `tests/fizz.rs (target/...)` -> fizz; `src/lib.rs` -> lib; old cargo prints the
    # binary path `target/debug/deps/fizz-0123abcd` instead.
    stem = PurePosixPath(source.strip("()")).stem
    return re.sub(r"-[0-9a-f]{16}$", "", stem)


def _test_names(text: str, features: frozenset[str]) -> Iterable[str]:
    """Test function names with their inline module path, from a brace-depth scan; an item
    `#[cfg]` leaves out of the build with `features` (`cfg.py`) defines none."""
    text = re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.DOTALL)
    modules: list[tuple[str, int, bool]] = []  # name, depth, compiled
    depth = 0
    position = 0
    events = sorted(
        [(m.end(1), "mod", m.group(2), m.group(1)) for m in _MOD_OPEN.finditer(text)]
        + [
            (m.end(1), "test", m.group(2), m.group(1))
            for m in _TEST_FN.finditer(text)
            if _IS_TEST.search(m.group(1))
        ]
    )
    for start, kind, name, attributes in events:
        for char in text[position:start]:
            if char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
                while modules and modules[-1][1] > depth:
                    modules.pop()
        position = start
        built = compiled(attributes, features) and all(m[2] for m in modules)
        if kind == "mod":
            modules.append((name, depth + 1, built))
        elif built:
            yield "::".join([*(m for m, _, _ in modules), name])
