"""The static policy for Rust: what code may use of the standard library is an allow-list of
its modules (`std`, `core` and `alloc` alike), with the crate roots never renamed and no path
built by a macro; beside it, process, environment, file, FFI and link-time means a kata's code
needs none of, `unsafe`, and a type of its own that compares equal to a plain value."""

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
        ("env", r"\bstd\s*::\s*env\b|\benv\s*::\s*(args|var)|\bstd\s*::\s*\{[^;]*\benv\b|"
         r"\b(option_)?env\s*!", "reads the runner's arguments or environment, or the build's"),
        ("include", r"\binclude(_str|_bytes)?\s*!", "reads files into the build"),
        ("fs", r"\bstd\s*::\s*fs\b|/proc/|\bstd\s*::\s*\{[^;]*\bfs\b", "reads or writes files"),
        ("ffi", r"\bextern\s*(\"C\"|\{)|#\s*\[\s*(no_mangle|export_name|"
         r"link_section|link|used)\b", "hooks the linker or foreign code"),
        ("asm", r"\b(global_)?asm\s*!", "writes machine code"),
        ("panic-hook", r"\bpanic\s*::\s*(set_hook|take_hook|catch_unwind|resume_unwind)\b",
         "changes how failures are reported"),
        ("equality", r"\bimpl\b[^{;]*\bPartialEq\s*<\s*&?\s*(&\s*)?(str|String|bool|char|[iuf]"
         r"(8|16|32|64|128|size)|Option\s*<|Result\s*<|Vec\s*<)", "makes a type of its own "
         "compare equal to a plain value"),
    )
)  # fmt: skip


# The modules of the standard library code may use: the ones that compute. The rest (fs, env,
# process, io, net, thread, panic's `Location::caller()`, ptr, ffi...) reach the process, its
# files or the caller by more routes than a block-list keeps up with (#24).
_PURE = frozenset(
    {
        "any", "array", "ascii", "borrow", "boxed", "cell", "char", "clone", "cmp",
        "collections", "convert", "default", "error", "f32", "f64", "fmt", "hash", "hint",
        "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize",
        "iter", "marker", "mem", "num", "ops", "option", "prelude", "primitive", "rc",
        "result", "slice", "str", "string", "sync", "vec",
    }
)  # fmt: skip
_ROOT = r"(?:(?<![\w$:])::\s*|(?<![\w$:]))\b(std|core|alloc)\s*::\s*"
_STD_PATH = re.compile(_ROOT + r"(\$|\*|\{|\w+)")
_ALIAS = re.compile(
    r"\buse\s+(?:::\s*)?(?:std|core|alloc)\s+as\b|" + _ROOT + r"\{[^}]*\bself\s+as\b"
)
# `extern crate` of a dependency is 2015's `use`; of a crate of the toolchain's own it links
# what no manifest declares (`test`, `proc_macro`) or renames a standard crate.
_EXTERN_CRATE = re.compile(r"\bextern\s+crate\s+(?:std|core|alloc|test|proc_macro)\b")
_MACRO_PATH = re.compile(r"\$(?!crate\b)\w+\s*::|::\s*\$(?!crate\b)\w+")
_UNSAFE = re.compile(r"\bunsafe\b")
_PATH_RULES = (
    (_EXTERN_CRATE, "extern-crate", "`extern crate` links or renames a crate of the toolchain's "
     "own"),
    (_ALIAS, "alias", "renames a standard crate, so its paths no longer read as what they reach"),
    (_MACRO_PATH, "macro-path", "a macro builds a path out of its input, which no reader of the "
     "text sees whole"),
    (_UNSAFE, "unsafe", "`unsafe` reads and writes memory past the compiler's checks"),
)  # fmt: skip


def check_rust(path: str, text: str, *, is_test: bool = False) -> list[Violation]:
    """Violations in one Rust file (comments and string contents are not code). A crate's own
    modules and its manifest's dependencies need no tree: only the standard crates' paths are
    held to the allow-list."""
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
    found.extend(_std_paths(path, code, is_test=is_test))
    return found


def _std_paths(path: str, code: str, *, is_test: bool) -> list[Violation]:
    """The standard crates' paths, renamings and macro-built paths in `code`."""
    found: list[Violation] = []

    def flag(offset: int, rule: str, why: str) -> None:
        found.append(Violation(path, code.count("\n", 0, offset) + 1, rule, why))

    for pattern, rule, why in _PATH_RULES:
        if is_test and rule in ("macro-path", "unsafe"):
            continue  # the implementer cannot write tests: their macros are their own
        for match in pattern.finditer(code):
            flag(match.start(), rule, why)
    for match in _STD_PATH.finditer(code):
        root, first = match.group(1), match.group(2)
        if first == "$":
            flag(match.start(), "macro-path", f"builds a path of {root} out of a macro's input")
            continue
        if is_test:
            continue  # tests keep the rules above; the allow-list is for the code under test
        names = _group_heads(code, match.end() - 1) if first == "{" else [first]
        for name in names:
            if name == "*":
                flag(match.start(), f"use:{root}::*", f"imports all of {root}, past what the "
                     "allow-list can see")  # fmt: skip
            elif name not in _PURE and name != "self":
                flag(match.start(), f"use:{root}::{name}", f"uses {root}::{name}, which is not "
                     "among the modules a kata's code may use (those that compute)")  # fmt: skip
    return found


def _group_heads(code: str, opening: int) -> list[str]:
    """The first segment of each item of the `{...}` group opening at `opening`."""
    depth, item, heads = 0, "", []
    for char in code[opening:]:
        if char == "{":
            depth += 1
            if depth == 1:
                continue
        elif char == "}":
            depth -= 1
            if depth == 0:
                break
        if depth == 1 and char == ",":
            heads.append(item)
            item = ""
        elif depth >= 1:
            item += char
    heads.append(item)
    first = [re.match(r"\s*(\*|\w+)", head) for head in heads]
    return [m.group(1) for m in first if m]
