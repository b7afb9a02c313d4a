"""C++'s acceptance driver, host side: a generated program built with the model's code files
(never its tests) that performs one case per process."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path, PurePosixPath

from tdd_sandbox.languages.driving import DRIVER_DIR, FramedDriver, Prepared, render_calls
from tdd_sandbox.languages.framing import RESULTS, case_script
from tdd_sandbox.languages.literal import LiteralSyntax
from tdd_sandbox.vocabulary.cases import CallMap, Case

_TEMPLATE = Path(__file__).with_name("driver.cpp")

# Built in /tmp from the code files alone (the driver has its own main); one process per case,
# each under `timeout`, its output capped, so a case that hangs or floods fails alone.
_SCRIPT = case_script(
    "code=$(find . \\( -name '.?*' -o -name tests \\) -prune -o -type f "
    "\\( -name '*.cpp' -o -name '*.cc' \\) -print)",
    "g++ -std=c++20 -O1 -iquote . $code .tdd/acceptance/driver.cpp -o /tmp/tdd-acceptance/driver",
    "/tmp/tdd-acceptance/driver",
)


class CppDriver(FramedDriver):
    """Builds the model's code with a generated driver program, then runs it once per case."""

    source = _TEMPLATE

    def prepare(
        self, files: Mapping[str, bytes], cases: Sequence[Case], calls: CallMap, nonce: str
    ) -> Prepared:
        """The model's code files and headers, and the generated driver."""
        answers = render_calls(
            calls, cases, CPP_LITERALS.render, lambda call: f"report({call})", transcribes=True
        )
        arms = "\n".join(
            f"    case {i}:\n      return {answer};" for i, answer in enumerate(answers)
        )
        source = (
            self.source.read_text().replace("/*SETUP*/", calls.setup).replace("/*CASES*/", arms)
        )
        shipped = {
            path: data
            for path, data in files.items()
            if path.endswith(self.language.source_suffixes)
            and not self.language.is_test_path(path)
            and not PurePosixPath(path).parts[0].startswith(".")
        }
        shipped[f"{DRIVER_DIR}/driver.cpp"] = source.encode()
        limit = f"{calls.timeout_s:g}"
        command = ("sh", "-c", _SCRIPT, "acceptance", nonce, str(len(cases)), limit)
        return Prepared(shipped, command, RESULTS)


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


CPP_LITERALS = LiteralSyntax(
    language="C++",
    null="std::nullopt",
    string=lambda text: f"std::string({_string(text)}, {len(text.encode())})",
    sequence=lambda kind, items: f"std::vector<{kind}>{{{items}}}",
    kinds=("bool", "int", "double", "std::string"),
    nested=lambda kind: f"std::vector<{kind}>",
    long_suffix="LL",
    empty="tdd_acceptance::Empty{}",
)
"""C++'s spelling: a string is a `std::string` (its length given, so NULs survive), a list a
`std::vector` of its kind (an empty one whatever container the call takes), null
`std::nullopt`."""
