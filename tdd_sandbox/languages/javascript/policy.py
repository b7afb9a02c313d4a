"""The static policy for JavaScript: the means a kata's code needs none of, refused before
anything runs.

`node --test` runs each test file in a process of its own, with the code under test, and
rebuilds the results from what that process reports on its stdout. So code may import nothing
but the kata's own files (no Node module reaches the process, the file system or the runner),
may not reach the process or the global object, run code from text, schedule work past the
call, or change how built-in values behave. Tests may import the runner and `assert`. Both may
print: each test file's process has a console that writes text to stderr (`guard.TEXT_CONSOLE`).
"""

from __future__ import annotations

import re

from tdd_sandbox.languages.javascript.reader import read_javascript
from tdd_sandbox.vocabulary.violation import Violation

_NAMES = {
    "process": "reaches the process: its exit, its output, its environment",
    "globalThis": "reaches the global object, the runner's included",
    "global": "reaches the global object, the runner's included",
    "require": "loads modules by computed name",
    "module": "reaches the module system",
    "eval": "runs code from text",
    "Function": "runs code from text",
    "Proxy": "makes a value that answers every question its own way",
    "Reflect": "reaches objects' internals",
    "WebAssembly": "runs foreign code",
    "setTimeout": "runs code after the call has returned",
    "setInterval": "runs code after the call has returned",
    "setImmediate": "runs code after the call has returned",
    "queueMicrotask": "runs code after the call has returned",
}
_TEST_NAMES = frozenset({"setTimeout", "setInterval", "setImmediate", "queueMicrotask"})
_TEST_MODULES = frozenset({"node:test", "node:assert", "node:assert/strict", "assert"})
_IMPORT = re.compile(
    r"(?:\bimport\s*(?:[\w$*{}\s,]+\s*from\s*)?|\bexport\s*[\w$*{}\s,]*\s*from\s*)(['\"])([^'\"\n]*)\1"
)
_DYNAMIC_IMPORT = re.compile(r"(?<![\w$.])import\s*\(")
_PROTOTYPE = re.compile(
    r"\.\s*prototype\s*(?:\.\s*[\w$]+\s*|\[[^\]]*\]\s*)?=(?!=)|__proto__|"
    r"\bObject\s*\.\s*(?:defineProperty|defineProperties|setPrototypeOf|assign)\b|"
    r"\bSymbol\s*\.\s*(?:toPrimitive|hasInstance|species)\b"
)


# `constructor` reached as a property (dotted, in a destructuring, or by a literal key) leads
# from any value to the Function constructor, past every name the list above holds (#24).
# A class's own `constructor(...) {` is its method, and fine.
_CONSTRUCTOR = re.compile(r"(?<![\w$])constructor(?![\w$])")
_CONSTRUCTOR_KEY = re.compile(r"\[\s*(['\"`])constructor\1\s*\]")


def check_javascript(path: str, text: str, *, is_test: bool = False) -> list[Violation]:
    """Violations in one JavaScript file. Code imports its own files only (so it needs no
    `tree`). Tests may import `node:test` and `assert`, print and use timers."""
    found: list[Violation] = []
    read = read_javascript(text)
    code = read.code

    def flag(offset: int, rule: str, why: str) -> None:
        found.append(Violation(path, code.count("\n", 0, offset) + 1, rule, why))

    for offset in read.unsure:
        flag(offset, "lexing", "this '/' reads as a division or as a regular expression that "
             "holds a quote or a bracket, and the two readings disagree on what is code: "
             "write the expression so only one reading is possible")  # fmt: skip
    for match in re.finditer(r"\\", code):
        flag(match.start(), "lexing", "an escape in a name spells it where a reader of the "
             "text does not see it")  # fmt: skip

    # Import specifiers are strings: read them from the text, where the code has a match.
    for match in _IMPORT.finditer(text):
        if code[match.start()] != text[match.start()]:
            continue  # inside a comment or a string
        name = match.group(2)
        if name.startswith(("./", "../")) or (is_test and name in _TEST_MODULES):
            continue
        flag(match.start(), f"import:{name}", f"imports {name!r}: a kata's code imports its "
             "own files only")  # fmt: skip
    for match in _DYNAMIC_IMPORT.finditer(code):
        flag(match.start(), "dynamic-import", "import() loads modules by computed name")
    for name, why in _NAMES.items():
        if is_test and name in _TEST_NAMES:
            continue
        for match in re.finditer(rf"(?<![\w$.]){re.escape(name)}(?![\w$])", code):
            flag(match.start(), f"name:{name}", f"{name} {why}")
    for match in _CONSTRUCTOR.finditer(code):
        before = code[: match.start()].rstrip()
        if re.match(r"\s*\(", code[match.end() :]) and not before.endswith((".", ",")):
            continue  # a class's constructor method
        flag(match.start(), "constructor", "reaches a value's constructor, and from it the "
             "Function constructor")  # fmt: skip
    for match in _CONSTRUCTOR_KEY.finditer(text):
        if code[match.start()] == "[":
            flag(match.start(), "constructor", "reaches a value's constructor by its name as "
                 "a key, and from it the Function constructor")  # fmt: skip
    if not is_test:
        for match in _PROTOTYPE.finditer(code):
            flag(match.start(), "prototype", f"{match.group(0).strip()!r} changes how values "
                 "behave beyond the kata's own")  # fmt: skip
    return found
