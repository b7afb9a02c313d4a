"""The Java plug-in on captured JUnit console-launcher output and on source text (no Docker)."""

from __future__ import annotations

from pathlib import Path

from tdd_sandbox.grading.evidence import cross_check
from tdd_sandbox.languages.java.plugin import JAVA
from tdd_sandbox.sandbox.base import ExecResult
from tdd_sandbox.vocabulary.cases import CallMap, Case
from tdd_sandbox.vocabulary.results import TestStatus

# JUnit 5 (the image's console launcher) on a passing, a failing and a disabled test.
FIXTURES = Path(__file__).parents[1] / "fixtures" / "java"
REPORT = (FIXTURES / "report.xml").read_bytes()
CONSOLE = (FIXTURES / "console.txt").read_text()
NONCE = "0123456789abcdef"


def _result(stdout: str, code: int = 1) -> ExecResult:
    return ExecResult(exit_code=code, stdout=stdout, stderr="", duration_s=0.1)


def test_parses_the_xml_report_and_the_console_alike() -> None:
    outcomes = {o.id: o for o in JAVA.parse_results(_result(CONSOLE), REPORT)}
    expected = {
        "FizzBuzzTest.one": TestStatus.PASSED,
        "FizzBuzzTest.five": TestStatus.FAILED,
        "FizzBuzzTest.later": TestStatus.SKIPPED,
    }
    assert {i: o.status for i, o in outcomes.items()} == expected
    assert "expected: <Buzz> but was: <5>" in outcomes["FizzBuzzTest.five"].message
    assert dict(JAVA.evidence(_result(CONSOLE), NONCE).outcomes) == expected
    assert JAVA.parse_results(_result(""), b"<testsuite")[0].status is TestStatus.ERROR


def test_expected_tests_are_the_test_methods_of_test_classes() -> None:
    files = {
        "test/KataTest.java": b"class KataTest {\n  @Test\n  void one() {}\n"
        b'  @Test @DisplayName("x") public void two() {}\n  // @Test void gone() {}\n'
        b"  void helper() {}\n}\n",
        "test/Helper.java": b"class Helper {\n  @Test\n  void notScanned() {}\n}\n",
        "src/Kata.java": b"class Kata {\n  @Test\n  void code() {}\n}\n",
    }
    assert JAVA.expected_tests(files) == {"KataTest.one", "KataTest.two"}


def test_paths_scaffold_and_detection() -> None:
    scaffold = {path: text.encode() for path, text in JAVA.scaffold().items()}
    assert JAVA.detect(scaffold)
    assert JAVA.expected_tests(scaffold) == {"ScaffoldTest.runs"}
    assert JAVA.suggest_paths(scaffold, "fizz-buzz") == ("test/KataTest.java", ["src/Kata.java"])
    assert JAVA.is_runner_config("pom.xml")
    assert JAVA.is_runner_config("junit-platform.properties")
    assert JAVA.defines_tests("src/Kata.java", "import org.junit.jupiter.api.Test;\n")


def _console(lines: list[str], finished: bool = True) -> str:
    tail = ["Test run finished after 12 ms"] if finished else []
    return "\n".join([*lines, *tail, f"@@{NONCE} end", ""])


def _finished(owner: str, method: str, failed: bool = False) -> list[str]:
    unique = f"[engine:junit-jupiter]/[class:{owner}]/[method:{method}()]"
    line = f"Finished:    {method}() ({unique})"
    return [line, "             => Exception: boom"] if failed else [line]


def test_an_honest_guarded_run_agrees_and_hides_the_sentinels() -> None:
    owner = "TddCheck012345Test"
    lines = [
        *_finished("KataTest", "one"),
        *_finished(owner, "p6789ab"),
        *_finished(owner, "fcdef", failed=True),
    ]
    report = (
        b'<testsuite><testcase name="one()" classname="KataTest"/>'
        b'<testcase name="p6789ab()" classname="TddCheck012345Test"/>'
        b'<testcase name="fcdef()" classname="TddCheck012345Test"><failure message="x"/>'
        b"</testcase></testsuite>"
    )
    result = _result(_console(lines))
    evidence = JAVA.evidence(result, NONCE)
    assert evidence.ended
    own, code, tamper = cross_check(JAVA.parse_results(result, report), evidence, 1)
    assert tamper is None
    assert code == 0
    assert [o.id for o in own] == ["KataTest.one"]


def test_a_forged_report_without_the_sentinels_is_tamper() -> None:
    report = b'<testsuite><testcase name="one()" classname="KataTest"/></testsuite>'
    result = _result(_console(_finished("KataTest", "one")), 0)
    _, _, tamper = cross_check(JAVA.parse_results(result, report), JAVA.evidence(result, NONCE), 0)
    assert tamper is not None
    assert "TddCheck" in tamper.detail
    assert not JAVA.evidence(_result(_console([], finished=False)), NONCE).ended


def test_a_data_suite_ships_the_code_and_never_the_tests_of_a_gradle_layout() -> None:
    # The driver shipped every .java under src/: in Gradle's layout that is the tests too
    # (src/test/java, which import JUnit), and the driver's build, which has no JUnit, failed.
    files = {
        "src/main/java/Leap.java": b"class Leap {}\n",
        "src/test/java/LeapTest.java": b"import org.junit.jupiter.api.Test;\nclass LeapTest {}\n",
        "test/OtherTest.java": b"class OtherTest {}\n",
    }
    case = Case(id="a", description="", property="leapYear", input={"year": 1}, expected=True)
    calls = CallMap(calls={"leapYear": "new Leap().isLeapYear(${year})"})
    prepared = JAVA.driver.prepare(files, [case], calls, "0123456789abcdef")
    shipped = sorted(p for p in prepared.files if p.endswith(".java"))
    assert shipped == [".tdd/acceptance/TddAcceptance.java", "src/main/java/Leap.java"]
