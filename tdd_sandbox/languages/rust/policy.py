"""The static policy for Rust: process, environment, file, FFI and link-time means a kata's
code needs none of, and a type of its own that compares equal to a plain value."""

from __future__ import annotations

import re

from tdd_sandbox.languages.rust.reader import rust_code
from tdd_sandbox.vocabulary.violation import Violation

_RS_RULES: tuple[tuple[str, re.Pattern[str], str], ...] = tuple(
    (rule, re.compile(pattern), why)
    for rule, pattern, why in (
        ("process", r"\bstd\s*::\s*process\b|\bprocess\s*::\s*(exit|abort|Command)\b|"
         r"\bstd\s*::\s*\{[^;]*\bprocess\b",
         "ends the process or starts programs behind the runner's back"),
        ("env", r"\bstd\s*::\s*env\b|\benv\s*::\s*(args|var)|\bstd\s*::\s*\{[^;]*\benv\b",
         "reads the runner's arguments or environment"),
        ("include", r"\binclude(_str|_bytes)?\s*!", "reads files into the build"),
        ("fs", r"\bstd\s*::\s*fs\b|/proc/|\bstd\s*::\s*\{[^;]*\bfs\b", "reads or writes files"),
        ("ffi", r"\bextern\s*(\"C\"|\{|crate\s+\w+\s*;\s*$)|#\s*\[\s*(no_mangle|export_name|"
         r"link_section|link|used)\b", "hooks the linker or foreign code"),
        ("asm", r"\b(global_)?asm\s*!", "writes machine code"),
        ("panic-hook", r"\bpanic\s*::\s*(set_hook|take_hook|catch_unwind|resume_unwind)\b",
         "changes how failures are reported"),
        ("equality", r"\bimpl\b[^{;]*\bPartialEq\s*<\s*&?\s*(&\s*)?(str|String|bool|char|[iuf]"
         r"(8|16|32|64|128|size)|Option\s*<|Result\s*<|Vec\s*<)", "makes a type of its own "
         "compare equal to a plain value"),
    )
)  # fmt: skip


def check_rust(path: str, text: str, *, is_test: bool = False) -> list[Violation]:
    """Violations in one Rust file (comments and string contents are not code)."""
    code, nested = rust_code(text)
    found = [
        Violation(path, code.count("\n", 0, offset) + 1, "lexing", "a block comment opens "
                  "another inside it: Rust nests them, so where it ends is not what it seems")
        for offset in nested
    ]  # fmt: skip
    for rule, pattern, why in _RS_RULES:
        if is_test and rule == "panic-hook":
            continue
        for match in pattern.finditer(code):
            line = code.count("\n", 0, match.start()) + 1
            found.append(Violation(path, line, rule, f"{match.group(0).strip()!r} {why}"))
    return found
