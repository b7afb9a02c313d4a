"""Java's acceptance driver, host side: a generated class compiled with the model's code
(never its tests) that performs one case per JVM."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from tdd_sandbox.languages.driving import (
    DRIVER_DIR,
    FramedDriver,
    Prepared,
    implementation_files,
    render_calls,
)
from tdd_sandbox.languages.framing import RESULTS, case_script
from tdd_sandbox.languages.literal import LiteralSyntax
from tdd_sandbox.vocabulary.cases import CallMap, Case

_TEMPLATE = Path(__file__).with_name("driver.java")

# Compiled in /tmp from the code under src/ alone; one JVM per case, each under `timeout`, its
# output capped, so a case that hangs or floods fails alone.
_JVM = "java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xmx256m"
_SCRIPT = case_script(
    "mkdir -p /tmp/tdd-acceptance/classes || exit 3",
    "javac -J-XX:+UseSerialGC -J-XX:TieredStopAtLevel=1 -encoding UTF-8 -nowarn "
    "-d /tmp/tdd-acceptance/classes $(find src -name '*.java' 2>/dev/null) "
    ".tdd/acceptance/TddAcceptance.java",
    f"{_JVM} -cp /tmp/tdd-acceptance/classes TddAcceptance",
)


class JavaDriver(FramedDriver):
    """Compiles the model's code with a generated driver class, then runs it once per case."""

    source = _TEMPLATE

    def prepare(
        self, files: Mapping[str, bytes], cases: Sequence[Case], calls: CallMap, nonce: str
    ) -> Prepared:
        """The model's code under `src/` and the generated driver."""
        answers = render_calls(
            calls, cases, JAVA_LITERALS.render, lambda call: f"report({call})", transcribes=True
        )
        arms = "\n".join(
            f"      case {i}:\n        return {answer};" for i, answer in enumerate(answers)
        )
        # The setup is the imports a transcribed test needs (`java.transcripts`).
        source = self.source.read_text().replace("/*CASES*/", arms)
        source = source.replace("/*IMPORTS*/", calls.setup)
        # The code under src/ without its tests (Gradle's src/test/, which import JUnit).
        code = implementation_files(self.language, files)
        shipped = {p: d for p, d in code.items() if p.startswith("src/") and p.endswith(".java")}
        shipped[f"{DRIVER_DIR}/TddAcceptance.java"] = source.encode()
        limit = f"{calls.timeout_s:g}"
        command = ("sh", "-c", _SCRIPT, "acceptance", nonce, str(len(cases)), limit)
        return Prepared(shipped, command, RESULTS)


def _char(char: str) -> str:
    escapes = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}
    if char in escapes:
        return escapes[char]
    if ord(char) < 0x20 or ord(char) > 0x7E:
        return "".join(f"\\u{unit:04x}" for unit in _utf16(char))
    return char


def _utf16(char: str) -> list[int]:
    data = char.encode("utf-16-be")
    return [int.from_bytes(data[i : i + 2], "big") for i in range(0, len(data), 2)]


JAVA_LITERALS = LiteralSyntax(
    language="Java",
    null="null",
    string=lambda text: '"' + "".join(_char(c) for c in text) + '"',
    sequence=lambda kind, items: f"new {kind}[] {{{items}}}",
    kinds=("boolean", "int", "double", "String"),
    long_suffix="L",
)
"""Java's spelling: a list of one kind is an array of it (`new int[] {1, 2}`), null `null`."""
