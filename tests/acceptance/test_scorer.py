"""Scoring in a real sandbox: reference solutions full, scaffolds zero, every cheat zero,
and each case judged alone (a hang, a crash or a flood fails that case only)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tdd_sandbox.acceptance.scorer import run_acceptance
from tdd_sandbox.acceptance.suite import Suite, load_suite
from tdd_sandbox.execution.docker_checker import DockerChecker
from tdd_sandbox.grading.acceptance import AcceptanceReport, CaseStatus, flatten_cases
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.settings import load_settings
from tests.helpers.cheats import CHEATS, Cheat
from tests.helpers.solutions import SOLUTIONS

pytestmark = [pytest.mark.docker, pytest.mark.usefixtures("images")]
KATAS = Path(__file__).resolve().parents[2] / "katas"


@pytest.fixture(scope="module")
def checker() -> Iterator[DockerChecker]:
    """One checker (and warm pool) for the module; its containers go with it."""
    with DockerChecker(load_settings(), run_id="pytest-acceptance") as made:
        yield made


def _score(
    checker: DockerChecker, language: str, files: dict[str, str], suite: Suite
) -> AcceptanceReport:
    plugin = get_language(language)
    tree = {name: text.encode() for name, text in plugin.scaffold().items()}
    tree.update({path: text.encode() for path, text in files.items()})
    return run_acceptance(checker, plugin, tree, suite)


@pytest.mark.parametrize(("kata", "language"), sorted(SOLUTIONS))
def test_reference_scores_full_and_scaffold_scores_nothing(
    checker: DockerChecker, kata: str, language: str
) -> None:
    suite = load_suite(KATAS / kata)
    path, solution = SOLUTIONS[(kata, language)]
    full = _score(checker, language, {path: solution}, suite)
    assert (full.passed, full.total) == (len(suite.cases), len(suite.cases)), full.why()
    empty = _score(checker, language, {}, suite)
    assert (empty.passed, empty.total) == (0, len(suite.cases))
    assert empty.why().startswith(("the code did not import", "did not compile"))


@pytest.mark.parametrize("cheat", CHEATS, ids=lambda cheat: f"{cheat.language}-{cheat.name}")
def test_every_cheat_scores_nothing(checker: DockerChecker, cheat: Cheat) -> None:
    report = _score(checker, cheat.language, cheat.files, load_suite(KATAS / cheat.kata))
    assert report.passed == 0, [r for r in report.results if r.status is CaseStatus.PASSED]


def _suite(tmp_path: Path, cases: list[tuple[int, object]], calls: str) -> Suite:
    folder = tmp_path / "double" / "acceptance"
    folder.mkdir(parents=True)
    document = {"cases": [
        {"description": f"n={n}", "property": "double", "input": {"n": n}, "expected": expected}
        for n, expected in cases
    ]}  # fmt: skip
    (folder / "canonical-data.json").write_text(json.dumps(document))
    (folder / "calls.yaml").write_text(calls)
    return load_suite(tmp_path / "double")


def _derived(
    tmp_path: Path,
    language: str,
    document: dict[str, Any],
    stub: dict[str, bytes],
    tests: dict[str, bytes] | None = None,
) -> Suite:
    """A kata's suite of `document`'s cases, its calls derived as an import derives them from
    `stub` and `tests`."""
    folder = tmp_path / "kata" / "acceptance"
    folder.mkdir(parents=True)
    (folder / "canonical-data.json").write_text(json.dumps(document))
    calls = get_language(language).derive_calls(
        flatten_cases(document, source="-"), stub, tests or {}
    )
    assert not isinstance(calls, str), calls
    (folder / "calls.yaml").write_text(json.dumps({language: calls.model_dump(mode="json")}))
    return load_suite(tmp_path / "kata")


PY_CALLS = "python: {setup: from double import double, calls: {double: double(n)}, timeout_s: 2}\n"
PY_DOUBLE = """\
import os
import sys
import time


def double(n):
    print("debug output on stdout", n)
    print("and on stderr", file=sys.stderr)
    if n == 3:
        while True:
            time.sleep(1)
    if n == 4:
        os.kill(os.getpid(), 9)
    if n == 5:
        return "x" * 200_000
    if n == 6:
        return (12,)
    if n == 7:
        raise ValueError("seven")
    return n * 2
"""


def test_python_cases_fail_alone(checker: DockerChecker, tmp_path: Path) -> None:
    cases: list[tuple[int, object]] = [
        (1, 2), (3, 6), (4, 8), (5, 10), (6, [12]), (7, 14), (2, 4)
    ]  # fmt: skip
    report = _score(checker, "python", {"double.py": PY_DOUBLE}, _suite(tmp_path, cases, PY_CALLS))
    by_id = {r.id: r for r in report.results}
    assert by_id["n=1"].status is CaseStatus.PASSED
    assert by_id["n=2"].status is CaseStatus.PASSED  # after a hang, a crash and a flood
    assert by_id["n=6"].status is CaseStatus.PASSED  # a tuple arrives as a list
    assert by_id["n=3"].detail.startswith("timed out")
    assert by_id["n=4"].detail.startswith("crashed")
    assert "over" in by_id["n=5"].detail
    assert by_id["n=7"].status is CaseStatus.WRONG
    assert "seven" in by_id["n=7"].detail


def test_code_that_does_not_import_is_told_where(checker: DockerChecker, tmp_path: Path) -> None:
    # The 0.5B's eliuds-eggs, second try: its function right, the tests it was shown copied
    # below it without their import. Before, the second try heard the NameError alone.
    copied = (
        "def double(n):\n    return n * 2\n\n\nclass DoubleTest(unittest.TestCase):\n    pass\n"
    )
    report = _score(checker, "python", {"double.py": copied}, _suite(tmp_path, [(1, 2)], PY_CALLS))
    assert report.passed == 0
    assert report.why() == (
        "the code did not import: NameError: name 'unittest' is not defined "
        "(double.py, line 5: `class DoubleTest(unittest.TestCase):`)"
    )


RS_CALLS = 'rust: {calls: {double: "kata::double(${n})"}, timeout_s: 2}\n'
RS_DOUBLE = """\
pub fn double(n: i64) -> i64 {
    println!("debug output on stdout {}", n);
    if n == 3 {
        loop {
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }
    if n == 4 {
        std::process::abort();
    }
    if n == 7 {
        panic!("seven");
    }
    n * 2
}
"""


def test_rust_cases_fail_alone(checker: DockerChecker, tmp_path: Path) -> None:
    cases: list[tuple[int, object]] = [(1, 2), (3, 6), (4, 8), (7, {"error": "seven"}), (2, 4)]
    report = _score(checker, "rust", {"src/lib.rs": RS_DOUBLE}, _suite(tmp_path, cases, RS_CALLS))
    statuses = {r.id: r.status for r in report.results}
    assert statuses == {
        "n=1": CaseStatus.PASSED,
        "n=3": CaseStatus.NO_RESULT,
        "n=4": CaseStatus.NO_RESULT,
        "n=7": CaseStatus.PASSED,  # a panic is an error; no error kinds were required
        "n=2": CaseStatus.PASSED,
    }
    # Each says why, as a retry hears it: both were "crashed or ran out of time".
    details = {r.id: r.detail for r in report.results}
    assert details["n=3"].startswith("timed out after 2s"), details
    assert details["n=4"].startswith("crashed"), details


def test_a_build_with_many_errors_tells_its_first(checker: DockerChecker, tmp_path: Path) -> None:
    # A failed build was told from its log's last 4,000 bytes: past a dozen of rustc's
    # errors, the second try heard a later one as the first. Now the log's start is kept.
    rest = "".join(f"    let _ = missing_{i};\n" for i in range(40))
    code = f"pub fn double(n: i64) -> i64 {{\n    let _ = first_missing;\n{rest}    n * 2\n}}\n"
    report = _score(checker, "rust", {"src/lib.rs": code}, _suite(tmp_path, [(1, 2)], RS_CALLS))
    assert report.passed == 0
    assert report.why().startswith("did not compile: src/lib.rs:2:13: error[E0425]: "), report.why()
    assert "`first_missing`" in report.why()


JS_CALLS = (
    "javascript: {calls: {double: 'double(${n})'}, timeout_s: 2,\n"
    "             setup: \"import { double } from './double.js';\"}\n"
)
JS_DOUBLE = """\
export const double = (n) => {
  if (n === 3) {
    for (;;) {}
  }
  return n * 2;
};
"""


def test_javascript_cases_say_a_hang_and_a_module_that_does_not_load(
    checker: DockerChecker, tmp_path: Path
) -> None:
    suite = _suite(tmp_path, [(1, 2), (3, 6), (2, 4)], JS_CALLS)
    report = _score(checker, "javascript", {"double.js": JS_DOUBLE}, suite)
    by_id = {r.id: r for r in report.results}
    assert [by_id[n].status for n in ("n=1", "n=2")] == [CaseStatus.PASSED] * 2
    assert by_id["n=3"].detail.startswith("timed out after 2s"), by_id["n=3"]
    # What the first case's process said of the module, not the end of the last's stack.
    missing = "import { helper } from './helper.js';\n" + JS_DOUBLE
    broken = _score(checker, "javascript", {"double.js": missing}, suite)
    assert "Cannot find module" in broken.why(), broken.why()
    assert "helper.js" in broken.why()


RS_MANIFEST = '[package]\nname = "kata"\nedition = "2021"\n\n[dependencies]\nitertools = "0.13"\n'
RS_SORTED = """\
use itertools::Itertools;

pub fn double(n: i64) -> i64 {
    [n, n].iter().sorted().sum()
}
"""


def test_a_rust_data_suite_builds_with_the_crates_the_kata_depends_on(
    checker: DockerChecker, tmp_path: Path
) -> None:
    # Before, the driver's manifest had no dependencies: "can't find crate for `itertools`".
    files = {"Cargo.toml": RS_MANIFEST, "src/lib.rs": RS_SORTED}
    report = _score(checker, "rust", files, _suite(tmp_path, [(2, 4), (5, 10)], RS_CALLS))
    assert [r.status for r in report.results] == [CaseStatus.PASSED] * 2, report.why()


RS_BUCKETS = """\
#[derive(Debug)]
pub enum Bucket {
    One,
    Two,
}

pub struct Stats {
    pub moves: u8,
    pub goal_bucket: Bucket,
}

pub fn solve(moves: u8, start_bucket: &Bucket) -> Stats {
    let goal_bucket = match start_bucket {
        Bucket::One => Bucket::Two,
        Bucket::Two => Bucket::One,
    };
    Stats { moves, goal_bucket }
}
"""


def test_a_rust_crate_s_own_enumeration_goes_in_and_its_struct_comes_out_as_data(
    checker: DockerChecker, tmp_path: Path
) -> None:
    # Before, the derived call passed "one" where `&Bucket` is wanted: nothing built.
    cases = [("one", {"moves": 1, "goalBucket": "two"}), ("two", {"moves": 1, "goalBucket": "one"})]
    cases.append(("one", {"moves": 1, "goalBucket": "one"}))
    document = {"cases": [
        {"description": f"c{k}", "property": "measure", "input": {"moves": 1, "startBucket": b},
         "expected": e}
        for k, (b, e) in enumerate(cases)
    ]}  # fmt: skip
    stub = {"Cargo.toml": RS_MANIFEST.encode(), "src/lib.rs": RS_BUCKETS.encode()}
    suite = _derived(tmp_path, "rust", document, stub)
    report = _score(checker, "rust", {"src/lib.rs": RS_BUCKETS}, suite)
    statuses = [r.status for r in report.results]
    assert statuses == [CaseStatus.PASSED, CaseStatus.PASSED, CaseStatus.WRONG], report.why()


GO_CALLS = 'go: {calls: {double: "kata.Double(${n})"}, errors: [error], timeout_s: 2}\n'
GO_DOUBLE = """\
package kata

import (
	"errors"
	"time"
)

// Word is a string of the kata's own, with methods that would lie if they were asked.
type Word string

// String claims the expected answer.
func (Word) String() string { return "8" }

// MarshalJSON claims the expected answer too.
func (Word) MarshalJSON() ([]byte, error) { return []byte("8"), nil }

// Double doubles n, badly on purpose for some n.
func Double(n int) (any, error) {
	switch n {
	case 3:
		for {
			time.Sleep(time.Millisecond)
		}
	case 4:
		var m map[string]int
		m["x"] = 1
	case 5:
		return Word("x"), nil
	case 7:
		return nil, errors.New("seven")
	}
	return n * 2, nil
}
"""


def test_go_cases_fail_alone_and_no_method_of_the_model_reports_a_value(
    checker: DockerChecker, tmp_path: Path
) -> None:
    cases: list[tuple[int, object]] = [
        (1, 2), (3, 6), (4, 8), (5, 8), (7, {"error": "seven"}), (2, 4)
    ]  # fmt: skip
    report = _score(checker, "go", {"kata.go": GO_DOUBLE}, _suite(tmp_path, cases, GO_CALLS))
    statuses = {r.id: r.status for r in report.results}
    assert statuses == {
        "n=1": CaseStatus.PASSED,
        "n=3": CaseStatus.NO_RESULT,  # killed at its time limit
        "n=4": CaseStatus.WRONG,  # a panic is not the error kind the suite asks for
        "n=5": CaseStatus.WRONG,  # "x", whatever String and MarshalJSON say
        "n=7": CaseStatus.PASSED,
        "n=2": CaseStatus.PASSED,
    }, report.why()


GO_HALF = """\
package kata

// Double halves n where it can, as Go's comma-ok idiom says it cannot.
func Double(n int) (int, bool) {
	if n%2 != 0 {
		return 0, false
	}
	return n / 2, true
}
"""


def test_a_go_comma_ok_that_is_false_is_the_calls_error(
    checker: DockerChecker, tmp_path: Path
) -> None:
    # Go's say and wordy return (value, ok): the driver reported [value, ok] as the answer,
    # so the track's reference scored 0/19 and 0/23 on their data suites.
    calls = 'go: {calls: {double: "kata.Double(${n})"}, messages: false}\n'
    cases: list[tuple[int, object]] = [(4, 2), (3, {"error": "odd"}), (5, 2)]
    report = _score(checker, "go", {"kata.go": GO_HALF}, _suite(tmp_path, cases, calls))
    statuses = {r.id: r.status for r in report.results}
    assert statuses == {
        "n=4": CaseStatus.PASSED,
        "n=3": CaseStatus.PASSED,
        "n=5": CaseStatus.WRONG,  # not ok where a value was expected
    }, report.why()


GO_LEDGER = """\
package kata

import "errors"

// Entry's fields are not the data's: Date is date by name, Cents and Count take
// amountInCents and quantity in order.
type Entry struct {
	Date  string
	Cents int
	Count int
}

type Pair [2]int

func Total(entries []Entry, pairs []Pair, weights map[string]uint8) (int, error) {
	if len(entries) == 0 {
		return 0, errors.New("no entries")
	}
	sum := 0
	for _, e := range entries {
		sum += e.Cents*e.Count + len(e.Date)
	}
	for _, p := range pairs {
		sum += p[0] * p[1]
	}
	for _, w := range weights {
		sum += int(w)
	}
	return sum, nil
}
"""


def test_a_go_input_converts_to_the_packages_own_types(
    checker: DockerChecker, tmp_path: Path
) -> None:
    # Go's dominoes takes `[]Domino` and ledger `[]Entry`: a literal of the data's JSON
    # (`[][]int{...}`) did not compile, so neither could be judged as data.
    def case(name: str, entries: list[object], weight: int, expected: object) -> object:
        given = {"entries": entries, "pairs": [[2, 3]], "weights": {"a": weight}}
        return {"description": name, "property": "total", "input": given, "expected": expected}

    entry = {"date": "2015", "amountInCents": 5, "quantity": 3}
    document = {"cases": [
        case("sums", [entry], 1, 15 + 4 + 6 + 1),
        case("no entries", [], 1, {"error": "no entries"}),
        # No uint8 holds 300: no result, and never the error a case expects.
        case("too heavy", [entry], 300, 26),
        case("too heavy, no entries", [], 300, {"error": "no entries"}),
        case("fields not the type's", [{"date": "x"}], 1, 8),
    ]}  # fmt: skip
    suite = _derived(tmp_path, "go", document, {"kata.go": GO_LEDGER.encode()})
    assert suite.calls_for("go").calls["total"] == (
        "kata.Total(tddAs[[]kata.Entry](${entries|json}), tddAs[[]kata.Pair](${pairs|json}), "
        "tddAs[map[string]uint8](${weights|json}))"
    )
    report = _score(checker, "go", {"kata.go": GO_LEDGER}, suite)
    statuses = {r.id: r.status for r in report.results}
    assert statuses == {
        "sums": CaseStatus.PASSED,
        "no entries": CaseStatus.PASSED,
        "too heavy": CaseStatus.NO_RESULT,
        "too heavy, no entries": CaseStatus.NO_RESULT,
        "fields not the type's": CaseStatus.NO_RESULT,
    }, report.why()


CPP_WEIGH = """\
#pragma once
#include <string>
#include <vector>

namespace weigh {
// Takes what the C++ track's signatures take, not what the canonical data's JSON is.
inline unsigned long weigh(const std::vector<unsigned int>& digits, char letter,
                           std::string_view word) {
  unsigned long sum = static_cast<unsigned long>(letter) + word.size();
  for (unsigned int digit : digits) sum += digit;
  return sum;
}
}  // namespace weigh
"""


def test_cpp_lists_and_strings_convert_to_what_the_function_takes(
    checker: DockerChecker, tmp_path: Path
) -> None:
    # C++'s calls are read off the track's tests, whose functions take `std::vector<unsigned>`
    # or a `char` where the canonical data has a list of numbers or a string: the driver's
    # `std::vector<int>` and `std::string` did not compile (all-your-base, diamond).
    tests = {"weigh_test.cpp": b"REQUIRE(66 == weigh::weigh({1}, 'A', \"x\"));\n"}
    stub = {"weigh.h": b"namespace weigh {}\n"}
    cases = [
        {"description": "one", "property": "weigh", "expected": 68,
         "input": {"digits": [1, 0], "letter": "A", "word": "xy"}},
        {"description": "none", "property": "weigh", "expected": 66,
         "input": {"digits": [], "letter": "B", "word": ""}},
        {"description": "two letters", "property": "weigh", "expected": 66,
         "input": {"digits": [], "letter": "BC", "word": ""}},
    ]  # fmt: skip
    suite = _derived(tmp_path, "cpp", {"cases": cases}, stub, tests)
    report = _score(checker, "cpp", {"weigh.h": CPP_WEIGH}, suite)
    statuses = {r.id: r.status for r in report.results}
    assert statuses == {
        "one": CaseStatus.PASSED,
        "none": CaseStatus.PASSED,
        "two letters": CaseStatus.NO_RESULT,  # no char holds two: not an answer
    }, report.why()


CPP_ALLERGIES = """\
#pragma once
#include <string>
#include <unordered_set>
#include <vector>

namespace allergies {
class allergy_test {
 public:
  explicit allergy_test(int score) : score_(score) {}
  bool is_allergic_to(const std::string& item) const {
    return item == "eggs" ? (score_ & 1) != 0 : (score_ & 2) != 0;
  }
  std::unordered_set<std::string> get_allergies() const {
    std::unordered_set<std::string> found;
    for (const char* item : {"peanuts", "eggs"}) {
      if (is_allergic_to(item)) found.insert(item);
    }
    return found;
  }

 private:
  int score_;
};
}  // namespace allergies
"""


def test_a_cpp_object_made_with_its_number_and_asked_with_its_text_and_a_set_answer(
    checker: DockerChecker, tmp_path: Path
) -> None:
    # C++'s allergies: the data lists the item before the score, so the call made the object
    # with the text (no case compiled); its set of allergies is not plain data, and the order
    # a set holds them in is not the answer.
    tests = {
        "allergies_test.cpp": b'TEST_CASE("eggs", "[1]") {\n'
        b'  REQUIRE(false == allergies::allergy_test(0).is_allergic_to("eggs"));\n}\n'
        b'TEST_CASE("list", "[2]") {\n  std::unordered_set<std::string> expected = {"eggs"};\n'
        b"  REQUIRE(expected == allergies::allergy_test(1).get_allergies());\n}\n"
    }
    stub = {"allergies.h": b"namespace allergies {}\n"}
    cases = [
        {"description": "eggs", "property": "allergicTo", "expected": True,
         "input": {"item": "eggs", "score": 1}},
        {"description": "not peanuts", "property": "allergicTo", "expected": False,
         "input": {"item": "peanuts", "score": 1}},
        {"description": "both", "property": "list", "expected": ["eggs", "peanuts"],
         "input": {"score": 3}},
        {"description": "wrong", "property": "list", "expected": ["peanuts"],
         "input": {"score": 1}},
    ]  # fmt: skip
    suite = _derived(tmp_path, "cpp", {"cases": cases}, stub, tests)
    report = _score(checker, "cpp", {"allergies.h": CPP_ALLERGIES}, suite)
    assert [r.status for r in report.results] == [
        CaseStatus.PASSED, CaseStatus.PASSED, CaseStatus.PASSED, CaseStatus.WRONG,
    ], report.why()  # fmt: skip


CPP_SPACE_AGE = """\
#pragma once

namespace space_age {
class space_age {
 public:
  explicit space_age(long seconds) : years_(seconds / 31557600.0) {}
  double on_earth() const { return years_; }
  double on_mercury() const { return years_ / 0.2408467; }

 private:
  double years_;
};
}  // namespace space_age
"""


def test_a_cpp_member_named_by_the_data_s_value_and_its_answer_rounded_as_the_data_is(
    checker: DockerChecker, tmp_path: Path
) -> None:
    # C++'s space-age: `age.on_earth()` for the data's "Earth", and 31.6880... where the data
    # says 31.69 (the proof reads the suite so: `rounded`).
    tests = {
        "space_age_test.cpp": b"const space_age::space_age age(1000000);\n"
        b"REQUIRE_THAT(age.on_earth(), WithinAbs(31.69, 0.005));\n"
        b"REQUIRE_THAT(age.on_mercury(), WithinAbs(280.88, 0.005));\n"
    }
    stub = {"space_age.h": b"namespace space_age {}\n"}
    cases = [
        {"description": "earth", "property": "age", "expected": 31.69,
         "input": {"planet": "Earth", "seconds": 1000000000}},
        {"description": "mercury", "property": "age", "expected": 280.88,
         "input": {"planet": "Mercury", "seconds": 2134835688}},
        {"description": "wrong", "property": "age", "expected": 31.68,
         "input": {"planet": "Earth", "seconds": 1000000000}},
    ]  # fmt: skip
    suite = _derived(tmp_path, "cpp", {"cases": cases}, stub, tests)
    exact = _score(checker, "cpp", {"space_age.h": CPP_SPACE_AGE}, suite)
    assert [r.status for r in exact.results] == [CaseStatus.WRONG] * 3, exact.why()
    calls_file = tmp_path / "kata" / "acceptance" / "calls.yaml"
    section = json.loads(calls_file.read_text())
    section["cpp"]["rounded"] = True
    calls_file.write_text(json.dumps(section))
    rounded = _score(checker, "cpp", {"space_age.h": CPP_SPACE_AGE}, load_suite(tmp_path / "kata"))
    assert [r.status for r in rounded.results] == [
        CaseStatus.PASSED, CaseStatus.PASSED, CaseStatus.WRONG,
    ], rounded.why()  # fmt: skip


CPP_DICE = """\
#pragma once
#include <array>
#include <string>

namespace dice {
inline int score(std::array<int, 3> dice, const std::string& category) {
  return dice[0] + dice[1] + dice[2] + static_cast<int>(category.size());
}
}  // namespace dice
"""


def test_a_cpp_list_converts_to_a_fixed_size_array_of_its_length(
    checker: DockerChecker, tmp_path: Path
) -> None:
    # yacht's `score(std::array<int, 5> dice, ...)`: the driver's list converted only to
    # containers made of iterators, so no case compiled.
    tests = {"dice_test.cpp": b'REQUIRE(7 == dice::score({1, 2, 3}, "x"));\n'}
    cases = [
        {"description": "three", "property": "score", "expected": 7,
         "input": {"dice": [1, 2, 3], "category": "x"}},
        {"description": "two", "property": "score", "expected": 4,
         "input": {"dice": [1, 2], "category": "x"}},
        # No array of three is empty: not three zeros.
        {"description": "none", "property": "score", "expected": 1,
         "input": {"dice": [], "category": "x"}},
    ]  # fmt: skip
    suite = _derived(tmp_path, "cpp", {"cases": cases}, {"dice.h": b"namespace dice {}\n"}, tests)
    report = _score(checker, "cpp", {"dice.h": CPP_DICE}, suite)
    statuses = {r.id: r.status for r in report.results}
    assert statuses == {
        "three": CaseStatus.PASSED,
        "two": CaseStatus.NO_RESULT,
        "none": CaseStatus.NO_RESULT,
    }, report.why()


CPP_LETTERS = """\
#pragma once
#include <cstddef>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace letters {
inline std::unordered_map<char, std::size_t> frequency(const std::vector<std::string_view>& texts) {
  std::unordered_map<char, std::size_t> counts;
  for (auto text : texts)
    for (char c : text) ++counts[c];
  return counts;
}
}  // namespace letters
"""


def test_an_empty_cpp_list_is_the_empty_container_the_call_takes_and_chars_key_as_text(
    checker: DockerChecker, tmp_path: Path
) -> None:
    # parallel-letter-frequency takes `std::vector<std::string_view>`: the data's `[]` was
    # a `std::vector<int>`, which converts to no such vector, so no case compiled; and the
    # `std::unordered_map<char, size_t>` it returns was no plain data.
    tests = {"t.cpp": b'auto f = letters::frequency(std::vector<std::string_view>{"a"});\n'}
    cases = [
        {"description": "two", "property": "frequency", "expected": {"a": 2, "b": 1},
         "input": {"texts": ["ab", "a"]}},
        {"description": "none", "property": "frequency", "expected": {}, "input": {"texts": []}},
    ]  # fmt: skip
    stub = {"letters.h": b"namespace letters {}\n"}
    suite = _derived(tmp_path, "cpp", {"cases": cases}, stub, tests)
    report = _score(checker, "cpp", {"letters.h": CPP_LETTERS}, suite)
    statuses = {r.id: r.status for r in report.results}
    assert statuses == {"two": CaseStatus.PASSED, "none": CaseStatus.PASSED}, report.why()


CPP_GARDEN = """\
#pragma once
#include <string_view>
#include <vector>
namespace garden {
enum class Plants { grass, red_clover, violets };
inline std::vector<Plants> plants(std::string_view row) {
  std::vector<Plants> found;
  for (char c : row) {
    if (c == 'G') found.push_back(Plants::grass);
    if (c == 'C') found.push_back(Plants::red_clover);
    if (c == 'V') found.push_back(Plants::violets);
    if (c == 'X') found.push_back(static_cast<Plants>(7));
  }
  return found;
}
}  // namespace garden
"""


def _enum_suite(tmp_path: Path, language: str, calls: object) -> Suite:
    folder = tmp_path / "garden" / "acceptance"
    folder.mkdir(parents=True)
    cases = [
        {"description": "two", "property": "plants", "input": {"row": "GC"},
         "expected": ["grass", "red clover"]},
        {"description": "wrong", "property": "plants", "input": {"row": "V"},
         "expected": ["grass"]},
        {"description": "unnamed", "property": "plants", "input": {"row": "X"},
         "expected": ["grass"]},
    ]  # fmt: skip
    (folder / "canonical-data.json").write_text(json.dumps({"cases": cases}))
    (folder / "calls.yaml").write_text(json.dumps({language: calls}))
    return load_suite(tmp_path / "garden")


def test_an_enumeration_the_tests_name_reads_as_the_data_spells_it_in_cpp(
    checker: DockerChecker, tmp_path: Path
) -> None:
    # The C++ track's tests register their enumerations with Catch2 to print them
    # (kindergarten-garden, perfect-numbers, sublist): before, every such answer was "a value
    # of a type of its own is not plain data".
    tests = {
        "garden_test.cpp": b"CATCH_REGISTER_ENUM(garden::Plants, garden::Plants::grass,\n"
        b"    garden::Plants::red_clover, garden::Plants::violets)\n"
        b'REQUIRE(garden::plants("G") == std::vector{garden::Plants::grass});\n'
    }
    cases = [{"description": "-", "property": "plants", "input": {"row": "G"}, "expected": []}]
    calls = get_language("cpp").derive_calls(
        flatten_cases({"cases": cases}, source="-"), {"garden.h": b"namespace garden {}\n"}, tests
    )
    assert not isinstance(calls, str), calls
    suite = _enum_suite(tmp_path, "cpp", calls.model_dump(exclude_defaults=True))
    report = _score(checker, "cpp", {"garden.h": CPP_GARDEN}, suite)
    statuses = {r.id: r.status for r in report.results}
    assert statuses == {
        "two": CaseStatus.PASSED,
        "wrong": CaseStatus.WRONG,
        "unnamed": CaseStatus.NO_RESULT,  # a constant the tests do not name: not an answer
    }, report.why()


JAVA_GARDEN = """\
import java.util.ArrayList;
import java.util.List;

public class Kata {
  public enum Plant { GRASS, RED_CLOVER, VIOLETS }

  public static List<Plant> plants(String row) {
    List<Plant> found = new ArrayList<>();
    for (char c : row.toCharArray()) {
      found.add(c == 'G' ? Plant.GRASS : c == 'C' ? Plant.RED_CLOVER : Plant.VIOLETS);
    }
    return found;
  }
}
"""


def test_an_enumeration_reads_as_the_data_spells_it_in_java(
    checker: DockerChecker, tmp_path: Path
) -> None:
    # Java's kindergarten-garden and state-of-tic-tac-toe answer with an enum
    # (`Plant.RADISHES`, `GameState.WIN`): before, "a Plant is not plain data".
    suite = _enum_suite(tmp_path, "java", {"calls": {"plants": "Kata.plants(${row})"}})
    report = _score(checker, "java", {"src/Kata.java": JAVA_GARDEN}, suite)
    statuses = {r.id: r.status for r in report.results}
    assert statuses == {
        "two": CaseStatus.PASSED,
        "wrong": CaseStatus.WRONG,
        "unnamed": CaseStatus.WRONG,  # VIOLETS: every constant of Java's is named
    }, report.why()


JAVA_COUNTS = """\
import java.util.HashMap;
import java.util.Map;

public class Kata {
  public static Map<Character, Integer> counts(String word) {
    Map<Character, Integer> found = new HashMap<>();
    for (char c : word.toCharArray()) {
      found.merge(c, 1, Integer::sum);
    }
    return found;
  }

  public static Map<Object, Integer> both(String word) {
    Map<Object, Integer> found = new HashMap<>();
    found.put(word.charAt(0), 1);
    found.put(String.valueOf(word.charAt(0)), 2);
    return found;
  }
}
"""


def test_a_map_keyed_by_characters_reads_as_one_keyed_by_strings_in_java(
    checker: DockerChecker, tmp_path: Path
) -> None:
    # Java's alphametics answers a Map<Character, Integer>: before, "a map whose keys are not
    # strings". Two keys that read the same are no answer.
    folder = tmp_path / "counts" / "acceptance"
    folder.mkdir(parents=True)
    cases = [
        {"description": "aab", "property": "counts", "input": {"word": "aab"},
         "expected": {"a": 2, "b": 1}},
        {"description": "clash", "property": "both", "input": {"word": "a"},
         "expected": {"a": 2}},
    ]  # fmt: skip
    (folder / "canonical-data.json").write_text(json.dumps({"cases": cases}))
    calls = {"java": {"calls": {"counts": "Kata.counts(${word})", "both": "Kata.both(${word})"}}}
    (folder / "calls.yaml").write_text(json.dumps(calls))
    suite = load_suite(tmp_path / "counts")
    report = _score(checker, "java", {"src/Kata.java": JAVA_COUNTS}, suite)
    statuses = {r.id: r.status for r in report.results}
    assert statuses == {"aab": CaseStatus.PASSED, "clash": CaseStatus.NO_RESULT}, report.why()


PY_TREE = """\
import enum


class Tree:
    def __init__(self, properties, children=()):
        self.properties = properties
        self.children = list(children)
        self._seen = True  # not public: not the data's


class Mark(enum.Enum):
    X = "x"


def parse(text):
    if text == "enum":
        return Mark.X
    if text == "str":
        return type("Text", (str,), {})("(;A[b])")
    leaf = Tree({"B": [text]})
    return Tree({"A": ["b"]}, [leaf] if text else [])
"""


def test_an_object_of_the_code_s_own_class_reads_as_its_public_attributes_in_python(
    checker: DockerChecker, tmp_path: Path
) -> None:
    # sgf-parsing's SgfTree: before, "returned a SgfTree, which is not plain data".
    folder = tmp_path / "tree" / "acceptance"
    folder.mkdir(parents=True)
    tree = {"properties": {"A": ["b"]}, "children": [{"properties": {"B": ["c"]}, "children": []}]}
    cases = [
        ("nested", "c", tree),
        ("wrong", "d", tree),
        ("bare", "", {"properties": {"A": ["b"]}, "children": []}),
        ("enum", "enum", "x"),  # a class of the standard library's: not the code's own
        ("str", "str", "(;A[b])"),  # nor a subclass of a plain type
    ]
    document = {"cases": [
        {"description": name, "property": "parse", "input": {"text": text}, "expected": expected}
        for name, text, expected in cases
    ]}  # fmt: skip
    (folder / "canonical-data.json").write_text(json.dumps(document))
    calls = "python: {setup: from tree import parse, calls: {parse: parse(text)}}\n"
    (folder / "calls.yaml").write_text(calls)
    report = _score(checker, "python", {"tree.py": PY_TREE}, load_suite(tmp_path / "tree"))
    assert {r.id: r.status for r in report.results} == {
        "nested": CaseStatus.PASSED,
        "wrong": CaseStatus.WRONG,
        "bare": CaseStatus.PASSED,
        "enum": CaseStatus.NO_RESULT,
        "str": CaseStatus.NO_RESULT,
    }, report.why()


def test_a_function_the_data_gives_reaches_python_code_as_a_callable(
    checker: DockerChecker, tmp_path: Path
) -> None:
    # list-ops: before, `filter` got the data's text "(x) -> x modulo 2 == 1", not a function.
    cases = [("(x) -> x modulo 2 == 1", [1, 3]), ("(x) -> x > 2", [3, 4]), ("(x) -> x < 0", [1])]
    document = {"cases": [
        {"description": f"c{k}", "property": "filter",
         "input": {"function": text, "list": [1, 2, 3, 4]}, "expected": expected}
        for k, (text, expected) in enumerate(cases)
    ]}  # fmt: skip
    code = "def filter(function, list):\n    return [x for x in list if function(x)]\n"
    suite = _derived(tmp_path, "python", document, {"ops.py": code.encode()})
    report = _score(checker, "python", {"ops.py": code}, suite)
    statuses = [r.status for r in report.results]
    assert statuses == [CaseStatus.PASSED, CaseStatus.PASSED, CaseStatus.WRONG], report.why()


JS_DAY = """\
export const meetup = (year, month, day) => {
  if (day === 3) {
    const fake = Object.create(Date.prototype); // a Date by its prototype alone is not one
    return fake;
  }
  return new Date(year, month - 1, day);
};
"""


def test_a_javascript_date_reads_as_its_day(checker: DockerChecker, tmp_path: Path) -> None:
    # meetup: before, every case was "a Date is not plain data".
    days = [(13, "2013-05-13"), (14, "2013-05-13"), (3, "2013-05-03")]
    document = {"cases": [
        {"description": f"c{k}", "property": "meetup",
         "input": {"year": 2013, "month": 5, "day": day}, "expected": expected}
        for k, (day, expected) in enumerate(days)
    ]}  # fmt: skip
    suite = _derived(tmp_path, "javascript", document, {"meetup.js": JS_DAY.encode()})
    report = _score(checker, "javascript", {"meetup.js": JS_DAY}, suite)
    statuses = [r.status for r in report.results]
    assert statuses == [CaseStatus.PASSED, CaseStatus.WRONG, CaseStatus.NO_RESULT], report.why()


JAVA_TREE = """\
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

public class Kata {
  static class Base {
    protected String name;
  }

  public static class Tree extends Base {
    private static int made = 0; // a class's own count, not the object's
    private final List<Tree> children = new ArrayList<>();

    Tree(String name) {
      this.name = name;
      made++;
    }

    @Override
    public boolean equals(Object other) {
      return true; // never asked: the fields are read
    }
  }

  public static Object parse(String text) {
    if (text.equals("lambda")) {
      Supplier<String> made = () -> "x";
      return made;
    }
    Tree root = new Tree(text.substring(0, 1));
    for (char c : text.substring(1).toCharArray()) {
      root.children.add(new Tree(String.valueOf(c)));
    }
    return root;
  }
}
"""


def test_an_object_of_the_code_s_own_class_reads_as_its_fields_in_java(
    checker: DockerChecker, tmp_path: Path
) -> None:
    # Java's sgf-parsing answers with an SgfNode: before, "a SgfNode is not plain data".
    folder = tmp_path / "tree" / "acceptance"
    folder.mkdir(parents=True)
    leaf = {"name": "b", "children": []}
    cases = [("ab", {"name": "a", "children": [leaf]}), ("a", {"name": "b", "children": []}),
             ("lambda", "x")]  # fmt: skip
    document = {"cases": [
        {"description": text, "property": "parse", "input": {"text": text}, "expected": expected}
        for text, expected in cases
    ]}  # fmt: skip
    (folder / "canonical-data.json").write_text(json.dumps(document))
    (folder / "calls.yaml").write_text('java: {calls: {parse: "Kata.parse(${text})"}}\n')
    report = _score(checker, "java", {"src/Kata.java": JAVA_TREE}, load_suite(tmp_path / "tree"))
    assert {r.id: r.status for r in report.results} == {
        "ab": CaseStatus.PASSED,
        "a": CaseStatus.WRONG,
        "lambda": CaseStatus.NO_RESULT,  # a lambda's hidden class is not the code's own
    }, report.why()
