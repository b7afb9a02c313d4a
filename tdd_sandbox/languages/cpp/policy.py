"""The static policy for C++: the means a kata's code needs none of, refused before anything runs.

GoogleTest runs the tests and the code under test in one process, which writes the report
the verdict is read from. So code may not end the process or leave it early, start programs,
read or write files or the environment, print (the console lines are the second channel),
reach GoogleTest, run code before `main` or in assembly, or define `==`/`!=` (a value of its
own that equals whatever it is compared with). Tests may not define `main` or reach the
runner's listeners.
"""

from __future__ import annotations

import re

from tdd_sandbox.languages.cpp.reader import CPP_LEXEMES, cpp_text
from tdd_sandbox.languages.lexing import blank
from tdd_sandbox.vocabulary.violation import Violation

_INCLUDES = {
    "fstream": "reads or writes files (the tests' answers among them)",
    "filesystem": "reads or writes files (the tests' answers among them)",
    "cstdio": "reads files and writes to the runner's output",
    "stdio.h": "reads files and writes to the runner's output",
    "iostream": "writes to the runner's output, where results are read",
    "unistd.h": "reaches the process and its files",
    "dlfcn.h": "loads foreign code",
    "csignal": "installs signal handlers",
    "signal.h": "installs signal handlers",
    "csetjmp": "jumps past the runner",
    "thread": "leaves threads running past the call",
    "gtest": "reaches into the test runner",
    "gmock": "reaches into the test runner",
}
_NAMES = (
    ("process", r"\b(?:std\s*::\s*)?(?:_?exit|_Exit|quick_exit|abort|atexit|at_quick_exit|"
     r"system|popen|fork|exec[lv]p?e?|getenv|kill|raise)\s*\(", "ends the process, starts "
     "programs or reads the environment"),
    ("output", r"\b(?:std\s*::\s*)?(?:cout|printf|puts|putchar|fwrite|write)\b", "writes to "
     "the runner's output, where results are read"),
    ("runner", r"\btesting\s*::|\bUnitTest\b|\bTestEventListener", "reaches into the test "
     "runner"),
    ("asm", r"\b(?:asm|__asm__)\b", "writes machine code"),
    ("before-main", r"__attribute__\s*\(\s*\(\s*(?:constructor|destructor)|\[\[\s*gnu\s*::\s*"
     r"(?:constructor|destructor)", "runs code before or after the tests"),
    ("linkage", r"\bextern\s+\"C\"|#\s*pragma\s+(?!once\b)|\b_Pragma\b|"
     r"#\s*define\s+(?:main|TEST|EXPECT|ASSERT)", "hooks the linker or the runner's macros"),
    ("macro", r"#\s*define\s+\w+(?:\(|[ \t]+\S)|##", "builds a name out of pieces no "
     "reader of the text sees whole (a macro with a body, token pasting)"),
    ("equality", r"\boperator\s*(?:==|!=|<=>)", "defines equality for a value of its own"),
)  # fmt: skip
_INCLUDE = re.compile(r"^[ \t]*(#)[ \t]*include\b[ \t]*(?:([<\"])([^>\"\n]+)[>\"])?", re.MULTILINE)
_MAIN = re.compile(r"\bint\s+main\s*\(")


def check_cpp(path: str, text: str, *, is_test: bool = False) -> list[Violation]:
    """Violations in one C++ file. Tests may include GoogleTest and print; they may not define
    `main` or reach the runner's listeners."""
    found: list[Violation] = []
    text = cpp_text(text)  # as the preprocessor reads it: lines spliced, digraphs undone
    code = blank(text, CPP_LEXEMES)

    def flag(offset: int, rule: str, why: str) -> None:
        found.append(Violation(path, code.count("\n", 0, offset) + 1, rule, why))

    for match in _INCLUDE.finditer(text):
        if code[match.start(1)] != "#":
            continue  # inside a comment or a literal
        if match.group(2) is None:
            flag(match.start(), "macro", "includes a header named by a macro, which no reader "
                 "of the text sees")  # fmt: skip
            continue
        name = match.group(3).strip()
        root = name.split("/")[0]
        if match.group(2) == '"' and (".." in name or name.startswith(("/", "tests/"))):
            flag(match.start(), "include:path", f"includes {name!r}: a file outside the code")
        elif root in _INCLUDES and not (is_test and root in ("gtest", "gmock", "iostream")):
            flag(match.start(), f"include:{root}", f"includes <{name}>, which {_INCLUDES[root]}")
    for rule, pattern, why in _NAMES:
        if is_test and rule in ("output", "equality"):
            continue
        if is_test and rule == "runner":
            pattern = r"\bUnitTest\b|\bTestEventListener|\bAddGlobalTestEnvironment"
        for match in re.finditer(pattern, code):
            flag(match.start(), rule, f"{match.group(0).strip()!r} {why}")
    if is_test:
        for match in _MAIN.finditer(code):
            flag(match.start(), "main", "a main of its own takes over how the tests run")
    return found
