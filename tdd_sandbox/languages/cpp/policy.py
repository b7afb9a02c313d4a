"""The static policy for C++: the means a kata's code needs none of, refused before anything runs.

GoogleTest (or Catch2) runs the tests and the code under test in one process, which writes the
report the verdict is read from. So code may not end the process or leave it early, start programs,
read or write files or the environment, print (the console lines are the second channel),
reach GoogleTest, run code before `main` or in assembly, or define `==`/`!=` (a value of its
own that equals whatever it is compared with). Tests may not define `main` or reach the
runner's listeners.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from tdd_sandbox.languages.cpp.reader import CPP_LEXEMES, cpp_text
from tdd_sandbox.languages.lexing import blank
from tdd_sandbox.vocabulary.violation import NO_TREE, Violation

# The headers code may include: the ones that compute. Anything else (<cwchar>'s wprintf,
# <print>, <source_location>, <fcntl.h> and <sys/mman.h>...) reaches the output, the files or
# the caller by more routes than a block-list keeps up with (#24).
_PURE = frozenset(
    {
        "algorithm", "any", "array", "bit", "bitset", "cassert", "cctype", "cfloat",
        "charconv", "cinttypes", "climits", "cmath", "compare", "complex", "concepts",
        "cstddef", "cstdint", "cstdlib", "cstring", "cwctype", "deque", "exception",
        "expected", "format", "forward_list", "functional", "initializer_list", "iomanip",
        "ios", "iosfwd", "istream", "iterator", "limits", "list", "map", "memory", "numbers",
        "numeric", "optional", "ostream", "queue", "random", "ranges", "ratio", "regex", "set",
        "span", "sstream", "stack", "stdexcept", "string", "string_view", "tuple",
        "type_traits", "unordered_map", "unordered_set", "utility", "valarray", "variant",
        "vector", "assert.h", "ctype.h", "float.h", "inttypes.h", "limits.h", "math.h",
        "stdbool.h", "stddef.h", "stdint.h", "stdlib.h", "string.h",
    }
)  # fmt: skip
_TEST_HEADERS = frozenset({"gtest", "gmock", "iostream", "catch2"})
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
    ("runner", r"\btesting\s*::|\bCatch\s*::|\bUnitTest\b|\bTestEventListener", "reaches into "
     "the test runner"),
    ("asm", r"\b(?:asm|__asm__)\b", "writes machine code"),
    ("before-main", r"__attribute__\s*\(\s*\(\s*(?:constructor|destructor)|\[\[\s*gnu\s*::\s*"
     r"(?:constructor|destructor)", "runs code before or after the tests"),
    ("linkage", r"\bextern\s+\"C\"|#\s*pragma\s+(?!once\b)|\b_Pragma\b|"
     r"#\s*define\s+(?:main|TEST|EXPECT|ASSERT)", "hooks the linker or the runner's macros"),
    ("macro", r"#\s*define\s+\w+(?:\(|[ \t]+\S)|##", "builds a name out of pieces no "
     "reader of the text sees whole (a macro with a body, token pasting)"),
    ("equality", r"\boperator\s*(?:==|!=|<=>)", "defines equality for a value of its own"),
)  # fmt: skip
_NAMESPACE = re.compile(r"\bnamespace\s+(testing|std|gtest|Catch|__\w+)\b")
# The compiler's builtins and macros (`__builtin_LINE()`, `__FILE__`) all start with two
# underscores; a single one before a capital (an old include guard) is the library's only in
# name.
_RESERVED = re.compile(r"(?<![\w$])__\w+")
_INCLUDE = re.compile(r"^[ \t]*(#)[ \t]*include\b[ \t]*(?:([<\"])([^>\"\n]+)[>\"])?", re.MULTILINE)
_MAIN = re.compile(r"\bint\s+main\s*\(")


def check_cpp(
    path: str, text: str, *, is_test: bool = False, tree: Mapping[str, bytes] = NO_TREE
) -> list[Violation]:
    """Violations in one C++ file: its headers held to the allow-list, a quoted include to a
    file of `tree`. Tests may include GoogleTest and print; they may not define `main` or
    reach the runner's listeners."""
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
        if match.group(2) == '"':
            # A quoted name the tree does not hold is looked up among the system's headers.
            if ".." in name or name.startswith(("/", "tests/")):
                flag(match.start(), "include:path", f"includes {name!r}: a file outside the code")
            elif not is_test and not _in_tree(tree, path, name):
                # (A RED test may include the header it is about to ask for.)
                flag(match.start(), f"include:{root}", f"includes {name!r}, which is no file "
                     "of the kata's, so the compiler looks for it among the system's")  # fmt: skip
        elif name in tree:
            # The build answers `<...>` from the system alone (-iquote .); a file of the tree
            # named so is still refused, as a second line: it would stand in for the
            # library's header under a build that searched the root, and a file with no code
            # suffix is one the policy never reads.
            flag(match.start(), f"include:{root}", f"includes <{name}>, which names a file "
                 "of the kata's in place of the library's header")  # fmt: skip
        elif root in _PURE or (is_test and root in _TEST_HEADERS):
            continue
        else:
            why = _INCLUDES.get(root, "is not among the headers a kata's code may use (the "
                                "computing parts of the standard library)")  # fmt: skip
            flag(match.start(), f"include:{root}", f"includes <{name}>, which {why}")
    for match in _NAMESPACE.finditer(code):
        if code[: match.start()].rstrip().endswith("using"):
            continue  # `using namespace std;` opens nothing: what it names is read as used
        flag(match.start(), "namespace", f"reopens namespace {match.group(1)}, the runner's or "
             "the library's")  # fmt: skip
    if not is_test:
        for match in _RESERVED.finditer(code):
            flag(match.start(), "reserved", f"{match.group(0)!r} is a name reserved to the "
                 "compiler and its library (its builtins find the caller)")  # fmt: skip
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


def _in_tree(tree: Mapping[str, bytes], path: str, name: str) -> bool:
    """Whether `#include "name"` in `path` names a file of the tree (beside it, or from the
    root)."""
    folder = path.rsplit("/", 1)[0] + "/" if "/" in path else ""
    return folder + name in tree or name in tree
