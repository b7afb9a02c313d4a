"""Java's runner: its gates, the guard around its test command, and what the runner
reports."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from pathlib import PurePosixPath

from tdd_sandbox.languages.base import RunnerDefaults
from tdd_sandbox.languages.java.reader import JAVA_LEXEMES, java_text
from tdd_sandbox.languages.lexing import blank
from tdd_sandbox.languages.readout import NEXT_UNINDENTED, SentinelReports
from tdd_sandbox.sandbox.base import ExecResult
from tdd_sandbox.vocabulary.results import Evidence, GateKind, TestOutcome, TestStatus

JUNIT = "/opt/junit-console.jar"


RESULTS = "/tmp/junit/TEST-junit-jupiter.xml"


# The libraries code may build against (org.json: Exercism's rest-api), and what tests add:
# AssertJ, which Exercism's Java track asserts with, and Byte Buddy, which AssertJ loads.
_LIBS = "/opt/java/json-latest.jar"


_TEST_LIBS = f"{JUNIT}:/opt/java/assertj-core.jar:/opt/java/byte-buddy.jar:{_LIBS}"


# A small heap, the serial collector and the quick compiler: the JVM starts fast and stays
# inside the sandbox's memory limit.
_JVM = "-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xmx256m"


_JAVAC = f"javac -J{_JVM.replace(' ', ' -J')} -encoding UTF-8"


# Tests live in test/ or, as Gradle and Maven lay them out, in src/test/.
_MAIN = "$(find src -path src/test -prune -o -name '*.java' -print 2>/dev/null)"


_ALL = "$(find src test -name '*.java' 2>/dev/null)"


# Every lint but `serial`: a kata's exception class need not say how it is serialised (none
# of Exercism's does), and nothing here serialises one.
_LINT = (
    f"mkdir -p /tmp/lint && exec {_JAVAC} -Xlint:all,-serial -Werror -cp {_LIBS} -d /tmp/lint "
    f"{_MAIN}\n"
)


_BUILD = f"mkdir -p /tmp/classes && exec {_JAVAC} -d /tmp/classes -cp {_TEST_LIBS} {_ALL}\n"


def _launch(classes: str, entry: str = f"-jar {JUNIT}") -> str:
    """The console launcher, started by `entry`, running the test classes found in `classes`
    (and nowhere in the libraries beside them). The libraries come first on the class path: a
    class of the code's named like one of theirs (its own `org.assertj.core.api.Assertions`)
    is never the one loaded."""
    return (
        f"java {_JVM} {entry} execute --disable-banner --disable-ansi-colors --details=flat "
        "--include-engine=junit-jupiter --reports-dir /tmp/junit "
        f"--class-path {_TEST_LIBS}:{classes} --scan-class-path {classes}"
    )


_TEST = (
    f"[ -d /tmp/classes ] || {{ mkdir -p /tmp/classes && {_JAVAC} -d /tmp/classes "
    f"-cp {_TEST_LIBS} {_ALL}; }} || exit 2\nexec {_launch('/tmp/classes')}\n"
)


# Guarded, the build adds a test class of two sentinels (one must pass, one must fail) to its
# own class folder, and the launcher's class (`_launcher_source`) to a folder of its own; the
# test gate runs those classes through it. A build failure exits 2: no test ran.
_GUARD_BUILD = (
    r"""
n=$1; out=/tmp/tdd-guard-$n; classes=/tmp/guarded-$n
mkdir -p "$out" || exit 3
if [ ! -d "$classes" ]; then
  printf '%s' "$3" > "$out/$2.java" && printf '%s' "$5" > "$out/$4.java" || exit 3
  mkdir -p "$classes.part" "$classes.launch" || exit 3
"""
    + f'  {_JAVAC} -d "$classes.part" -cp {_TEST_LIBS} {_ALL} "$out/$2.java" "$out/$4.java" '
    + "|| exit 2\n"
    + '  mv "$classes.part/$4.class" "$classes.launch/" && mv "$classes.part" "$classes" '
    + "|| exit 3\nfi\n"
)


_GUARD_TEST = (
    _GUARD_BUILD
    + _launch('"$classes"', entry=f'-cp {JUNIT}:"$classes.launch" "$4"')
    + "; status=$?\n"
    + "printf '\\n@@%s end\\n' \"$n\"\nexit $status\n"
)


_EVENT = re.compile(r"^(Finished|Skipped):\s+\S.* \((\[engine:junit-jupiter\]\S*)\)$")


_CLASS = re.compile(r"\[class:([\w$.]+)\]")


_METHOD = re.compile(r"\[(?:method|test-template):(\w+)\(")


_INVOCATION = re.compile(r"\[test-template-invocation:#(\d+)\]")


_TEST_METHOD = re.compile(
    r"@(?:org\.junit\.jupiter\.api\.)?Test\b\s*(?:@[\w.]+(?:\([^)]*\))?\s*)*"
    r"(?:(?:public|protected|private|static|final)\s+)*void\s+(\w+)\s*\("
)


_TEST_CLASS = re.compile(r"^(Test\w*|\w*Tests?)$")


JUNIT_SENTINELS = SentinelReports(
    opens=re.compile(r"\[class:TddCheck[0-9a-f]{6}Test\]"), closes=NEXT_UNINDENTED
)
"""Where the console launcher reports the sentinel class (`_sentinel_class`): its lines, and
a failure's trace indented below one."""


class JavaRunner(RunnerDefaults):
    """javac's lint, a build and JUnit 5 under the guard; results from its XML report,
    checked against its console lines."""

    seals_tests = True
    sentinel_reports = JUNIT_SENTINELS
    results_path: str | None = RESULTS
    collects = (
        "an @Test void method of a class in test/ (or src/test/java/), in a file named after "
        "the class, the name starting with Test or ending with Test or Tests"
    )
    # javac's lint on the code, the build of code and tests, the tests.
    shell_gates: tuple[tuple[GateKind, str], ...] = (
        (GateKind.LINT, _LINT),
        (GateKind.BUILD, _BUILD),
        (GateKind.TEST, _TEST),
    )

    def format_command(self, path: str) -> tuple[str, ...] | None:
        """None: the image has no Java formatter."""
        return None

    def expected_tests(self, files: Mapping[str, bytes]) -> frozenset[str]:
        """`@Test` methods of the test classes, as `Class.method`."""
        found: set[str] = set()
        for path, data in files.items():
            pure = PurePosixPath(path)
            if not self.is_test_path(path) or pure.suffix != ".java":
                continue
            if not _TEST_CLASS.match(pure.stem):
                continue
            code = blank(java_text(data.decode("utf-8", "replace")), JAVA_LEXEMES)
            found.update(f"{pure.stem}.{name}" for name in _TEST_METHOD.findall(code))
        return frozenset(found)

    def test_mistake(self, files: Mapping[str, bytes], outcome: TestOutcome) -> str | None:
        """None: a missing method is a build failure, which is how a RED starts."""
        return None

    def guard(self, command: tuple[str, ...], nonce: str) -> tuple[str, ...] | None:
        """The build and the test run with the sentinel class; None for other commands."""
        scripts: dict[tuple[str, ...], str] = {
            ("sh", "-c", _BUILD): _GUARD_BUILD,
            ("sh", "-c", _TEST): _GUARD_TEST,
        }
        script = scripts.get(command)
        if script is None:
            return None
        name, launcher = _sentinel_class(nonce), _launcher_class(nonce)
        return ("sh", "-c", script, "guard", nonce, name, _sentinel_source(nonce), launcher,
                _launcher_source(launcher))  # fmt: skip

    def evidence(self, result: ExecResult, nonce: str) -> Evidence:
        """The console launcher's lines (written apart from its XML report), its closing line
        and the shell's end of the run."""
        outcomes: dict[str, TestStatus] = {}
        conflicts: list[str] = []
        finished = ended = False
        lines = result.stdout.splitlines()
        for index, line in enumerate(lines):
            if line.strip() == f"@@{nonce} end":
                ended = finished
            elif line.startswith("Test run finished after"):
                finished = True
            elif (event := _EVENT.match(line.rstrip())) and (test_id := _unique_id(event[2])):
                following = lines[index + 1] if index + 1 < len(lines) else ""
                status = (
                    TestStatus.SKIPPED
                    if event[1] == "Skipped"
                    else TestStatus.FAILED
                    if following.strip().startswith("=> Exception")
                    else TestStatus.PASSED
                )
                if outcomes.get(test_id, status) is not status:
                    conflicts.append(test_id)
                outcomes[test_id] = status
        passing, failing = _sentinel_names(nonce)
        return Evidence(
            outcomes=outcomes,
            ended=ended,
            sentinels={passing: TestStatus.PASSED, failing: TestStatus.FAILED},
            conflicts=tuple(conflicts),
        )

    def parse_results(self, result: ExecResult, report: bytes | None) -> list[TestOutcome]:
        """Each `<testcase>` of the launcher's XML report as `Class.method` (a parametrised
        invocation as `Class.method[1]`)."""
        if not report:
            return []
        try:
            root = ET.fromstring(report)  # noqa: S314 - written by JUnit, size-capped on read
        except ET.ParseError as exc:
            return [TestOutcome("<junit>", TestStatus.ERROR, f"unreadable XML report: {exc}")]
        outcomes = []
        for case in root.iter("testcase"):
            name = re.sub(r"\([^)]*\)", "", case.get("name", ""))
            test_id = f"{case.get('classname', '')}.{name}"
            problem = case.find("failure")
            if problem is None:
                problem = case.find("error")
            if problem is not None:
                message = problem.get("message") or (problem.text or "")
                outcomes.append(TestOutcome(test_id, TestStatus.FAILED, message.strip()[:2000]))
            elif case.find("skipped") is not None:
                outcomes.append(TestOutcome(test_id, TestStatus.SKIPPED))
            else:
                outcomes.append(TestOutcome(test_id, TestStatus.PASSED))
        return outcomes


def _unique_id(unique: str) -> str | None:
    """`Class.method` (or `Class.method[2]`) from a JUnit unique id; None for containers."""
    found_class, method = _CLASS.findall(unique), _METHOD.search(unique)
    if not found_class or method is None:
        return None
    invocation = _INVOCATION.search(unique)
    suffix = f"[{invocation[1]}]" if invocation else ""
    return f"{found_class[-1]}.{method[1]}{suffix}"


def _sentinel_class(nonce: str) -> str:
    return f"TddCheck{nonce[:6]}Test"


def _launcher_class(nonce: str) -> str:
    return f"TddLaunch{nonce[:6]}"


def _launcher_source(name: str) -> str:
    """The console launcher's entry, keeping the process's stdout for the launcher's lines
    (the channel the verdict is checked against) and handing every other writer, the code's
    and the tests' `System.out` among them, stderr: what they print, honest or forged, never
    reaches the channel (code may print: its `System.setOut` stays refused)."""
    return (
        "import java.io.FileDescriptor;\nimport java.io.FileOutputStream;\n"
        "import java.io.PrintWriter;\nimport org.junit.platform.console.ConsoleLauncher;\n\n"
        f"public final class {name} {{\n"
        "  public static void main(String[] args) {\n"
        "    PrintWriter out = new PrintWriter(new FileOutputStream(FileDescriptor.out), true);\n"
        "    PrintWriter err = new PrintWriter(System.err, true);\n"
        "    System.setOut(System.err);\n"
        "    int status = ConsoleLauncher.run(out, err, args).getExitCode();\n"
        "    out.flush();\n    err.flush();\n    System.exit(status);\n  }\n}\n"
    )


def _sentinel_names(nonce: str) -> tuple[str, str]:
    owner = _sentinel_class(nonce)
    return f"{owner}.p{nonce[6:12]}", f"{owner}.f{nonce[12:16]}"


def _sentinel_source(nonce: str) -> str:
    """The sentinel class: one test must pass, one must fail."""
    passing, failing = (name.split(".")[1] for name in _sentinel_names(nonce))
    a, b = int(nonce[:4], 16), int(nonce[4:8], 16)
    return (
        "import org.junit.jupiter.api.Assertions;\nimport org.junit.jupiter.api.Test;\n\n"
        f"class {_sentinel_class(nonce)} {{\n"
        f"  @Test\n  void {passing}() {{\n"
        f"    Assertions.assertEquals({a + b}, {a} + {b});\n  }}\n\n"
        f"  @Test\n  void {failing}() {{\n"
        f"    Assertions.assertEquals({a * b + 1}L, {a}L * {b});\n  }}\n"
        "}\n"
    )
