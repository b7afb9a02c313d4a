"""Reading what pytest reported: its JUnit XML, and the statuses of the guard's own stream."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from tdd_sandbox.vocabulary.results import TestOutcome, TestStatus

STREAM_STATUS = {
    "passed": TestStatus.PASSED,
    "failed": TestStatus.FAILED,
    "skipped": TestStatus.SKIPPED,
    "setup-skipped": TestStatus.SKIPPED,
}


def outcome_of(case: ET.Element) -> TestOutcome:
    """One `<testcase>` as an outcome, its id `<file>::<class>::<name>` as pytest names it."""
    name = case.get("name", "?")
    classname = case.get("classname", "")
    file = case.get("file")
    if file:
        module = file.removesuffix(".py").replace("/", ".")
        inner = classname.removeprefix(module).strip(".")
        test_id = "::".join(part for part in (file, *inner.split("."), name) if part)
    else:
        test_id = name if not classname else f"{classname}::{name}"
    for tag, status in (
        ("error", TestStatus.ERROR),
        ("failure", TestStatus.FAILED),
        ("skipped", TestStatus.SKIPPED),
    ):
        child = case.find(tag)
        if child is not None:
            text = (child.text or "").strip()
            message = child.get("message") or text
            if message == "collection failure":
                message += _raised(text)
            return TestOutcome(test_id, status, message[:500])
    return TestOutcome(test_id, TestStatus.PASSED)


def _raised(traceback: str) -> str:
    """The error a collection failure's traceback ends in (`E   NameError: ...`), as ": ..."
    (empty when there is none): "collection failure" alone tells a model nothing to fix."""
    errors = [line[1:].strip() for line in traceback.splitlines() if line.startswith("E ")]
    return f": {errors[-1]}" if errors and errors[-1] else ""
