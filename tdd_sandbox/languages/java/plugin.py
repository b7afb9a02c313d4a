"""Java: javac's lint (warnings are errors), a build, and JUnit 5 through its console launcher;
results from its XML report, checked against its console lines."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import PurePosixPath

from tdd_sandbox.languages.base import Defaults
from tdd_sandbox.languages.java.calls import derive_java_calls
from tdd_sandbox.languages.java.driver import JavaDriver
from tdd_sandbox.languages.java.policy import check_java
from tdd_sandbox.languages.java.reader import JAVA_LEXEMES, java_text
from tdd_sandbox.languages.java.runner import JavaRunner
from tdd_sandbox.languages.java.transcripts import derive_java_transcripts
from tdd_sandbox.languages.lexing import blank
from tdd_sandbox.languages.perturbing import Expectations
from tdd_sandbox.languages.renaming import Naming
from tdd_sandbox.languages.tokens import lexer
from tdd_sandbox.vocabulary.cases import CallMap, Case
from tdd_sandbox.vocabulary.violation import Violation

_DISABLED = re.compile(
    r"@(?:org\.junit\.jupiter\.api\.)?Disabled\b(?:\s*\(\s*(?:\"(?:[^\"\\\n]|\\.)*\"\s*)?\))?"
)
_BUILD_FILES = frozenset(
    {
        "pom.xml", "build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts",
        "gradle.properties", "gradlew", "gradlew.bat", "junit-platform.properties",
    }
)  # fmt: skip

_SCAFFOLD_CODE = """\
/** The kata. */
public final class Kata {
  private Kata() {}
}
"""
_SCAFFOLD_TEST = """\
import org.junit.jupiter.api.Test;

/** Only proves the toolchain runs; the kata's tests live beside it. */
class ScaffoldTest {
  @Test
  void runs() {}
}
"""


class Java(JavaRunner, Defaults):
    """The Java plug-in: the class `Kata` in `src/`, JUnit 5 test classes in `test/`."""

    driver_class = JavaDriver

    def check_source(
        self, path: str, text: str, *, is_test: bool, tree: Mapping[str, bytes]
    ) -> list[Violation]:
        """The pack's static policy (`policy.py`)."""
        return check_java(path, text, is_test=is_test, tree=tree)

    name = "java"
    listed = ("java.util.List.of(", ")")
    title = "Java"
    source_suffixes: tuple[str, ...] = (".java",)
    expectations = Expectations(
        lexer(JAVA_LEXEMES),
        equal_calls=frozenset({
            "assertEquals", "assertArrayEquals", "assertIterableEquals", "isEqualTo",
        }),
        truth_calls=frozenset({"assertTrue"}),
        constant_words=frozenset({
            "List", "Set", "Map", "of", "Arrays", "asList", "new", "int", "long", "double",
            "char", "boolean", "String", "null",
        }),
    )  # fmt: skip
    naming = Naming(declared_by=frozenset({"void"}))
    prompt_note = (
        "Java 21, standard library only, the default package (no package line). The code is "
        "the class Kata in src/Kata.java (public static methods); tests are JUnit 5 classes "
        "in test/, one per file named after the class, ending in Test (test/KataTest.java), "
        "with `import org.junit.jupiter.api.Test;` and `import static "
        "org.junit.jupiter.api.Assertions.*;` (AssertJ's assertThat is there too). A kata laid "
        "out as Gradle does keeps its layout: code in src/main/java/, tests in src/test/java/. "
        "Code must compile with javac -Xlint:all -Werror."
    )

    def is_test_path(self, path: str) -> bool:
        """Anything under `test/`, or under `src/test/` as Gradle and Maven lay tests out."""
        parts = PurePosixPath(path).parts
        return parts[:1] == ("test",) or parts[:2] == ("src", "test")

    def is_runner_config(self, path: str) -> bool:
        """Build files, Gradle's wrapper and JUnit's configuration (none is read, but none
        may be planted)."""
        pure = PurePosixPath(path)
        return pure.name in _BUILD_FILES or pure.parts[:1] == ("gradle",)

    def derive_calls(
        self, cases: Sequence[Case], stub: Mapping[str, bytes], tests: Mapping[str, bytes]
    ) -> CallMap | str:
        """A method of the stub's classes performs each property (`calls.py`)."""
        del tests  # the stub's signatures say all a call needs
        return derive_java_calls(cases, stub)

    def transcribe_tests(self, cases: Sequence[Case], tests: Mapping[str, bytes]) -> CallMap | str:
        """Each case's JUnit test, what it asserts held on the host (`transcripts.py`)."""
        return derive_java_transcripts(cases, tests)

    def hidden_test(self, path: str, data: bytes) -> bytes:
        """The hidden suite runs every test: Exercism's Java files disable all but the first
        (`@Disabled("Remove to run test")`)."""
        if not path.endswith(".java"):
            return data
        return _DISABLED.sub("", data.decode("utf-8", "replace")).encode()

    def scaffold(self) -> dict[str, str]:
        """The empty class `Kata` and one toolchain test."""
        return {"src/Kata.java": _SCAFFOLD_CODE, "test/ScaffoldTest.java": _SCAFFOLD_TEST}

    def scaffold_under(self, files: Mapping[str, str]) -> dict[str, str]:
        """Beside a kata's own classes (an Exercism stub) the empty `Kata` gives way, and in
        a Gradle layout (`src/main/java/`) the toolchain test goes to `src/test/java/`."""
        code = [p for p in files if p.endswith(".java") and not self.is_test_path(p)]
        if not code:
            return self.scaffold()
        gradle = any(PurePosixPath(p).parts[:2] == ("src", "main") for p in code)
        return {("src/test/java/" if gradle else "test/") + "ScaffoldTest.java": _SCAFFOLD_TEST}

    def detect(self, paths: Iterable[str]) -> bool:
        """Java sources under `src/`."""
        return any(p.startswith("src/") and p.endswith(".java") for p in paths)

    def suggest_paths(self, files: Mapping[str, bytes], slug: str) -> tuple[str, list[str]]:
        """The kata's test class (or `test/KataTest.java`) and its classes (or
        `src/Kata.java`)."""
        scaffold = set(self.scaffold())
        tests = sorted(p for p in files if self.is_test_path(p) and p not in scaffold)
        code = sorted(p for p in files if p.endswith(".java") and not self.is_test_path(p))
        return (tests[0] if tests else "test/KataTest.java"), code or ["src/Kata.java"]

    def defines_tests(self, path: str, text: str) -> bool:
        """A code file that imports JUnit."""
        return not self.is_test_path(path) and "org.junit" in blank(java_text(text), JAVA_LEXEMES)


JAVA = Java()  # the plug-in the registry (`languages.registry`) holds
