"""What Java code and tests print never reaches the runner's channel: the guard's launcher keeps
stdout for its own lines and hands `System.out` stderr; a scored case's process does the same.
So code may print, as a model's debugging `main` does."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tdd_sandbox.acceptance.scorer import score_kata
from tdd_sandbox.acceptance.testfiles import run_test_files
from tdd_sandbox.execution.docker_checker import DockerChecker
from tdd_sandbox.grading.gates import GateResult, GateStatus
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.settings import load_settings
from tests.helpers.gates import run_test_gate

pytestmark = [pytest.mark.docker, pytest.mark.usefixtures("images")]
FIZZBUZZ = Path(__file__).resolve().parents[2] / "katas" / "fizzbuzz"
LEAP = Path(__file__).resolve().parents[1] / "fixtures" / "exercism" / "java"
LEAP = LEAP / "exercises" / "practice" / "leap"

PRINTS = """\
/** FizzBuzz, with a model's debugging prints and its own main. */
public final class Kata {
  private Kata() {}

  public static String fizzbuzz(int n) {
    System.out.println("fizzbuzz of " + n);
    System.err.printf("%d%n", n);
    String word = (n % 3 == 0 ? "Fizz" : "") + (n % 5 == 0 ? "Buzz" : "");
    return word.isEmpty() ? String.valueOf(n) : word;
  }

  public static void main(String[] args) {
    java.util.List.of(3, 5).forEach(System.out::println);
  }
}
"""
LEAP_PRINTS = """\
class Leap {
  boolean isLeapYear(int year) {
    if (year < 1582) {
      throw new YearBeforeCalendarException(year);
    }
    System.out.println("leap? " + year);
    return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
  }

  public static void main(String[] args) {
    System.out.println(new Leap().isLeapYear(2000));
  }
}
"""
TEST = """\
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

class KataTest {
  @Test
  void fizz() {
    System.out.println("asking for 3");
    Assertions.assertEquals("Fizz", Kata.fizzbuzz(3));
  }
}
"""
# The console launcher's own line for a test that passed, printed by the test itself before
# it fails: on the launcher's stdout it is a second, conflicting report of the same test.
FORGED = TEST.replace(
    'System.out.println("asking for 3");',
    'System.out.println("Finished:    fizz() ([engine:junit-jupiter]/[class:KataTest]/'
    '[method:fizz()])");\n    Assertions.fail("never passes");',
)


@pytest.fixture(scope="module")
def checker() -> Iterator[DockerChecker]:
    """One checker for the module."""
    with DockerChecker(load_settings(), run_id="pytest-java-console") as made:
        yield made


def _test_gate(checker: DockerChecker, files: dict[str, str]) -> GateResult:
    language = get_language("java")
    return run_test_gate(checker, language, {**language.scaffold(), **files})


def test_code_and_tests_print_and_still_pass(checker: DockerChecker) -> None:
    gate = _test_gate(checker, {"src/Kata.java": PRINTS, "test/KataTest.java": TEST})
    assert gate.status is GateStatus.PASSED, gate.reason
    assert gate.result is not None
    assert "asking for 3" not in gate.result.stdout
    assert "fizzbuzz of 3" not in gate.result.stdout


def test_a_printed_report_line_never_reaches_the_launchers_channel(checker: DockerChecker) -> None:
    # Before, the forged line reached the channel: the run was judged by a conflict (tamper),
    # not by what the test did. Now the channel holds the launcher's lines alone.
    gate = _test_gate(checker, {"src/Kata.java": PRINTS, "test/KataTest.java": FORGED})
    assert gate.status is GateStatus.FAILED, gate.reason
    assert gate.tamper is None, gate.tamper
    assert [o.status.value for o in gate.tests if o.id == "KataTest.fizz"] == ["failed"]


def test_a_scored_case_prints_and_is_scored_as_its_answer(checker: DockerChecker) -> None:
    # Judged as data: each case's process hands the code stderr.
    language = get_language("java")
    report = score_kata(checker, language, {"src/Kata.java": PRINTS.encode()}, FIZZBUZZ)
    assert report.total > 0
    assert report.passed == report.total, report.why()


def test_code_that_prints_is_scored_by_hidden_test_files(checker: DockerChecker) -> None:
    # Judged by the exercise's own test files, under the policy: the 0.5B's dominoes answer
    # (a debugging main printing with System.out) was counted as tamper there.
    hidden = {"src/test/java/LeapTest.java": (LEAP / "src/test/java/LeapTest.java").read_bytes()}
    code = {
        "src/main/java/Leap.java": LEAP_PRINTS.encode(),
        "src/main/java/YearBeforeCalendarException.java": (
            LEAP / "src/main/java/YearBeforeCalendarException.java"
        ).read_bytes(),
    }
    report = run_test_files(checker, get_language("java"), code, hidden)
    assert report.total == 5
    assert report.tamper == "", report.problem
    assert report.passed == report.total, report.why()
