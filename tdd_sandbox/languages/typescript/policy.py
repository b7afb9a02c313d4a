"""The static policy for TypeScript: JavaScript's (the same runtime, reached the same ways),
and what types add. A kata's code declares its own types and no one else's: it may not
silence the compiler (`@ts-ignore`, `@ts-expect-error`, `@ts-nocheck`), change the types of
the global scope or of a module it does not own (`declare global`, `declare module`), or
pull declarations in by a directive (`/// <reference>`). Each would let the type-check gate
pass code whose types are wrong, or let the code rewrite the types the tests are checked
against. Tests may expect a type error (`@ts-expect-error`): that is how a type is tested.
"""

from __future__ import annotations

import re

from tdd_sandbox.languages.javascript.policy import check_javascript
from tdd_sandbox.languages.javascript.reader import read_javascript
from tdd_sandbox.vocabulary.violation import Violation

# Read in comments (where the compiler reads them), so on the text.
_DIRECTIVE = re.compile(r"@ts-(ignore|expect-error|nocheck)\b")
_REFERENCE = re.compile(r"^\s*///\s*<\s*(reference|amd-module|amd-dependency)\b", re.MULTILINE)
# Read in code: a string or a comment that spells them declares nothing.
_DECLARES = re.compile(r"(?<![\w$.])declare\s+(global|module)(?![\w$])")


def check_typescript(path: str, text: str, *, is_test: bool = False) -> list[Violation]:
    """Violations in one TypeScript file: JavaScript's, then the compiler's escape hatches."""
    found = check_javascript(path, text, is_test=is_test)
    code = read_javascript(text).code

    def flag(offset: int, rule: str, why: str) -> None:
        found.append(Violation(path, text.count("\n", 0, offset) + 1, rule, why))

    for match in _DIRECTIVE.finditer(text):
        in_comment = code[match.start()] != text[match.start()]
        if not in_comment or (is_test and match.group(1) == "expect-error"):
            continue
        flag(match.start(), f"ts-directive:{match.group(1)}", f"@ts-{match.group(1)} "
             "silences the compiler where the types are wrong: fix the types")  # fmt: skip
    for match in _REFERENCE.finditer(text):
        flag(match.start(), "ts-reference", "a triple-slash directive pulls declarations in "
             "from outside the kata's files")  # fmt: skip
    for match in _DECLARES.finditer(code):
        flag(match.start(), f"declare-{match.group(1)}", f"'declare {match.group(1)}' "
             "changes types the kata does not own (the global scope's, a module's, the "
             "runner's): declare the kata's own types")  # fmt: skip
    return found
