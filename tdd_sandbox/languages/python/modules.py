"""What Python code may import: an allow-list, not a list of what it may not (#24).

Every standard library has unlisted routes to a capability a block-list names: `linecache`
reads a test's line, `warnings` finds the caller, `dataclasses.inspect` is `inspect`, and
`typing.sys` is `sys`. So kata code imports only the modules that compute (no files, processes,
frames, interpreter hooks or runner), the kata's own modules, and what a kata's front matter
adds by rule name (`allow: [import:os]`).
"""

from __future__ import annotations

import sys

PURE_MODULES = frozenset(
    {
        "__future__", "abc", "array", "base64", "binascii", "bisect", "calendar", "cmath",
        "collections", "colorsys", "contextlib", "copy", "dataclasses", "datetime", "decimal",
        "difflib", "enum", "fractions", "functools", "graphlib", "hashlib", "heapq", "hmac",
        "html", "itertools", "json", "keyword", "math", "numbers", "operator", "random", "re",
        "secrets", "statistics", "string", "struct", "sys", "textwrap", "typing",
        "unicodedata", "zlib",
    }
)  # fmt: skip
"""The modules kata code may import: the parts of the standard library that compute. `sys` is
here for its numbers (`maxsize`, the recursion limit) and nothing else of it (`SYS_NAMES`)."""

TEST_MODULES = frozenset({"pytest", "unittest", "io", "os", "errno", "tempfile", "pathlib", "time"})
"""What test files may import besides: their runner, and what their fixtures need (Exercism's
paasio tests wrap `io` streams and `os` calls). The implementer cannot write them."""

SYS_NAMES = frozenset(
    {
        "maxsize", "maxunicode", "float_info", "int_info", "hash_info", "byteorder",
        "version_info", "float_repr_style", "getrecursionlimit", "setrecursionlimit",
        "getsizeof",
    }
)  # fmt: skip
"""What code may use of `sys`: its numbers, never its modules, frames, streams or hooks."""

IMAGE_MODULES = frozenset(
    {
        "pytest", "_pytest", "py", "pluggy", "iniconfig", "packaging", "mypy", "mypyc",
        "mypy_extensions", "typing_extensions", "ast_serialize", "pathspec", "ruff", "pip",
        "_distutils_hack",
        "setuptools", "pkg_resources", "sitecustomize", "test", "xxlimited", "xxlimited_35",
        "xxsubtype",
    }
)  # fmt: skip
"""The packages the sandbox image installs (its Dockerfile), and the modules its Python has
that `sys.stdlib_module_names` leaves out (Debian's `sitecustomize`, CPython's `test`
package); a Docker test holds the list to the image. A file of the tree named like one is
not the kata's module: the runner has the installed package loaded already, so an import of
that name reaches the runner's."""

REASONS = {
    "_pytest": "reaches into the test runner",
    "pytest": "reaches into the test runner",
    "unittest": "reaches into the test runner",
    "atexit": "runs code after the tests have finished",
    "gc": "reaches objects it was never handed",
    "inspect": "reads the caller's frames",
    "traceback": "reads the caller's frames",
    "warnings": "finds the caller's frames",
    "linecache": "reads source lines (the tests' answers among them)",
    "tokenize": "reads source files (the tests' answers among them)",
    "ctypes": "writes memory directly",
    "importlib": "imports by computed name",
    "builtins": "rewrites the builtins",
    "threading": "leaves threads running past the call",
    "os": "reaches the process, its files and its environment",
    "io": "reads files (the tests' answers among them)",
    "subprocess": "starts other programs",
}
"""Why some modules off the list are off it: said in a refusal, so the model learns why."""


def reason(module: str) -> str:
    """Why code may not import `module`."""
    return REASONS.get(
        module,
        "is not among the modules a kata's code may use (the computing parts of the standard "
        "library and the kata's own modules)",
    )


def is_own(name: str) -> bool:
    """Whether an import of `name` can only reach the kata's own files: the sandbox's Python
    has the standard library, the image's packages and the repository, and nothing else. A
    module not written yet counts (a RED test imports the module it is about to ask for); a
    private name never does (the sandbox's Python may have private modules the judge's does
    not list)."""
    if not name.isidentifier() or name.startswith("_"):
        return False
    return not (is_module_name(name) or name in IMAGE_MODULES)


def is_module_name(name: str) -> bool:
    """Whether `name` is a module of the standard library (as an attribute of another module,
    a re-export: `typing.sys`, `dataclasses.inspect`)."""
    return name in sys.stdlib_module_names
