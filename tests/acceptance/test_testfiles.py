"""Hidden suites that are a track's own test files, run in a real sandbox: every test the files
define is a case, named as the runner names it in the repository they run in."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tdd_sandbox.acceptance.scorer import score_kata
from tdd_sandbox.acceptance.testfiles import run_test_files
from tdd_sandbox.execution.docker_checker import DockerChecker
from tdd_sandbox.grading.acceptance import CaseStatus
from tdd_sandbox.languages.registry import LANGUAGES, get_language
from tdd_sandbox.settings import load_settings
from tests.helpers.answer_readers import READERS
from tests.helpers.katas import STEPS

pytestmark = [pytest.mark.docker, pytest.mark.usefixtures("images")]

GO_MOD = b"module leap\n\ngo 1.18\n"
GO_TESTS = b"""package leap

import "testing"

func TestLeapYears(t *testing.T) {
\tfor _, year := range []int{1996, 2000} {
\t\tt.Run("leap", func(t *testing.T) {
\t\t\tif !IsLeapYear(year) {
\t\t\t\tt.Fatalf("IsLeapYear(%d) = false", year)
\t\t\t}
\t\t})
\t}
}

func TestCommonYears(t *testing.T) {
\tif IsLeapYear(1900) {
\t\tt.Fatal("IsLeapYear(1900) = true")
\t}
}
"""
GO_CODE = b"""package leap

func IsLeapYear(year int) bool {
\treturn %s
}
"""


@pytest.fixture(scope="module")
def checker() -> Iterator[DockerChecker]:
    """One checker (and warm pool) for the module; its containers go with it."""
    with DockerChecker(load_settings(), run_id="pytest-testfiles") as made:
        yield made


@pytest.mark.parametrize(
    ("body", "passed"),
    [
        (b"year%4 == 0 && (year%100 != 0 || year%400 == 0)", {"TestLeapYears", "TestCommonYears"}),
        (b"year%4 == 0", {"TestLeapYears"}),
        (b"false", {"TestCommonYears"}),
    ],
)
def test_a_go_track_suite_is_scored_in_the_module_it_runs_in(
    checker: DockerChecker, body: bytes, passed: set[str]
) -> None:
    # An Exercism stub's module is its slug, not the scaffold's `kata`: the cases must be the
    # ids go test reports there, or no case ever runs and the reference scores nothing.
    go = get_language("go")
    files = {"go.mod": GO_MOD, "leap.go": GO_CODE % body}
    report = run_test_files(checker, go, files, {"leap_test.go": GO_TESTS})
    assert {r.id for r in report.results} == {"leap::TestLeapYears", "leap::TestCommonYears"}
    got = {r.id.split("::")[1] for r in report.results if r.status is CaseStatus.PASSED}
    assert got == passed, report.why()


@pytest.mark.parametrize(
    "language", sorted(n for n, p in LANGUAGES.items() if p.sealed_tests([STEPS[n].test_path]))
)
@pytest.mark.usefixtures("without_policy")
def test_a_suite_run_beside_the_code_cannot_be_read_by_it(
    checker: DockerChecker, language: str
) -> None:
    # Each reader bypassed the block-list policies and scored full marks here before the
    # suite's files were sealed: now it cannot open them, and scores nothing (with the
    # allow-list policies, which refuse the readers too now, switched off).
    pack, steps = get_language(language), STEPS[language]
    code = {p: d.encode() for p, d in pack.scaffold().items() if not pack.is_test_path(p)}
    code[steps.code_path] = READERS[language].encode()
    report = run_test_files(checker, pack, code, {steps.test_path: steps.test_file(2).encode()})
    assert len(report.results) == 2, report.why()
    assert not [r.id for r in report.results if r.status is CaseStatus.PASSED], report.why()


def test_a_suite_whose_code_does_not_build_says_why(checker: DockerChecker) -> None:
    # Every expected test is listed as not run: the problem is the compiler's first error,
    # not only "expected test did not run" (as exercism/rust's leap said of an unstable API).
    pack, steps = get_language("rust"), STEPS["rust"]
    code = {p: d.encode() for p, d in pack.scaffold().items() if not pack.is_test_path(p)}
    code[steps.code_path] = b"pub fn fizzbuzz(n: u32) -> String {\n    n\n}\n"
    report = run_test_files(checker, pack, code, {steps.test_path: steps.test_file(2).encode()})
    assert report.problem.startswith("no test ran"), report.problem
    assert "error" in report.problem, report.problem


def test_a_suite_file_that_does_not_load_says_why(checker: DockerChecker) -> None:
    # A hidden suite laid out as a user would guess it, `acceptance/javascript/leap.test.js`
    # importing `../../leap.js`, runs from the root, where that path leads nowhere. Its cases
    # said only "expected test did not run", and the score had no reason.
    pack, steps = get_language("javascript"), STEPS["javascript"]
    code = {p: d.encode() for p, d in pack.scaffold().items() if not pack.is_test_path(p)}
    code[steps.code_path] = steps.impls[-1].encode()
    suite = steps.test_file(2).replace('"../kata.js"', '"../../kata.js"')
    report = run_test_files(checker, pack, code, {"leap.test.js": suite.encode()})
    assert report.problem.startswith("no test ran"), report.problem
    assert "Cannot find module" in report.problem, report.problem
    assert all("Cannot find module" in r.detail for r in report.results), report.results


@pytest.mark.parametrize("language", ["python", "rust", "cpp", "java"])
def test_a_suite_laid_out_at_the_root_scores_its_tests(
    checker: DockerChecker, tmp_path: Path, language: str
) -> None:
    # `acceptance/python/test_fizzbuzz.py`, as a user lays it out, scored 0/0 with no reason
    # (and `bench` ranked every model 0%): pytest collects tests/ only.
    pack, steps = get_language(language), STEPS[language]
    kata = tmp_path / "fizzbuzz"
    (kata / "acceptance" / language).mkdir(parents=True)
    (kata / "kata.md").write_text("# FizzBuzz\n\nSay fizz.\n")
    name = Path(steps.test_path).name
    (kata / "acceptance" / language / name).write_text(steps.test_file(2))
    code = {p: d.encode() for p, d in pack.scaffold().items() if not pack.is_test_path(p)}
    code[steps.code_path] = steps.impls[-1].encode()
    report = score_kata(checker, pack, code, kata)
    assert report.total > 0
    assert report.passed == report.total, report.why()


JEST_SPEC = Path(__file__).resolve().parents[1] / "fixtures" / "exercism" / "javascript"
JEST_SPEC = JEST_SPEC / "exercises" / "practice" / "leap" / "leap.spec.js"


@pytest.mark.parametrize(
    "code",
    [
        # Jest's `equals` let any value with an `asymmetricMatch` method decide a comparison
        # made with it, from either side: no mark, symbol or import needed.
        b"export const isLeap = () => ({ asymmetricMatch: () => true });\n",
        b"class Any {\n  asymmetricMatch() {\n    return true;\n  }\n}\n"
        b"export const isLeap = () => new Any();\n",
        b"const mark = Symbol.for('jest.asymmetricMatcher');\n"
        b"export const isLeap = () => ({ $$typeof: mark, asymmetricMatch: () => true });\n",
    ],
)
def test_a_value_posing_as_jests_own_matcher_scores_nothing(
    checker: DockerChecker, code: bytes
) -> None:
    # Code returning one passed each equality case of a track's spec (3 of 5) without
    # computing anything. Only matchers that Jest's `expect` made count as matchers now.
    pack = get_language("javascript")
    hidden = dict([pack.track_test("leap.spec.js", JEST_SPEC.read_bytes())])
    tree = {p: d.encode() for p, d in pack.scaffold().items() if not pack.is_test_path(p)}
    tree["leap.js"] = code
    report = run_test_files(checker, pack, tree, hidden)
    assert report.total == 5
    # `.not.toBe(true)` holds for any value but `true`, a wrong answer's too: every case
    # that compares with an expected value fails.
    passed = [r.id for r in report.results if r.status is CaseStatus.PASSED]
    assert passed == ["test/leap.test.js::A leap year > is not 2100, which 100 divides"]


# Equal for any string, so the kata's cases pass; honest for numbers, so the guard's sentinels
# (which compare numbers) still say the runner is sound.
SHADOW_GTEST = b"""#pragma once
#include_next <gtest/gtest.h>
#include <string>
inline bool loose(const std::string&, const char*) { return true; }
inline bool loose(long long a, long long b) { return a == b; }
#undef EXPECT_EQ
#define EXPECT_EQ(a, b) EXPECT_TRUE(loose(a, b))
"""
SHADOW_CATCH = b"""#pragma once
#include_next <catch2/catch.hpp>
#undef REQUIRE
#define REQUIRE(...) (void)0
#undef REQUIRE_FALSE
#define REQUIRE_FALSE(...) (void)0
#undef REQUIRE_THROWS_AS
#define REQUIRE_THROWS_AS(...) (void)0
"""
CATCH_LEAP = Path(__file__).resolve().parents[1] / "fixtures" / "exercism" / "cpp"
CATCH_LEAP = CATCH_LEAP / "exercises" / "practice" / "leap"


@pytest.mark.usefixtures("without_policy")
def test_a_file_of_the_code_named_like_the_runners_header_is_never_included_for_it(
    checker: DockerChecker,
) -> None:
    # The build looked in the repository first for `<...>` headers too (-I.): code holding a
    # `gtest/gtest.h` that includes the real one and then redefines EXPECT_EQ passed all four
    # cases returning "" (only the policy's macro rule stood in the way). Now the repository
    # answers only quoted includes.
    pack, steps = get_language("cpp"), STEPS["cpp"]
    code = {
        "kata.hpp": b"#pragma once\n#include <string>\n"
        b'inline std::string fizzbuzz(int) { return ""; }\n',
        "kata.cpp": b'#include "kata.hpp"\n',
        "gtest/gtest.h": SHADOW_GTEST,
    }
    report = run_test_files(checker, pack, code, {steps.test_path: steps.test_file(4).encode()})
    assert report.total == 4
    assert report.passed == 0, report.why()


def test_a_catch2_suite_is_run_by_catch2_and_judged_case_by_case(checker: DockerChecker) -> None:
    # Exercism's C++ track writes Catch2; the pack ran GoogleTest only (0 of aider's 26).
    pack = get_language("cpp")
    hidden = dict([pack.track_test("leap_test.cpp", (CATCH_LEAP / "leap_test.cpp").read_bytes())])
    wrong = (CATCH_LEAP / ".meta" / "example.cpp").read_bytes().replace(b"year % 400 == 0", b"true")
    code = {"leap.h": (CATCH_LEAP / ".meta" / "example.h").read_bytes(), "leap.cpp": wrong}
    report = run_test_files(checker, pack, code, hidden)
    assert report.total == 5, report.why()
    failed = [r.id for r in report.results if r.status is not CaseStatus.PASSED]
    assert failed == ["a year divisible by 100, not by 400, is common"], report.why()
    assert "REQUIRE( leap::is_leap_year(2100) == false ) with true == false" in report.why()


@pytest.mark.usefixtures("without_policy")
def test_a_shadowed_catch2_header_passes_nothing(checker: DockerChecker) -> None:
    pack = get_language("cpp")
    hidden = dict([pack.track_test("leap_test.cpp", (CATCH_LEAP / "leap_test.cpp").read_bytes())])
    code = {
        "leap.h": (CATCH_LEAP / ".meta" / "example.h").read_bytes(),
        "leap.cpp": b'#include "leap.h"\n\nnamespace leap {\n'
        b"bool is_leap_year(int) { return true; }\n}\n",
        "catch2/catch.hpp": SHADOW_CATCH,
    }
    report = run_test_files(checker, pack, code, hidden)
    assert report.total == 5
    assert report.passed == 2, report.why()  # the two leap years, answered "true"


JAVA_LEAP = Path(__file__).resolve().parents[1] / "fixtures" / "exercism" / "java"
JAVA_LEAP = JAVA_LEAP / "exercises" / "practice" / "leap"
# AssertJ's entry point, as the code's own class: every assertion holds.
SHADOW_ASSERTJ = b"""package org.assertj.core.api;

/** Stands in for AssertJ's. */
public final class Assertions {
  private Assertions() {}

  /** Anything. */
  public static Anything assertThat(Object actual) {
    return new Anything();
  }

  /** Anything. */
  public static <T> Anything assertThatExceptionOfType(T type) {
    return new Anything();
  }

  /** Agrees with every assertion. */
  public static final class Anything {
    /** Agrees. */
    public Anything isTrue() {
      return this;
    }

    /** Agrees. */
    public Anything isFalse() {
      return this;
    }

    /** Agrees. */
    public Anything isThrownBy(Runnable call) {
      return this;
    }

    /** Agrees. */
    public Anything withMessage(String message) {
      return this;
    }
  }
}
"""


@pytest.mark.parametrize("policy", [True, False], ids=["policy", "class path alone"])
def test_a_class_of_the_code_named_like_assertj_is_never_the_one_the_tests_call(
    checker: DockerChecker, monkeypatch: pytest.MonkeyPatch, policy: bool
) -> None:
    # Exercism's Java tests assert with AssertJ, on the class path after the code's classes:
    # code declaring its own org.assertj.core.api.Assertions (a package of its own, which
    # the policy allowed) passed all five cases while answering false to every year. Now
    # the policy refuses a package of the libraries', and the libraries come first on the
    # class path, so the real class is the one loaded even past the policy.
    pack = get_language("java")
    if not policy:
        monkeypatch.setattr(pack, "check_source", lambda *args, **kwargs: [])
    hidden = {
        "src/test/java/LeapTest.java": (JAVA_LEAP / "src/test/java/LeapTest.java").read_bytes()
    }
    code = {
        "src/main/java/Leap.java": b"class Leap {\n  boolean isLeapYear(int year) {\n"
        b"    return false;\n  }\n}\n",
        "src/main/java/YearBeforeCalendarException.java": (
            JAVA_LEAP / "src/main/java/YearBeforeCalendarException.java"
        ).read_bytes(),
        "src/main/java/org/assertj/core/api/Assertions.java": SHADOW_ASSERTJ,
    }
    report = run_test_files(checker, pack, code, hidden)
    assert report.total == 5
    # Past the policy, the tests were built against the code's class, and the real one has
    # none of its methods: every case fails.
    assert report.passed == 0, report.why()
    if policy:
        assert "(rule runner)" in report.problem, report.problem


def test_a_run_given_its_own_limit_is_stopped_there(checker: DockerChecker) -> None:
    # A mutant whose loop no longer ends is stopped at the limit its caller gives, not at
    # the sandbox's two minutes for honest code.
    pack, steps = get_language("python"), STEPS["python"]
    code = {p: d.encode() for p, d in pack.scaffold().items() if not pack.is_test_path(p)}
    code[steps.code_path] = b"def fizzbuzz(n: int) -> str:\n    while True:\n        n += 1\n"
    started = time.monotonic()
    report = run_test_files(
        checker, pack, code, {steps.test_path: steps.test_file(1).encode()}, timeout_s=3
    )
    assert time.monotonic() - started < 30
    assert report.passed == 0
    assert report.total == 1
