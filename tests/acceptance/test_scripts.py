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

JAVA_STUB = b"""\
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
JAVA_HONEST = """\
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
CPP_TESTS = b"""\
#include "buffer.h"
TEST_CASE("buffer") {
  ns::buffer<int> buffer(1);
  buffer.write(1);
  REQUIRE(buffer.read() == 1);
  buffer.add(2);
  REQUIRE(buffer.total() == 2);
}
"""
CPP_HONEST = """\
#pragma once
#include <deque>
#include <mutex>
#include <stdexcept>

namespace ns {
template <typename T>
class buffer {
 public:
  explicit buffer(int size) : size_(size) {}
  T read() {
    if (items_.empty()) throw std::domain_error("empty");
    T item = items_.front();
    items_.pop_front();
    return item;
  }
  void write(T item) {
    if (static_cast<int>(items_.size()) == size_) throw std::domain_error("full");
    items_.push_back(item);
  }
  void add(int amount) {
    std::lock_guard<std::mutex> lock(guard_);
    total_ += amount;
  }
  int total() {
    std::lock_guard<std::mutex> lock(guard_);
    return total_;
  }

 private:
  std::deque<T> items_;
  int size_;
  int total_ = 0;
  std::mutex guard_;
};
}  // namespace ns
"""
KATAS = {  # language -> the code's file, the stub, the track's tests, honest code and attacks
    "java": ("src/Buffer.java", JAVA_STUB, {}, JAVA_HONEST, (
        ('throw new BufferIOException("empty");', "return null;"),
        ('if (items.size() == size) throw new BufferIOException("full");', ""),
        ("return items.removeFirst();", 'throw new BufferIOException("no");'),
    )),
    "cpp": ("buffer.h", b"namespace ns {}\n", {"buffer_test.cpp": CPP_TESTS}, CPP_HONEST, (
        ('throw std::domain_error("empty");', "return T{};"),
        ('if (static_cast<int>(items_.size()) == size_) throw std::domain_error("full");', ""),
        ("T item = items_.front();", 'throw std::domain_error("no");\n    T item{};'),
    )),
}  # fmt: skip
"""Each attack's edits of the honest code: never failing makes the first two, always failing
the third."""
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


def _suite(tmp_path: Path, language: str) -> Suite:
    folder = tmp_path / "kata" / "acceptance"
    folder.mkdir(parents=True)
    (folder / "canonical-data.json").write_text(json.dumps(DOCUMENT))
    cases = flatten_cases(DOCUMENT, source="-")
    plugin = get_language(language)
    path, stub, tests, _, _ = KATAS[language]
    stub_tree = {**{p: t.encode() for p, t in plugin.scaffold().items()}, path: stub}
    calls = plugin.derive_calls(cases, stub_tree, tests)
    assert not isinstance(calls, str), calls
    (folder / "calls.yaml").write_text(json.dumps({language: calls.model_dump(mode="json")}))
    return load_suite(tmp_path / "kata")


def _code(language: str, attack: str) -> bytes:
    _, _, _, honest, edits = KATAS[language]
    chosen = {"honest": (), "never_fails": edits[:2], "always_fails": edits[2:]}[attack]
    for old, new in chosen:
        assert old in honest
        honest = honest.replace(old, new)
    return honest.encode()


@pytest.mark.parametrize("language", sorted(KATAS))
@pytest.mark.parametrize(
    ("attack", "passed"),
    [("honest", [True, True, True]), ("never_fails", [False, False, True]),
     ("always_fails", [True, False, True])],
)  # fmt: skip
def test_every_step_of_a_script_is_judged_on_the_host(
    checker: DockerChecker, tmp_path: Path, language: str, attack: str, passed: list[bool]
) -> None:
    plugin = get_language(language)
    tree = {name: text.encode() for name, text in plugin.scaffold().items()}
    tree[KATAS[language][0]] = _code(language, attack)
    report = run_acceptance(checker, plugin, tree, _suite(tmp_path, language))
    assert [r.status is CaseStatus.PASSED for r in report.results] == passed, report.why()


@pytest.mark.parametrize("language", sorted(KATAS))
def test_what_a_step_should_answer_never_enters_the_box(tmp_path: Path, language: str) -> None:
    suite = _suite(tmp_path, language)
    plugin = get_language(language)
    tree = {KATAS[language][0]: _code(language, "honest")}
    calls, cases = suite.calls_for(language), suite.cases_for(language)
    driver = b"".join(plugin.driver.prepare(tree, cases, calls, "n").files.values()).decode()
    assert "write(7)" in driver  # the steps are there, with their arguments
    assert "together(250, " in driver
    assert "should_succeed" not in driver  # nor anything of what they answer
    assert "500" not in driver
