"""`katas import` of an exercise whose cases no call the data fills performs: its track's
own tests are transcribed as data (`languages.python.transcripts`), then played and scored."""

from __future__ import annotations

from pathlib import Path

import pytest

from tdd_sandbox.grading.policy import check_policy
from tdd_sandbox.katas.kata import allow_rules
from tdd_sandbox.languages.registry import get_language
from tests.cli.test_katas_cli import FIXTURES, JAVA, PYTHON, _leap_data, _leap_specs, scored
from tests.helpers.cli import run_cli

SPECS = FIXTURES / "problem-specifications" / "exercises"
TALLY = PYTHON / "tally-chain"

# Code that looks for the value its caller holds against it: beside the track's tests
# it finds the test's `expected`; a transcript holds no such name.
CALLERS = """import sys


class Tally:
    def __init__(self, start, before=()):
        if start < 0:
            raise ValueError("a tally cannot fall below zero")
        self._values = (*before, start)

    def add(self, amount):
        return Tally(self._values[-1] + amount, self._values)

    def value(self):
        frame = sys._getframe(1)
        while frame is not None:
            if "expected" in frame.f_locals:
                return frame.f_locals["expected"]
            frame = frame.f_back
        return -1

    def history(self):
        return list(self._values)
"""


WITH_AND_WITHOUT_DATA = pytest.mark.parametrize(
    "with_data", [True, False], ids=["beside-its-data", "without-data"]
)
"""An exercise beside its canonical data, and one problem-specifications has none for
(aider's set has 19): before, the second was left to its track's tests, judged beside the
code."""


@pytest.mark.docker
@pytest.mark.usefixtures("images")
@WITH_AND_WITHOUT_DATA
def test_a_kata_no_call_performs_is_judged_by_its_tests_transcribed(
    tmp_path: Path, with_data: bool
) -> None:
    # Each step makes a new tally: the data's start and steps fit no call, and the track's
    # tests judged beside the code, which could read them. Transcribed, each test's
    # statements run in the sandbox and what it asserts is held on the host.
    out = tmp_path / "out"
    data = [str(SPECS / "tally-chain")] if with_data else []
    result = run_cli("katas", "import", str(TALLY), *data, "--out", str(out))
    assert result.returncode == 0, result.stdout + result.stderr[-1500:]
    said = result.stdout
    assert "tally-chain (python): a data suite of the track's 5 tests transcribed" in said, said
    assert "tally-chain (python): judged as data" in said, said
    assert "tally-chain (python): proved (reference 5/5, stub 0/5)" in said, said
    kata = out / "tally-chain"
    honest = (TALLY / ".meta" / "example.py").read_text()
    document = scored(tmp_path / "honest", kata, "python", {"tally_chain.py": honest})
    assert (document["passed"], document["total"]) == (5, 5), document
    assert document["judged"] == "data", document
    # A tally that forgets the ones before it: the sums still pass, its history does not.
    forgetful = honest.replace("self._values = (*before, start)", "self._values = (start,)")
    document = scored(tmp_path / "forgetful", kata, "python", {"tally_chain.py": forgetful})
    assert (document["passed"], document["total"]) == (4, 5), document
    # The block-list bypassed (the kata allows what the code uses): the expected value is
    # still nowhere in the sandbox to read.
    rules = {v.rule for v in check_policy(get_language("python"), {"t.py": CALLERS.encode()})}
    allow_rules(kata / "kata.md", "python", rules)
    document = scored(tmp_path / "callers", kata, "python", {"tally_chain.py": CALLERS})
    assert document["passed"] < document["total"], document
    failed = [case for case in document["cases"] if case["status"] != "passed"]
    assert any("tally.value()" in case["detail"] for case in failed), failed


# Code that reads the value it is held against out of the spec beside it: under the
# track's own tests it finds `const expected = 8`; the sandbox of a transcript has no spec.
SPEC_READER = """import * as fs from 'node:fs';
import * as path from 'node:path';

const spec = (dir, depth = 0) => {
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name);
    if (name.endsWith('.spec.js')) return fs.readFileSync(file, 'utf8');
    if (depth < 3 && name !== 'node_modules' && fs.statSync(file).isDirectory()) {
      const found = spec(file, depth + 1);
      if (found) return found;
    }
  }
  return '';
};

export class Tally {
  constructor(start, before = []) {
    if (start < 0) {
      throw new RangeError('a tally cannot fall below zero');
    }
    this.values = [...before, start];
  }

  add(amount) {
    return new Tally(this.values[this.values.length - 1] + amount, this.values);
  }

  get value() {
    const said = spec(process.cwd()).match(/const expected = (\\d+)/);
    return said ? Number(said[1]) : this.values[0];
  }

  history() {
    return [...this.values];
  }
}
"""


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_a_jest_spec_is_transcribed_and_its_expected_values_stay_on_the_host(
    tmp_path: Path,
) -> None:
    # Today's layout: the spec imports its globals from @jest/globals, a describe's
    # beforeEach makes what its tests use, a test named its own way is a case of its own.
    source = FIXTURES / "javascript" / "exercises" / "practice" / "tally-chain"
    out = tmp_path / "out"
    result = run_cli("katas", "import", str(source), str(SPECS / "tally-chain"), "--out", str(out))
    assert result.returncode == 0, result.stdout + result.stderr[-1500:]
    said = result.stdout
    assert "tally-chain (javascript): a data suite of the track's 5 tests transcribed" in said
    assert "tally-chain (javascript): judged as data" in said, said
    assert "tally-chain (javascript): proved (reference 5/5, stub 0/5)" in said, said
    kata = out / "tally-chain"
    honest = (source / ".meta" / "proof.ci.js").read_text()
    document = scored(tmp_path / "honest", kata, "javascript", {"tally-chain.js": honest})
    assert (document["passed"], document["total"], document["judged"]) == (5, 5, "data")
    rules = {
        v.rule for v in check_policy(get_language("javascript"), {"t.js": SPEC_READER.encode()})
    }
    allow_rules(kata / "kata.md", "javascript", rules)
    document = scored(tmp_path / "reader", kata, "javascript", {"tally-chain.js": SPEC_READER})
    failed = [case["detail"] for case in document["cases"] if case["status"] != "passed"]
    assert any("start.add(2).add(5).value" in detail for detail in failed), document


# Code that reads the value it is held against out of the test class's source: under the
# track's own tests it finds `int expected = 8`; a transcript's sandbox holds no test.
SOURCE_READER = """import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

class Tally {

    private final List<Integer> values;

    Tally(int start) {
        this(start, List.of());
    }

    private Tally(int start, List<Integer> before) {
        if (start < 0) {
            throw new IllegalArgumentException("a tally cannot fall below zero");
        }
        values = new ArrayList<>(before);
        values.add(start);
    }

    Tally add(int amount) {
        return new Tally(values.get(values.size() - 1) + amount, values);
    }

    int value() {
        try (Stream<Path> paths = Files.walk(Path.of("").toAbsolutePath(), 6)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                if (path.toString().endsWith("TallyTest.java")) {
                    Pattern expected = Pattern.compile("int expected = (\\\\d+)");
                    Matcher said = expected.matcher(Files.readString(path));
                    if (said.find()) {
                        return Integer.parseInt(said.group(1));
                    }
                }
            }
        } catch (Exception ignored) {
            // nothing to read
        }
        return values.get(0);
    }

    List<Integer> history() {
        return new ArrayList<>(values);
    }

}
"""


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_a_junit_class_is_transcribed_and_its_expected_values_stay_on_the_host(
    tmp_path: Path,
) -> None:
    # Fields, a @BeforeEach, a @DisplayName that names the data's case, AssertJ's chains.
    source = FIXTURES / "java" / "exercises" / "practice" / "tally-chain"
    out = tmp_path / "out"
    result = run_cli("katas", "import", str(source), str(SPECS / "tally-chain"), "--out", str(out))
    assert result.returncode == 0, result.stdout + result.stderr[-1500:]
    said = result.stdout
    assert "tally-chain (java): a data suite of the track's 5 tests transcribed" in said, said
    assert "tally-chain (java): judged as data" in said, said
    assert "tally-chain (java): proved (reference 5/5, stub 0/5)" in said, said
    kata = out / "tally-chain"
    honest = (source / ".meta" / "src" / "reference" / "java" / "Tally.java").read_text()
    path = "src/main/java/Tally.java"
    document = scored(tmp_path / "honest", kata, "java", {path: honest})
    assert (document["passed"], document["total"], document["judged"]) == (5, 5, "data")
    rules = {v.rule for v in check_policy(get_language("java"), {path: SOURCE_READER.encode()})}
    allow_rules(kata / "kata.md", "java", rules)
    document = scored(tmp_path / "reader", kata, "java", {path: SOURCE_READER})
    failed = [case["detail"] for case in document["cases"] if case["status"] != "passed"]
    assert any("start.add(2).add(5).value()" in detail for detail in failed), document


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_derived_calls_that_cannot_be_performed_give_way_to_the_tests_transcribed(
    tmp_path: Path,
) -> None:
    # Inputs Java cannot write as arguments (a list of maps: Exercism's react and pov): the
    # track's tests judged beside the code, though they transcribe as data.
    data = _leap_data()
    data["cases"][0]["input"] = {"year": [{"in": 2015}]}
    specs = _leap_specs(tmp_path, data)
    out = tmp_path / "out"
    result = run_cli("katas", "import", str(JAVA / "leap"), str(specs), "--out", str(out))
    assert result.returncode == 0, result.stdout + result.stderr[-1500:]
    said = result.stdout
    assert "leap (java): the derived calls cannot be performed (a list of dict" in said, said
    assert "the track's tests transcribed instead" in said, said
    assert "leap (java): judged as data" in said, said


# Code that reads the value it is held against out of the test file: under the track's own
# tests it finds `let expected = 8`; a transcript's sandbox holds no test file.
TEST_READER = """pub struct Tally {
    values: Vec<i64>,
}

impl Tally {
    pub fn new(start: i64) -> Self {
        Self::made(start, &[])
    }

    fn made(start: i64, before: &[i64]) -> Self {
        if start < 0 {
            panic!("a tally cannot fall below zero");
        }
        let mut values = before.to_vec();
        values.push(start);
        Self { values }
    }

    pub fn add(&self, amount: i64) -> Self {
        Self::made(self.values[self.values.len() - 1] + amount, &self.values)
    }

    pub fn value(&self) -> i64 {
        let text = std::fs::read_to_string("tests/tally_chain.rs").unwrap_or_default();
        match text.split("let expected = ").nth(1) {
            Some(rest) => rest.split(';').next().unwrap_or("").trim().parse().unwrap_or(-1),
            None => self.values[0],
        }
    }

    pub fn history(&self) -> Vec<i64> {
        self.values.clone()
    }
}
"""


@pytest.mark.docker
@pytest.mark.usefixtures("images")
@WITH_AND_WITHOUT_DATA
def test_rust_tests_are_transcribed_and_their_expected_values_stay_on_the_host(
    tmp_path: Path, with_data: bool
) -> None:
    # A helper function of the tests', `assert!` of `==`, either side of `assert_eq!` the
    # literal, and a #[should_panic] test whose message the todo!() stub does not give.
    source = FIXTURES / "rust" / "exercises" / "practice" / "tally-chain"
    out = tmp_path / "out"
    data = [str(SPECS / "tally-chain")] if with_data else []
    result = run_cli("katas", "import", str(source), *data, "--out", str(out))
    assert result.returncode == 0, result.stdout + result.stderr[-1500:]
    said = result.stdout
    assert "tally-chain (rust): a data suite of the track's 5 tests transcribed" in said, said
    assert "tally-chain (rust): judged as data" in said, said
    assert "tally-chain (rust): proved (reference 5/5, stub 0/5)" in said, said
    kata = out / "tally-chain"
    honest = (source / ".meta" / "example.rs").read_text()
    document = scored(tmp_path / "honest", kata, "rust", {"src/lib.rs": honest})
    assert (document["passed"], document["total"], document["judged"]) == (5, 5, "data")
    rules = {
        v.rule for v in check_policy(get_language("rust"), {"src/lib.rs": TEST_READER.encode()})
    }
    allow_rules(kata / "kata.md", "rust", rules)
    document = scored(tmp_path / "reader", kata, "rust", {"src/lib.rs": TEST_READER})
    failed = [case["detail"] for case in document["cases"] if case["status"] != "passed"]
    assert any("made(1).add(2).add(5).value()" in detail for detail in failed), document


# Code that reads the value it is held against out of the test file: under the track's own
# tests it finds `const long expected = 8`; a transcript's sandbox holds no test file.
CPP_READER = """#include "tally_chain.h"

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace tally_chain {

tally::tally(long start) : tally(start, {}) {}

tally::tally(long start, std::vector<long> before) : values_(std::move(before)) {
    if (start < 0) throw std::domain_error("a tally cannot fall below zero");
    values_.push_back(start);
}

tally tally::add(long amount) const { return tally(values_.back() + amount, values_); }

long tally::value() const {
    std::ifstream file("tally_chain_test.cpp");
    std::stringstream text;
    text << file.rdbuf();
    const std::string said = text.str();
    const auto at = said.find("const long expected = ");
    if (at == std::string::npos) return values_.front();
    return std::stol(said.substr(at + 22));
}

std::vector<long> tally::history() const { return values_; }

}  // namespace tally_chain
"""


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_catch2_cases_are_transcribed_and_their_expected_values_stay_on_the_host(
    tmp_path: Path,
) -> None:
    # REQUIRE of `==` either side the literal, REQUIRE_THROWS_AS, cases behind
    # EXERCISM_RUN_ALL_TESTS, one named its own way.
    source = FIXTURES / "cpp" / "exercises" / "practice" / "tally-chain"
    out = tmp_path / "out"
    result = run_cli("katas", "import", str(source), str(SPECS / "tally-chain"), "--out", str(out))
    assert result.returncode == 0, result.stdout + result.stderr[-1500:]
    said = result.stdout
    assert "tally-chain (cpp): a data suite of the track's 5 tests transcribed" in said, said
    assert "tally-chain (cpp): judged as data" in said, said
    assert "tally-chain (cpp): proved (reference 5/5, stub 0/5)" in said, said
    kata = out / "tally-chain"
    meta = source / ".meta"
    honest = {"tally_chain.cpp": (meta / "example.cpp").read_text(),
              "tally_chain.h": (meta / "example.h").read_text()}  # fmt: skip
    document = scored(tmp_path / "honest", kata, "cpp", honest)
    assert (document["passed"], document["total"], document["judged"]) == (5, 5, "data")
    reader = {**honest, "tally_chain.cpp": CPP_READER}
    rules = {
        v.rule
        for v in check_policy(get_language("cpp"), {k: v.encode() for k, v in reader.items()})
    }
    allow_rules(kata / "kata.md", "cpp", rules)
    document = scored(tmp_path / "reader", kata, "cpp", reader)
    failed = [case["detail"] for case in document["cases"] if case["status"] != "passed"]
    assert any("tally(1).add(2).add(5).value()" in detail for detail in failed), document
