"""A JUnit test class's structure, read on the host without compiling it: its tests with the
statements each runs (its class's fields as locals, the bodies of its `@BeforeEach`
methods, then its own), and its imports (`transcripts`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tdd_sandbox.languages.java.reader import JAVA_LEXEMES, java_text
from tdd_sandbox.languages.lexing import blank, bracket_end, statement_spans

_CLASS = re.compile(r"\bclass\s+\w+[^{]*\{")
_METHOD = re.compile(
    r"(?P<annotations>(?:@\w+(?:\s*\([^)]*\))?\s*)*)(?:(?:public|protected|private|static|final"
    r"|synchronized)\s+)*(?:<[^>]*>\s*)?[\w.<>\[\], ?]+\s+(?P<name>\w+)\s*\((?P<parameters>[^)]*)\)"
    r"\s*(?:throws\s+[\w.,\s]+)?\{",
)
_MODIFIERS = re.compile(r"\b(?:public|protected|private|static|transient|volatile)\s+")
_NESTED = re.compile(
    r"(?:(?:public|protected|private|static|final|abstract)\s+)*(?:class|interface|enum|record)\b"
)


class ClassUnreadable(Exception):
    """Why a test class's structure cannot be read."""


@dataclass(frozen=True)
class JavaTest:
    """One `@Test` method: its name, its `@DisplayName` where it has one, and what it runs."""

    name: str
    shown: str
    before: tuple[str, ...]
    """Its class's fields, as local declarations, and its `@BeforeEach` bodies."""
    body: tuple[str, ...]


@dataclass
class TestClass:
    """A test file: its imports and its tests."""

    imports: list[str] = field(default_factory=list)
    tests: list[JavaTest] = field(default_factory=list)


def read_test_class(text: str) -> TestClass:
    """The file's structure.

    Raises:
        ClassUnreadable: a test of parameters (`@ParameterizedTest`), a nested class, or
            brackets that do not balance.
    """
    text = java_text(text)
    code = blank(text, JAVA_LEXEMES)
    read = TestClass(imports=re.findall(r"^\s*import\s+[^;]+;", text, re.MULTILINE))
    opened = _CLASS.search(code)
    if opened is None:
        raise ClassUnreadable("no class")
    end = bracket_end(code, opened.end() - 1)
    if end < 0:
        raise ClassUnreadable("a class that does not close")
    fields: list[str] = []
    before: list[str] = []
    at = opened.end()
    while (start := len(code[:end]) - len(code[at:end].lstrip())) < end:
        method = _METHOD.match(code, start)
        if method is None:
            if _NESTED.match(code, start) or re.match(r"(?:static\s*)?\{", code[start:]):
                raise ClassUnreadable("a class or an initializer nested in the test class")
            stop = code.find(";", start, end)
            if stop < 0:
                raise ClassUnreadable("a member that does not end")
            fields.append(_MODIFIERS.sub("", text[start : stop + 1]).strip())
            at = stop + 1
            continue
        closing = bracket_end(code, method.end() - 1)
        if closing < 0:
            raise ClassUnreadable("a method that does not close")
        annotations = text[method.start("annotations") : method.end("annotations")]
        body = _statements(text, code, method.end(), closing)
        if "@ParameterizedTest" in annotations or "@RepeatedTest" in annotations:
            raise ClassUnreadable(f"a test of parameters, {method['name']}")
        if "@BeforeEach" in annotations:
            before += body
        elif re.search(r"@Test\b", annotations):
            shown = re.search(r'@DisplayName\s*\(\s*"((?:\\.|[^"\\])*)"', annotations)
            read.tests.append(JavaTest(method["name"], shown[1] if shown else "", (), tuple(body)))
        at = closing + 1
    prelude = (*fields, *before)
    read.tests = [JavaTest(t.name, t.shown, prelude, t.body) for t in read.tests]
    return read


def _statements(text: str, code: str, start: int, end: int) -> list[str]:
    try:
        return [text[s:e].strip() for s, e in statement_spans(code, start, end)]
    except ValueError as exc:
        raise ClassUnreadable(str(exc)) from None
