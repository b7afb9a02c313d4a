"""A Java track's own JUnit tests as data (`transcribing` says how, and why): each `@Test`
method runs in the driver after its class's fields (as locals) and `@BeforeEach` bodies,
and each assertion there only answers the value it asserts. What it is held against is a
literal (`literals`) or a name the test binds to one and uses for nothing else.

Assertions: AssertJ's `assertThat(actual)` then `isEqualTo`, `isTrue`, `isFalse`, `isNull`,
`isNotNull`, `isEmpty`, `hasSize`, `containsExactly` (and `...ElementsOf`) and
`containsExactlyInAnyOrder` (and `...ElementsOf`), a description (`as`, `withFailMessage`)
before it left out; an error expected by `assertThatExceptionOfType(E.class).isThrownBy`,
`assertThatThrownBy(...).isInstanceOf`, `assertThatIllegalArgumentException()` and their
kin, its message by `withMessage` or `hasMessage`; JUnit's `assertEquals`, `assertTrue`,
`assertFalse`, `assertNull` and `assertThrows`. Any other leaves the exercise to the track's
tests."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from tdd_sandbox.languages.java.junit import ClassUnreadable, JavaTest, read_test_class
from tdd_sandbox.languages.java.literals import read_literal
from tdd_sandbox.languages.java.reader import JAVA_LEXEMES
from tdd_sandbox.languages.lexing import blank, bracket_end
from tdd_sandbox.languages.literal_reader import NO, SetLiteral
from tdd_sandbox.languages.transcribing import (
    OwnAnswers,
    Transcribed,
    Transcript,
    Untranscribable,
    compares,
    split_arguments,
)
from tdd_sandbox.vocabulary.cases import CallMap, Case

_BOUND = re.compile(
    r"(?:final\s+)?(?:var|[\w.]+(?:\s*<[^;=]*>)?(?:\s*\[\s*\])*)\s+(\w+)\s*=\s*(.*?);\s*$",
    re.DOTALL,
)
_CALL = re.compile(r"\s*\.\s*(\w+)\s*\(")
_DESCRIBED = frozenset({"as", "describedAs", "withFailMessage", "overridingErrorMessage"})
_FAILS = frozenset({"assertThatThrownBy", "assertThatCode", "assertThatExceptionOfType",
                    "assertThatIllegalArgumentException", "assertThatIllegalStateException",
                    "assertThatNullPointerException", "assertThatIOException"})  # fmt: skip
_TRUTH = {"isTrue": ("{}", True), "isFalse": ("{}", False), "isNull": ("{} == null", True),
          "isNotNull": ("{} == null", False), "isEmpty": ("TddAcceptance.empty({})", True),
          "isNotEmpty": ("TddAcceptance.empty({})", False)}  # fmt: skip
_RUNNER = re.compile(r"import\s+(?:static\s+)?(?:org\.junit|org\.assertj)\b")


def _check(transcript: Transcript, asked: str, wanted: Any, said: str = "") -> None:
    transcript.check(f"tddSteps.value({asked});", said or asked, wanted)


def derive_java_transcripts(cases: Sequence[Case], tests: Mapping[str, bytes]) -> CallMap | str:
    """Each `@Test` of the track's transcribed, the data's case it is named as or one of
    its own, what its steps must answer restated; or why the tests cannot be read so."""
    classes, imports = [], []
    for path, data in sorted(tests.items()):
        try:
            read = read_test_class(data.decode("utf-8", "replace"))
        except ClassUnreadable as exc:
            return f"the track's test {path} cannot be read: {exc}"
        classes.append(read)
        imports += [line.strip() for line in read.imports if not _RUNNER.match(line.strip())]
    made = Transcribed(cases)
    for test in (test for read in classes for test in read.tests):
        case = made.case_of(test.shown or test.name)
        if refused := made.take(case, test.name, partial(_source, test)):
            return refused
    if not made.transcripts and not made.left_out:
        return "the track's tests hold no @Test"
    return made.calls("\n".join(dict.fromkeys(imports)))


def _source(test: JavaTest) -> tuple[str, Transcript]:
    """The test as the driver runs it: a transcript of a lambda's statements."""
    transcript = _transcribe(test)
    lines = ["TddAcceptance.transcript(tddSteps -> {", *transcript.lines, "})"]
    return "\n".join(lines), transcript


def _transcribe(test: JavaTest) -> Transcript:
    """The test's statements, its assertions as steps; raises `Untranscribable`."""
    said = [*test.before, *test.body]
    parsed = [_assertion(text) for text in said]
    used: set[str] = set()
    for text, assertion in zip(said, parsed, strict=True):
        shipped = [assertion[1]] if assertion else ([] if _literal_bound(text) else [text])
        used |= {n for s in shipped for n in _names(s)}
    transcript = Transcript()
    for text, assertion in zip(said, parsed, strict=True):
        if assertion is not None:
            _assert(*assertion, transcript)
            continue
        if re.search(r"\bassert\w*\s*\(", blank(text, JAVA_LEXEMES)):
            raise Untranscribable(f"it asserts inside a statement: {text.splitlines()[0][:80]}")
        bound = _BOUND.match(text)
        value = read_literal(bound[2], transcript.host) if bound else NO
        if bound and bound[1] not in used and value is not NO:
            transcript.host[bound[1]] = value  # held against only: it stays here
            continue
        transcript.lines.append(text)
    if not transcript.steps:  # it passes where it runs to its end
        _check(transcript, "null", None, "the test runs to its end")
    return transcript


def _assertion(text: str) -> tuple[str, str, list[tuple[str, str]]] | None:
    """An assertion statement as its head (`assertThat`), its argument's text, and the
    calls chained on it, each a name and its arguments' text; None for any other."""
    code = blank(text, JAVA_LEXEMES)
    head = re.match(r"(?:Assertions\s*\.\s*)?(assert\w*)\s*\(", code)
    if head is None:
        return None
    calls, at = [], head.end() - 1
    closing = bracket_end(code, at)
    argument = text[at + 1 : closing].strip()
    at = closing + 1
    while call := _CALL.match(code, at):
        closing = bracket_end(code, call.end() - 1)
        calls.append((call[1], text[call.end() : closing].strip()))
        at = closing + 1
    if code[at:].strip() not in ("", ";"):
        raise Untranscribable(f"it asserts more than it reads: {text.splitlines()[0][:80]}")
    return head[1], argument, [c for c in calls if c[0] not in _DESCRIBED]


def _assert(head: str, argument: str, calls: list[tuple[str, str]], transcript: Transcript) -> None:
    if head in _FAILS or head == "assertThrows":
        _fails(head, argument, calls, transcript)
        return
    if head == "assertThat" and len(calls) == 1:
        matcher, given = calls[0]
        _matched(argument, matcher, given, transcript)
        return
    parts = _arguments_of(argument)
    if head in ("assertEquals", "assertArrayEquals", "assertIterableEquals") and len(parts) >= 2:
        _matched(parts[1], "isEqualTo", parts[0], transcript)
    elif head in ("assertTrue", "assertFalse", "assertNull", "assertNotNull") and parts:
        matcher = {"assertTrue": "isTrue", "assertFalse": "isFalse", "assertNull": "isNull",
                   "assertNotNull": "isNotNull"}[head]  # fmt: skip
        _matched(parts[0], matcher, "", transcript)
    else:
        shown = ".".join([head, *(name for name, _ in calls)])
        raise Untranscribable(f"it asserts with {shown}")


def _matched(asked: str, matcher: str, given: str, transcript: Transcript) -> None:
    """`assertThat(asked).matcher(given)` as a step."""
    if compares(blank(asked, JAVA_LEXEMES)):
        raise Untranscribable(f"it compares beside the code: {asked[:80]}")
    if matcher in _TRUTH and not given:
        form, truth = _TRUTH[matcher]
        _check(transcript, form.format(asked), truth, f"{asked} ({matcher})")
        return
    if matcher == "hasSize":
        size = _held(given, transcript)
        _check(transcript, f"TddAcceptance.size({asked})", size, f"{asked} (size)")
        return
    listed = {"containsExactly": "List.of", "containsExactlyInAnyOrder": "Set.of"}
    if matcher in listed:
        given = f"{listed[matcher]}({given})"
    wanted: Any = _held(given, transcript)
    if matcher.endswith("InAnyOrderElementsOf") and isinstance(wanted, list):
        wanted = SetLiteral(wanted)
    if matcher not in ("isEqualTo", *listed) and not matcher.startswith("containsExactly"):
        raise Untranscribable(f"it asserts with {matcher}")
    _check(transcript, asked, wanted)


def _held(text: str, transcript: Transcript) -> Any:
    """What a step is held against: a literal the host reads; else the code's own."""
    wanted = read_literal(text, transcript.host)
    if wanted is NO:
        raise OwnAnswers
    return wanted


def _fails(head: str, argument: str, calls: list[tuple[str, str]], transcript: Transcript) -> None:
    """A block that must fail, and the message it must fail with where one is said."""
    named = dict(calls)
    if head == "assertThrows":
        block = _arguments_of(argument)[1] if len(_arguments_of(argument)) > 1 else ""
    else:
        block = (
            argument
            if head in ("assertThatThrownBy", "assertThatCode")
            else named.get("isThrownBy", "")
        )
    if re.fullmatch(r"[\w.]+::\w+", block.strip()):
        block = f"() -> {block.strip().replace('::', '.')}()"  # `list::pop`
    if not block.replace(" ", "").startswith("()->"):
        raise Untranscribable(f"it expects an error of no block it writes: {head}")
    known = {"isThrownBy", "isInstanceOf", "isExactlyInstanceOf", "withMessage", "hasMessage",
             "doesNotThrowAnyException", "withNoCause"}  # fmt: skip
    if unknown := [name for name, _ in calls if name not in known]:
        raise Untranscribable(f"it expects an error with {unknown[0]}")
    line, said = f"tddSteps.fails({block});", block.split("->", 1)[1].strip()
    message = named.get("withMessage", named.get("hasMessage"))
    wanted = read_literal(message, transcript.host) if message is not None else None
    if message is not None and not isinstance(wanted, str):
        raise Untranscribable(f"it expects an error message it does not write: {message[:60]}")
    transcript.block(line, said, wanted, succeeds="doesNotThrowAnyException" in named)


def _arguments_of(text: str) -> list[str]:
    return split_arguments(text, blank(text, JAVA_LEXEMES))


def _literal_bound(text: str) -> bool:
    bound = _BOUND.match(text)
    return bound is not None and read_literal(bound[2]) is not NO


def _names(text: str) -> set[str]:
    return set(re.findall(r"(?<![\w$.])[A-Za-z_$][\w$]*", blank(text, JAVA_LEXEMES)))
