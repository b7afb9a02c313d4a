"""Objects driven by a script of operations (`scripting`), scored in a real sandbox: the
driver replays each case's operations given only their names and arguments, and the host
judges every step. The attacks: a buffer that never fails, or that always does, passes a
judge of the answers' values alone; and what a step should answer never reaches the box."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tdd_sandbox.acceptance.scorer import run_acceptance
from tdd_sandbox.acceptance.suite import Suite, load_suite
from tdd_sandbox.execution.docker_checker import DockerChecker
from tdd_sandbox.grading.acceptance import CaseStatus, flatten_cases
from tdd_sandbox.languages import get_language
from tdd_sandbox.settings import load_settings

pytestmark = [pytest.mark.docker, pytest.mark.usefixtures("images")]

JAVA = get_language("java")
STUB = b"""\
class BufferIOException extends Exception {
    BufferIOException(String message) {
        super(message);
    }
}

class Buffer<T> {
    Buffer(final int size) {
        throw new UnsupportedOperationException();
    }

    T read() throws BufferIOException {
        throw new UnsupportedOperationException();
    }

    void write(T data) throws BufferIOException {
        throw new UnsupportedOperationException();
    }

    synchronized void add(int amount) {
        throw new UnsupportedOperationException();
    }

    synchronized int getTotal() {
        throw new UnsupportedOperationException();
    }
}
"""
HONEST = """\
import java.util.ArrayDeque;

class BufferIOException extends Exception {
    BufferIOException(String message) {
        super(message);
    }
}

class Buffer<T> {
    private final ArrayDeque<T> items = new ArrayDeque<>();
    private final int size;
    private int total;

    Buffer(final int size) {
        this.size = size;
    }

    T read() throws BufferIOException {
        if (items.isEmpty()) throw new BufferIOException("empty");
        return items.removeFirst();
    }

    void write(T data) throws BufferIOException {
        if (items.size() == size) throw new BufferIOException("full");
        items.addLast(data);
    }

    synchronized void add(int amount) {
        total += amount;
    }

    synchronized int getTotal() {
        return total;
    }
}
"""
NEVER_FAILS = HONEST.replace(
    'if (items.isEmpty()) throw new BufferIOException("empty");',
    "if (items.isEmpty()) return null;",
).replace('if (items.size() == size) throw new BufferIOException("full");', "")
ALWAYS_FAILS = HONEST.replace("return items.removeFirst();", 'throw new BufferIOException("no");')
DOCUMENT: dict[str, Any] = {"cases": [
    {"description": "empty", "property": "run", "input": {"capacity": 1, "operations": [
        {"operation": "read", "should_succeed": False}]}, "expected": {}},
    {"description": "full", "property": "run", "input": {"capacity": 1, "operations": [
        {"operation": "write", "item": 7, "should_succeed": True},
        {"operation": "write", "item": 8, "should_succeed": False},
        {"operation": "read", "should_succeed": True, "expected": 7}]}, "expected": {}},
    {"description": "at once", "property": "run", "input": {"capacity": 1, "operations": [
        {"operation": "concurrent", "number": 250, "operations": [
            {"operation": "add", "amount": 3}, {"operation": "add", "amount": -1}]},
        {"operation": "total"}]}, "expected": 500},
]}  # fmt: skip


@pytest.fixture(scope="module")
def checker() -> Iterator[DockerChecker]:
    with DockerChecker(load_settings(), run_id="pytest-scripts") as made:
        yield made


def _suite(tmp_path: Path) -> Suite:
    folder = tmp_path / "kata" / "acceptance"
    folder.mkdir(parents=True)
    (folder / "canonical-data.json").write_text(json.dumps(DOCUMENT))
    cases = flatten_cases(DOCUMENT, source="-")
    stub = {**{p: t.encode() for p, t in JAVA.scaffold().items()}, "src/Buffer.java": STUB}
    calls = JAVA.derive_calls(cases, stub, {})
    assert not isinstance(calls, str), calls
    (folder / "calls.yaml").write_text(json.dumps({"java": calls.model_dump(mode="json")}))
    return load_suite(tmp_path / "kata")


@pytest.mark.parametrize(
    ("code", "passed"),
    [(HONEST, [True, True, True]), (NEVER_FAILS, [False, False, True]),
     (ALWAYS_FAILS, [True, False, True])],
    ids=["honest", "never_fails", "always_fails"],
)  # fmt: skip
def test_every_step_of_a_script_is_judged_on_the_host(
    checker: DockerChecker, tmp_path: Path, code: str, passed: list[bool]
) -> None:
    tree = {name: text.encode() for name, text in JAVA.scaffold().items()}
    tree["src/Buffer.java"] = code.encode()
    report = run_acceptance(checker, JAVA, tree, _suite(tmp_path))
    assert [r.status is CaseStatus.PASSED for r in report.results] == passed, report.why()


def test_what_a_step_should_answer_never_enters_the_box(tmp_path: Path) -> None:
    suite = _suite(tmp_path)
    tree = {"src/Buffer.java": HONEST.encode()}
    prepared = JAVA.driver.prepare(tree, suite.cases_for("java"), suite.calls_for("java"), "n")
    driver = b"".join(prepared.files.values()).decode()
    assert "write(7)" in driver  # the steps are there, with their arguments
    assert "together(250, " in driver
    assert "should_succeed" not in driver  # nor anything of what they answer
    assert "500" not in driver
