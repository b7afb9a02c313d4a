"""C++'s acceptance driver, host side: a generated program built with the model's code files
(never its tests) that performs one case per process."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path, PurePosixPath
from typing import Any

from tdd_sandbox.acceptance.base import (
    DRIVER_DIR,
    RESULTS,
    FramedDriver,
    Prepared,
    case_script,
    render_call,
)
from tdd_sandbox.acceptance.suite import CallMap
from tdd_sandbox.errors import UsageError
from tdd_sandbox.grading.acceptance import Case
from tdd_sandbox.languages.cpp import CPP

_TEMPLATE = Path(__file__).with_name("cpp_driver.cpp")

# Built in /tmp from the code files alone (the driver has its own main); one process per case,
# each under `timeout`, its output capped, so a case that hangs or floods fails alone.
_SCRIPT = case_script(
    "code=$(find . \\( -name '.?*' -o -name tests \\) -prune -o -type f "
    "\\( -name '*.cpp' -o -name '*.cc' \\) -print)",
    "g++ -std=c++20 -O1 -I. $code .tdd/acceptance/driver.cpp -o /tmp/tdd-acceptance/driver",
    "/tmp/tdd-acceptance/driver",
)


class CppDriver(FramedDriver):
    """Builds the model's code with a generated driver program, then runs it once per case."""

    def prepare(
        self, files: Mapping[str, bytes], cases: Sequence[Case], calls: CallMap, nonce: str
    ) -> Prepared:
        """The model's code files and headers, and the generated driver."""
        rendered = [render_call(calls.calls[c.property], c, cpp_literal) for c in cases]
        arms = "\n".join(
            f"    case {i}:\n      return report({call});" for i, call in enumerate(rendered)
        )
        source = _TEMPLATE.read_text().replace("/*SETUP*/", calls.setup).replace("/*CASES*/", arms)
        shipped = {
            path: data
            for path, data in files.items()
            if path.endswith(CPP.source_suffixes)
            and not CPP.is_test_path(path)
            and not PurePosixPath(path).parts[0].startswith(".")
        }
        shipped[f"{DRIVER_DIR}/driver.cpp"] = source.encode()
        limit = f"{calls.timeout_s:g}"
        command = ("sh", "-c", _SCRIPT, "acceptance", nonce, str(len(cases)), limit)
        return Prepared(shipped, command, RESULTS)


def cpp_literal(value: Any) -> str:
    """A JSON value as a C++ expression: a string becomes `std::string`, a list of one kind a
    `std::vector` of it, null `std::nullopt`.

    Raises:
        UsageError: a map, a list of mixed kinds, or a float that is not finite.
    """
    if value is None:
        return "std::nullopt"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"{value}LL" if abs(value) > 2**31 - 1 else str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise UsageError(f"{value} cannot be a C++ input")
        return repr(value)
    if isinstance(value, str):
        return f"std::string({_string(value)}, {len(value.encode())})"
    if isinstance(value, list):
        kinds = {_element_type(item) for item in value}
        if len(kinds) > 1:
            raise UsageError("a list of mixed kinds cannot be written as a C++ vector")
        kind = kinds.pop() if kinds else "int"
        return f"std::vector<{kind}>{{{', '.join(cpp_literal(item) for item in value)}}}"
    raise UsageError(f"a {type(value).__name__} input cannot be written as a C++ literal")


def _string(text: str) -> str:
    """A C++ string literal of `text`'s UTF-8 bytes, every non-printable byte escaped (octal,
    which never runs into the next character)."""
    out = []
    for byte in text.encode():
        char = chr(byte)
        if char in '"\\':
            out.append("\\" + char)
        elif 0x20 <= byte < 0x7F:
            out.append(char)
        else:
            out.append(f"\\{byte:03o}")
    return '"' + "".join(out) + '"'


def _element_type(item: Any) -> str:
    if isinstance(item, bool):
        return "bool"
    if isinstance(item, int):
        return "int"
    if isinstance(item, float):
        return "double"
    if isinstance(item, str):
        return "std::string"
    if isinstance(item, list):
        inner = {_element_type(x) for x in item}
        return f"std::vector<{inner.pop() if len(inner) == 1 else 'int'}>"
    raise UsageError(f"a list of {type(item).__name__} cannot be written as a C++ vector")
