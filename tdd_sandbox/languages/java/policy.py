"""The static policy for Java: the means a kata's code needs none of, refused before anything runs.

JUnit runs the tests and the code under test in one JVM, which writes the report the verdict
is read from. So code may not end the JVM, start programs, read files, the environment or the
JVM's own properties, print (the console is the second channel), reach JUnit, reflect on
classes, load classes or native code, or define `equals` (a value of its own that equals
whatever it is compared with). Tests may not reach the launcher's API or end the JVM.
"""

from __future__ import annotations

import re

from tdd_sandbox.languages.java.reader import JAVA_LEXEMES, java_text
from tdd_sandbox.languages.lexing import blank
from tdd_sandbox.vocabulary.violation import Violation

_RULES = (
    ("process", r"\bSystem\s*\.\s*(?:exit|getenv|getProperty|setProperty|load|loadLibrary|"
     r"setIn|setOut|setErr|setSecurityManager)\b|\bRuntime\b|\bProcessBuilder\b|\bProcessHandle\b",
     "ends the JVM, starts programs or reads the environment"),
    ("output", r"\bSystem\s*\.\s*(?:out|err)\b", "writes to the runner's output, where "
     "results are read"),
    ("files", r"\bjava\s*\.\s*nio\s*\.\s*file\b|\b(?:File|FileReader|FileInputStream|"
     r"FileWriter|FileOutputStream|RandomAccessFile|Files|Paths)\b", "reads or writes files "
     "(the tests' answers among them)"),
    ("reflection", r"\bjava\s*\.\s*lang\s*\.\s*(?:reflect|invoke|instrument)\b|"
     r"\bClass\s*\.\s*forName\b|\.\s*getDeclared\w*\s*\(|\bsetAccessible\b|\bClassLoader\b|"
     r"\bUnsafe\b", "reaches into other classes"),
    ("threads", r"\bThread\b|\bExecutors?\b", "leaves threads running past the call"),
    ("runner", r"\borg\s*\.\s*(?:junit|opentest4j)\b", "reaches into the test runner"),
    ("native", r"\bnative\b", "links foreign code"),
    ("equality", r"\bboolean\s+equals\s*\(", "defines equality for a value of its own"),
)  # fmt: skip
_TEST_RULES = frozenset({"process", "threads", "native"})
_LAUNCHER = re.compile(r"\borg\s*\.\s*junit\s*\.\s*platform\b")


def check_java(path: str, text: str, *, is_test: bool = False) -> list[Violation]:
    """Violations in one Java file. Tests may use JUnit, print and read files; they may not
    end the JVM or reach JUnit's launcher."""
    found: list[Violation] = []
    code = blank(java_text(text), JAVA_LEXEMES)  # as javac reads it: escapes undone first
    for rule, pattern, why in _RULES:
        if is_test and rule not in _TEST_RULES:
            continue
        for match in re.finditer(pattern, code):
            line = code.count("\n", 0, match.start()) + 1
            found.append(Violation(path, line, rule, f"{match.group(0).strip()!r} {why}"))
    if is_test:
        for match in _LAUNCHER.finditer(code):
            line = code.count("\n", 0, match.start()) + 1
            found.append(Violation(path, line, "runner", "reaches JUnit's launcher"))
    return found
