"""Objects driven by a script of operations (`scripting`), scored in a real sandbox: the
driver replays each case's operations given only their names and arguments, and the host
judges every step. The attacks: a buffer that never fails, or that always does, passes a
judge of the answers' values alone; and what a step should answer never reaches the box."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tdd_sandbox.acceptance.scorer import run_acceptance
from tdd_sandbox.acceptance.suite import Suite, load_suite
from tdd_sandbox.execution.docker_checker import DockerChecker
from tdd_sandbox.grading.acceptance import CaseStatus, flatten_cases
from tdd_sandbox.languages.registry import get_language
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
PY_STUB = b"""\
class BufferError(Exception):
    pass


class Buffer:
    def __init__(self, size):
        pass

    def read(self):
        pass

    def write(self, data):
        pass

    def add(self, amount):
        pass

    def get_total(self):
        pass
"""
PY_HONEST = """\
import threading


class BufferError(Exception):
    pass


class Buffer:
    def __init__(self, size):
        self.items, self.size, self.total, self.lock = [], size, 0, threading.Lock()

    def read(self):
        if not self.items:
            raise BufferError("empty")
        return self.items.pop(0)

    def write(self, data):
        if len(self.items) == self.size:
            raise BufferError("full")
        self.items.append(data)

    def add(self, amount):
        with self.lock:
            self.total += amount

    def get_total(self):
        return self.total
"""
JS_STUB = b"""\
export class Buffer {
  constructor() {
    throw new Error('Remove this statement and implement this function');
  }

  read() {
    throw new Error('Remove this statement and implement this function');
  }

  write() {
    throw new Error('Remove this statement and implement this function');
  }

  add() {
    throw new Error('Remove this statement and implement this function');
  }

  get total() {
    throw new Error('Remove this statement and implement this function');
  }
}
"""
JS_TESTS = b"""\
import { Buffer } from './buffer';
test('buffer', () => {
  const buffer = new Buffer(1);
  buffer.write(1);
  expect(buffer.read()).toBe(1);
  buffer.add(2);
  expect(buffer.total).toBe(2);
});
"""
JS_HONEST = """\
export class Buffer {
  constructor(size) {
    this.items = [];
    this.size = size;
    this.sum = 0;
  }

  read() {
    if (this.items.length === 0) throw new Error('empty');
    return this.items.shift();
  }

  write(item) {
    if (this.items.length === this.size) throw new Error('full');
    this.items.push(item);
  }

  add(amount) {
    this.sum += amount;
  }

  get total() {
    return this.sum;
  }
}
"""
GO_STUB = b"""\
package kata

type Buffer struct{}

func NewBuffer(size int) *Buffer { panic("todo") }

func (b *Buffer) Read() (int, error) { panic("todo") }

func (b *Buffer) Write(item int) error { panic("todo") }

func (b *Buffer) Add(amount int) { panic("todo") }

func (b *Buffer) Total() int { panic("todo") }
"""
GO_HONEST = """\
package kata

import (
	"errors"
	"sync"
)

type Buffer struct {
	items []int
	size  int
	total int
	lock  sync.Mutex
}

func NewBuffer(size int) *Buffer { return &Buffer{size: size} }

func (b *Buffer) Read() (int, error) {
	if len(b.items) == 0 {
		return 0, errors.New("empty")
	}
	item := b.items[0]
	b.items = b.items[1:]
	return item, nil
}

func (b *Buffer) Write(item int) error {
	if len(b.items) == b.size {
		return errors.New("full")
	}
	b.items = append(b.items, item)
	return nil
}

func (b *Buffer) Add(amount int) {
	b.lock.Lock()
	defer b.lock.Unlock()
	b.total += amount
}

func (b *Buffer) Total() int { return b.total }
"""
RS_STUB = b"""\
pub struct Buffer<T> {
    items: Vec<T>,
}

#[derive(Debug, PartialEq, Eq)]
pub enum Error {
    Empty,
    Full,
}

impl<T> Buffer<T> {
    pub fn new(size: usize) -> Self {
        todo!("{size}")
    }

    pub fn read(&mut self) -> Result<T, Error> {
        todo!()
    }

    pub fn write(&mut self, item: T) -> Result<(), Error> {
        todo!()
    }
}
"""
RS_HONEST = """\
pub struct Buffer<T> {
    items: Vec<T>,
    size: usize,
}

#[derive(Debug, PartialEq, Eq)]
pub enum Error {
    Empty,
    Full,
}

impl<T: Default> Buffer<T> {
    pub fn new(size: usize) -> Self {
        Buffer { items: Vec::new(), size }
    }

    pub fn read(&mut self) -> Result<T, Error> {
        if self.items.is_empty() {
            return Err(Error::Empty);
        }
        Ok(self.items.remove(0))
    }

    pub fn write(&mut self, item: T) -> Result<(), Error> {
        if self.items.len() == self.size {
            return Err(Error::Full);
        }
        self.items.push(item);
        Ok(())
    }
}
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
    "go": ("kata.go", GO_STUB, {}, GO_HONEST, (
        ('return 0, errors.New("empty")', "return 0, nil"),
        ("if len(b.items) == b.size {", "if len(b.items) == b.size && false {"),
        ("item := b.items[0]", 'return 0, errors.New("no")\n\titem := 0'),
    )),
    "javascript": ("buffer.js", JS_STUB, {"buffer.spec.js": JS_TESTS}, JS_HONEST, (
        ("throw new Error('empty');", "return undefined;"),
        ("if (this.items.length === this.size) throw new Error('full');", ""),
        ("return this.items.shift();", "throw new Error('no');"),
    )),
    "python": ("buffer.py", PY_STUB, {}, PY_HONEST, (
        ('raise BufferError("empty")', "return None"),
        ('raise BufferError("full")', "pass"),
        ("return self.items.pop(0)", 'raise BufferError("no")'),
    )),
    "rust": ("src/lib.rs", RS_STUB, {}, RS_HONEST, (
        ("return Err(Error::Empty);", "return Ok(T::default());"),
        ("return Err(Error::Full);", ""),
        ("Ok(self.items.remove(0))", "Err(Error::Empty)"),
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


ALONE = frozenset({"rust"})
"""Languages whose scripts run no group at once (a Rust `&mut` is no shared value)."""


def _document(language: str) -> dict[str, Any]:
    cases = DOCUMENT["cases"]
    return {"cases": cases[:2] if language in ALONE else cases}


def _suite(tmp_path: Path, language: str) -> Suite:
    folder = tmp_path / "kata" / "acceptance"
    folder.mkdir(parents=True)
    document = _document(language)
    (folder / "canonical-data.json").write_text(json.dumps(document))
    cases = flatten_cases(document, source="-")
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
    passed = passed[:2] if language in ALONE else passed
    assert [r.status is CaseStatus.PASSED for r in report.results] == passed, report.why()


@pytest.mark.parametrize("language", sorted(KATAS))
def test_what_a_step_should_answer_never_enters_the_box(tmp_path: Path, language: str) -> None:
    suite = _suite(tmp_path, language)
    plugin = get_language(language)
    tree = {KATAS[language][0]: _code(language, "honest")}
    calls, cases = suite.calls_for(language), suite.cases_for(language)
    driver = b"".join(plugin.driver.prepare(tree, cases, calls, "n").files.values()).decode()
    # The steps are there, with their arguments: as code, or as data (Python's).
    assert re.search(r'(?i)write\(7\)|"item": 7', driver)
    assert language in ALONE or re.search(r'(?i)together\(250, |"number": 250', driver)
    assert "should_succeed" not in driver  # nor anything of what they answer
    assert "500" not in driver
