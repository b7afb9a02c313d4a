"""Catch2, as the C++ pack runs it for tests written for it (Exercism's C++ track): its test
cases' names read from the source, its Automake lines (the guard's second channel), its XML
report and its sentinels."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from tdd_sandbox.vocabulary.results import Evidence, TestOutcome, TestStatus

KIND = "catch2"
"""The name the build gives the runner it chose, in its end line."""
AUTOMAKE = re.compile(r"^:test-result: (PASS|FAIL|XFAIL|XPASS|SKIP|ERROR) (.+)$")
# Catch2's test cases: the name is the first argument, a string literal (or several, which the
# compiler joins); a SCENARIO's name is prefixed as Catch2 prefixes it.
_CATCH_CASE = re.compile(
    r"(?<![\w])(?:(TEST_CASE|SCENARIO)\s*\(|TEST_CASE_METHOD\s*\(\s*[\w:]+\s*,)"
)
_LITERAL = re.compile(r'\s*"((?:\\.|[^"\\\n])*)"')
_ESCAPE = re.compile(r"\\(.)")
_ESCAPED = {"n": "\n", "t": "\t"}


def case_names(text: str, code: str) -> list[str]:
    """The names of Catch2's test cases in `text` (`code` is it blanked, offset for offset)."""
    names = []
    for match in _CATCH_CASE.finditer(code):
        position, parts = match.end(), []
        while literal := _LITERAL.match(text, position):
            parts.append(_ESCAPE.sub(lambda m: _ESCAPED.get(m[1], m[1]), literal[1]))
            position = literal.end()
        if parts:
            prefix = "Scenario: " if match.group(1) == "SCENARIO" else ""
            names.append(prefix + "".join(parts))
    return names


def evidence(lines: list[str], nonce: str) -> Evidence:
    """Catch2's Automake lines, one per test case as it ends, and the shell's end line.
    Catch2 exits 42 when a test failed."""
    outcomes: dict[str, TestStatus] = {}
    conflicts: list[str] = []
    ended = False
    for line in lines:
        if line.startswith(f"@@{nonce} end"):
            ended = bool(outcomes)
        elif match := AUTOMAKE.match(line.rstrip("\r")):
            status = {"PASS": TestStatus.PASSED, "SKIP": TestStatus.SKIPPED}.get(
                match[1], TestStatus.FAILED
            )
            if outcomes.get(match[2], status) is not status:
                conflicts.append(match[2])
            outcomes[match[2]] = status
    passing, failing = sentinel_names(nonce)
    return Evidence(
        outcomes=outcomes,
        ended=ended,
        sentinels={passing: TestStatus.PASSED, failing: TestStatus.FAILED},
        failing_exit=42,
        conflicts=tuple(conflicts),
    )


def outcome(case: ET.Element) -> TestOutcome:
    """One `<TestCase>` of Catch2's XML report: its overall result, and what failed."""
    name = case.get("name", "")
    overall = case.find("OverallResult")
    if overall is None:
        return TestOutcome(name, TestStatus.ERROR, "the report ends inside this test case")
    if overall.get("skips", "0") != "0":
        return TestOutcome(name, TestStatus.SKIPPED)
    if overall.get("success") == "true":
        return TestOutcome(name, TestStatus.PASSED)
    problems = []
    for element in case.iter():
        if element.tag == "Expression" and element.get("success") == "false":
            original, expanded = element.findtext("Original"), element.findtext("Expanded")
            problems.append(f"{element.get('type')}( {(original or '').strip()} ) with "
                            f"{(expanded or '').strip()}")  # fmt: skip
        elif element.tag in ("Exception", "FatalErrorCondition", "Failure"):
            problems.append(f"{element.tag}: {(element.text or '').strip()}")
    return TestOutcome(name, TestStatus.FAILED, "\n".join(problems)[:2000])


def sentinel_names(nonce: str) -> tuple[str, str]:
    """The passing and the failing sentinel test cases' names for `nonce`."""
    return f"TddCheck P{nonce[:6]}", f"TddCheck F{nonce[6:12]}"


def sentinels(nonce: str) -> str:
    """The sentinel test cases in Catch2's words: one must pass, one must fail."""
    passing, failing = sentinel_names(nonce)
    a, b = int(nonce[:4], 16), int(nonce[4:8], 16)
    return (
        "\n#include <catch2/catch.hpp>\n\n"
        f'TEST_CASE("{passing}") {{ REQUIRE({a} + {b} == {a + b}); }}\n'
        f'TEST_CASE("{failing}") {{ REQUIRE({a}LL * {b} == {a * b + 1}LL); }}\n'
    )
