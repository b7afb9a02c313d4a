"""What a failed build tells a second try, read from each compiler's own output (the 4,096
board's answers): the first error, where it is, and the code there."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tdd_sandbox.languages.framing import case_script
from tdd_sandbox.languages.registry import get_language

# rustc on the 1.5B's pig-latin: the second try heard the first line alone.
RUSTC = (
    "   Compiling pig_latin v1.0.0 (/tmp/tdd-acceptance/crate)\n"
    "error: character literal may only contain one codepoint\n"
    "  --> src/lib.rs:30:37\n"
    "   |\n"
    "30 |                     consonants.push('ay');\n"
    "   |                                     ^^^^\n"
)
# javac on the 1.5B's affine-cipher: no line was read as an error, and the second try heard
# the log's last 300 characters, from a caret on.
JAVAC = (
    "src/main/java/AffineCipher.java:51: error: ';' expected\n"
    "    private int find MMI(int a, int m) {\n"
    "                    ^\n"
    "src/main/java/AffineCipher.java:51: error: invalid method declaration; return type "
    "required\n"
    "    private int find MMI(int a, int m) {\n"
    "                     ^\n"
    "2 errors\n"
)
GO = "# kata\n./kata.go:3:9: undefined: x\n./kata.go:4:2: undefined: y\n"


@pytest.mark.parametrize(
    ("language", "log", "said"),
    [
        ("rust", RUSTC, "src/lib.rs:30:37: error: character literal may only contain one "
                        "codepoint (`consonants.push('ay');`)"),
        ("java", JAVAC, "src/main/java/AffineCipher.java:51: error: ';' expected "
                        "(`private int find MMI(int a, int m) {`)"),
        ("go", GO, "./kata.go:3:9: undefined: x"),
    ],
)  # fmt: skip
def test_a_build_that_failed_says_its_first_error_where_it_is_and_the_code_there(
    language: str, log: str, said: str
) -> None:
    data = f"@@n1 build-failed\n{log}".encode()
    observed, problem = get_language(language).driver.read(data, "n1", [])
    assert observed == {}
    assert problem == f"did not compile: {said}"


def test_a_long_build_log_still_tells_its_first_error(tmp_path: Path) -> None:
    # The script kept a failed build's last 4,000 bytes: javac's 40 errors on a 0.5B answer
    # (the first the cause, the rest what follows from it) were told from the 24th on, the
    # cause never. A long log is now kept as its start and its end.
    cascade = "".join(
        f"src/main/java/Dominoes.java:{60 + i}: error: cannot find symbol\n"
        f"        return chain{i};\n               ^\n  symbol:   variable chain{i}\n"
        for i in range(40)
    )
    log = tmp_path / "javac.log"
    log.write_text(JAVAC + cascade + f"{42} errors\n")
    script = case_script("", f"sh -c 'cat {log}; false'", "true").replace(
        "/tmp/tdd-acceptance", str(tmp_path / "acceptance")
    )
    subprocess.run(["sh", "-c", script, "acceptance", "n1", "0", "5"], check=True)
    data = (tmp_path / "acceptance" / "out").read_bytes()
    assert len(data) < 9000  # still capped
    _, problem = get_language("java").driver.read(data, "n1", [])
    assert problem == (
        "did not compile: src/main/java/AffineCipher.java:51: error: ';' expected "
        "(`private int find MMI(int a, int m) {`)"
    )
    assert data.decode().rstrip().endswith("42 errors")  # and the end, where the count is
