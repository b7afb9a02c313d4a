"""The static policy for Java: the means a kata's code needs none of, refused before anything runs.

JUnit runs the tests and the code under test in one JVM, which writes the report the verdict
is read from. So code may not end the JVM, start programs, read files, the environment or the
JVM's own properties, reach JUnit, reflect on classes, load classes or native code, or define
`equals` (a value of its own that equals whatever it is compared with). Tests may not reach
the launcher's API or end the JVM. Both may print (`System.out.println`): the guard's launcher
hands them stderr, away from its own lines (`runner._launcher_source`); the streams themselves
are not handed out.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping

from tdd_sandbox.languages.java.reader import JAVA_LEXEMES, java_text
from tdd_sandbox.languages.lexing import blank
from tdd_sandbox.vocabulary.violation import NO_TREE, Violation

_RULES = (
    ("process", r"\bSystem\s*\.\s*(?:exit|getenv|getProperty|setProperty|load|loadLibrary|"
     r"setIn|setOut|setErr|setSecurityManager)\b|\bRuntime\b|\bProcessBuilder\b|\bProcessHandle\b",
     "ends the JVM, starts programs or reads the environment"),
    ("output", r"\bSystem\s*\.\s*(?:out|err)\b", "hands out a stream of the process (code "
     "may print with System.out's print, println, printf and format)"),
    ("files", r"\bjava\s*\.\s*nio\s*\.\s*file\b|\b(?:File|FileReader|FileInputStream|"
     r"FileWriter|FileOutputStream|RandomAccessFile|Files|Paths)\b", "reads or writes files "
     "(the tests' answers among them)"),
    ("reflection", r"\bjava\s*\.\s*lang\s*\.\s*(?:reflect|invoke|instrument)\b|"
     r"\bClass\s*\.\s*forName\b|\.\s*getDeclared\w*\s*\(|\bsetAccessible\b|\bClassLoader\b|"
     r"\bUnsafe\b", "reaches into other classes"),
    ("threads", r"\bThread\b|\bExecutors?\b", "leaves threads running past the call"),
    # The runner's and its assertion libraries' packages: code that declares one (its own
    # org.assertj.core.api.Assertions) would stand in for their classes.
    ("runner", r"\borg\s*\.\s*(?:junit|opentest4j|assertj)\b|\bnet\s*\.\s*bytebuddy\b",
     "reaches into the test runner or its assertion library"),
    ("native", r"\bnative\b", "links foreign code"),
    ("equality", r"\bboolean\s+equals\s*\(", "defines equality for a value of its own"),
)  # fmt: skip
_TEST_RULES = frozenset({"process", "threads", "native"})

# The packages code may import or name: the ones that compute. java.io, java.net, java.nio,
# java.util.concurrent and the rest reach files, the network, threads or the caller by more
# routes than a block-list keeps up with (#24: a file URL, a PrintStream on /dev/stdout,
# CompletableFuture.runAsync). A package the tree declares is the kata's own.
_PURE = frozenset(
    {
        "java.lang", "java.math", "java.text", "java.time", "java.time.chrono",
        "java.time.format", "java.time.temporal", "java.util", "java.util.function",
        "java.util.random", "java.util.regex", "java.util.stream",
    }
)  # fmt: skip
_TEST_PACKAGES = ("org.junit.jupiter", "org.assertj", "org.opentest4j", "java.io", "java.nio")
# java.lang is imported without a word: its types that reach the JVM, the process, threads,
# classes or the caller, by their simple names (`System::exit` names no `System.exit(`).
_LANG = frozenset(
    {
        "System", "Runtime", "Thread", "ThreadGroup", "ThreadLocal", "InheritableThreadLocal",
        "ClassLoader", "Class", "ClassValue", "Process", "ProcessBuilder", "ProcessHandle",
        "Module", "ModuleLayer", "Package", "SecurityManager", "StackWalker",
        "StackTraceElement", "Compiler", "ScopedValue", "RuntimePermission",
    }
)  # fmt: skip
_IMPORT = re.compile(r"^[ \t]*import\s+(?:static\s+)?([\w\s.]+?)(\s*\.\s*\*)?\s*;", re.MULTILINE)
_QUALIFIED = re.compile(r"(?<![\w.])(?:java|javax|jdk|sun|com\s*\.\s*sun)(?:\s*\.\s*\w+)+")
_DECLARED = re.compile(r"\b(?:class|interface|enum|record)\s+(\w+)")
_PACKAGE = re.compile(r"^\s*package\s+([\w.\s]+?)\s*;", re.MULTILINE)
_CALLER = re.compile(
    r"\.\s*(?:getStackTrace|getResource|getResourceAsStream|getClassLoader|"
    r"getModule|getProtectionDomain|getCallerClass)\b"
)
_LAUNCHER = re.compile(r"\borg\s*\.\s*junit\s*\.\s*platform\b")
_PRINTS = re.compile(
    r"\bSystem\s*\.\s*(?:out|err)\s*(?:\.|::)\s*(?:println|print|printf|format)\b(?!\s*\.)"
)
"""Printing, which code may do: what it prints goes to stderr (see the module's docstring)."""


def check_java(
    path: str, text: str, *, is_test: bool = False, tree: Mapping[str, bytes] = NO_TREE
) -> list[Violation]:
    """Violations in one Java file: the packages it imports or names held to the allow-list
    (the kata's own from `tree`). Tests may use JUnit and AssertJ, print and read files; they
    may not end the JVM or reach JUnit's launcher."""
    code = blank(java_text(text), JAVA_LEXEMES)  # as javac reads it: escapes undone first
    code = _PRINTS.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), code)
    found = _packages(path, code, is_test=is_test, tree=tree)
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


def _packages(path: str, code: str, *, is_test: bool, tree: Mapping[str, bytes]) -> list[Violation]:
    """Imports and qualified names outside the allow-list; java.lang's reaching types named
    in code; the caller's stack and the class's resources."""
    found: list[Violation] = []

    def flag(offset: int, rule: str, why: str) -> None:
        found.append(Violation(path, code.count("\n", 0, offset) + 1, rule, why))

    texts = [blank(java_text(d.decode("utf-8", "replace")), JAVA_LEXEMES) for p, d in
             tree.items() if p.endswith(".java")] + [code]  # fmt: skip
    own = {re.sub(r"\s", "", m.group(1)) for t in texts for m in _PACKAGE.finditer(t)}
    declared = {m.group(1) for t in texts for m in _DECLARED.finditer(t)}
    imports = list(_IMPORT.finditer(code))
    named = [m for m in _QUALIFIED.finditer(code) if not any(i.start() <= m.start() < i.end()
                                                             for i in imports)]  # fmt: skip
    for match in [*imports, *named]:  # an import line is read once, as an import
        parts = re.sub(r"\s", "", match.group(1) if match.re is _IMPORT else match.group(0))
        segments = parts.split(".")
        wildcard = match.re is _IMPORT and match.group(2) is not None
        if not wildcard:  # the package: the segments before the first type's name
            segments = list(itertools.takewhile(lambda s: s[:1].islower(), segments))
        package = ".".join(segments)
        if package in _PURE or package in own:
            continue
        if is_test and (package.startswith(_TEST_PACKAGES) or not _QUALIFIED.match(parts)):
            continue  # a RED test may import the kata's package before it exists
        flag(
            match.start(),
            f"import:{package}",
            f"uses {package}, which is not among the "
            "packages a kata's code may use (the computing parts of the JDK and its own)",
        )
    if is_test:
        return found
    for match in re.finditer(r"(?<![\w.$])([A-Z]\w*)\b", code):
        name = match.group(1)
        if name in _LANG and name not in declared:
            flag(match.start(), f"lang:{name}", f"{name} reaches the JVM, the process, "
                 "threads, classes or the caller")  # fmt: skip
    for match in _CALLER.finditer(code):
        flag(match.start(), "caller", f"{match.group(0).strip()!r} finds the caller or the "
             "files beside the class")  # fmt: skip
    return found
