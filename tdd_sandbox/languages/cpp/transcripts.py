"""A C++ track's own Catch2 `TEST_CASE`s as data (`transcribing` says how, and why): each
runs in the driver as written, and each assertion there only answers the value it asserts.
What it is held against is a literal (`literals`) or a name the test declares as one and
uses for nothing else. The file's `#include`s and `using` lines join the driver, and so do
its other declarations where a test uses them; nothing else of the file is shipped.

Assertions: `REQUIRE` and `CHECK` of a value or of `==` (either side the literal),
`REQUIRE_FALSE` and `CHECK_FALSE`, `REQUIRE_THROWS` and `REQUIRE_THROWS_AS` (any error of
the kata's), `REQUIRE_THROWS_WITH` (its message) and `REQUIRE_NOTHROW`. Any other
(`REQUIRE_THAT`, a `SECTION`, another comparison) leaves the exercise to the track's
tests."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from tdd_sandbox.languages.cpp.literals import read_literal
from tdd_sandbox.languages.cpp.reader import CPP_LEXEMES, cpp_text
from tdd_sandbox.languages.lexing import blank, bracket_end, statement_spans
from tdd_sandbox.languages.literal_reader import NO
from tdd_sandbox.languages.transcribing import (
    OwnAnswers,
    Transcribed,
    Transcript,
    Untranscribable,
    compares,
    needed_names,
    split_arguments,
)
from tdd_sandbox.vocabulary.cases import CallMap, Case

_CASE = re.compile(r"TEST_CASE\s*\(")
_ASSERT = re.compile(r"(REQUIRE|CHECK)(_\w+)?\s*\(")
_DIRECTIVE = re.compile(r"^[ \t]*#[^\n]*", re.MULTILINE)
_KEPT = re.compile(r'^[ \t]*#\s*include\s*[<"](?!catch2?/|test/catch)[^>"]+[>"]', re.MULTILINE)
_DECLARED = re.compile(
    r"^(?:(?:const|constexpr|static)\s+)*(?P<type>[\w:]+(?:\s*<.*>)?)\s+(?P<name>\w+)\s*"
    r"(?:=\s*(?P<value>.*?)|(?P<braced>\{.*\}))\s*;$",
    re.DOTALL,
)
_PLAIN_TYPE = re.compile(
    r"(?:std::)?(?:vector|array|set|map|unordered_map|unordered_set|string|auto|bool|char|"
    r"int|unsigned|long|short|double|float|size_t|u?int\d+_t)\b"
)
_DECLARES = re.compile(
    r"\b(?:struct|class|enum|namespace)\s+(\w+)|\b(\w+)\s*\([^;{]*\)\s*(?:const\s*)?\{"
)


def _check(transcript: Transcript, asked: str, wanted: Any, said: str = "") -> None:
    if compares(blank(asked, CPP_LEXEMES)):
        raise Untranscribable(f"it compares beside the code: {asked[:80]}")
    transcript.check(f"tdd_steps.check([&] {{ return ({asked}); }});", said or asked, wanted)


def derive_cpp_transcripts(cases: Sequence[Case], tests: Mapping[str, bytes]) -> CallMap | str:
    """Each `TEST_CASE` of the track's transcribed, the data's case it is named as or one of
    its own, what its steps must answer restated; or why the tests cannot be read so."""
    kept, items, found = [], {}, []
    for path, data in sorted(tests.items()):
        text = cpp_text(data.decode("utf-8", "replace"))
        kept += [line.strip() for line in _KEPT.findall(text)]
        kept += [line.strip() for line in re.findall(r"^\s*using\s+[^;]+;", text, re.MULTILINE)]
        code = _DIRECTIVE.sub(lambda m: " " * len(m.group()), blank(text, CPP_LEXEMES))
        try:
            spans = statement_spans(code, 0, len(code))
        except ValueError as exc:
            return f"the track's test {path} cannot be read: {exc}"
        for start, end in spans:
            said, shape = text[start:end].strip(), code[start:end].strip()
            if shape.startswith("TEST_CASE"):
                found.append(_case_of(said, shape))
            elif not shape.startswith("using"):
                for declared in _DECLARES.finditer(shape):
                    items[declared[1] or declared[2]] = said
    if not found:
        return "the track's tests hold no TEST_CASE"
    made = Transcribed(cases)
    for name, body in found:
        case = made.case_of(name.replace("_", " "))
        if refused := made.take(case, repr(name), partial(_source, name, body)):
            return refused
    needed = list(
        dict.fromkeys(items[n] for n in needed_names(made.transcripts.values(), items, _names))
    )
    if any(_ASSERT.search(blank(item, CPP_LEXEMES)) for item in needed):
        return "a function of the tests' that a test calls asserts itself"
    return made.calls("\n".join([*dict.fromkeys(kept), *needed]))


def _case_of(said: str, shape: str) -> tuple[str, list[str]]:
    """A `TEST_CASE`'s name and its body's statements ("" where it reads no name)."""
    name = re.match(r'TEST_CASE\s*\(\s*"((?:\\.|[^"\\])*)"', said)
    opening = shape.find("{")
    closing = bracket_end(shape, opening) if opening >= 0 else -1
    if name is None or closing < 0:
        return "", []
    return name[1], [said[s:e].strip() for s, e in statement_spans(shape, opening + 1, closing)]


def _source(name: str, body: list[str]) -> tuple[str, Transcript]:
    """The test as the driver runs it: a lambda, called, that answers its steps' line."""
    transcript = _transcribe(name, body)
    lines = ["[&]() -> std::string {", "tdd_acceptance::TddSteps tdd_steps;", *transcript.lines]
    return "\n".join([*lines, "return tdd_steps.line();", "}()"]), transcript


def _transcribe(name: str, body: list[str]) -> Transcript:
    """The test's statements, its assertions as steps; raises `Untranscribable`."""
    if not name:
        raise Untranscribable("a TEST_CASE it does not read")
    used = {n for text in body if not _literal_declared(text) for n in _names(_asked(text))}
    transcript = Transcript()
    for text in body:
        shape = blank(text, CPP_LEXEMES)
        if (asserted := _ASSERT.match(shape)) is not None:
            closing = bracket_end(shape, asserted.end() - 1)
            if shape[closing + 1 :].strip() not in ("", ";"):
                raise Untranscribable(f"it asserts more than it reads: {text[:60]}")
            _assert(asserted[1] + (asserted[2] or ""), text[asserted.end() : closing], transcript)
            continue
        if _ASSERT.search(shape) or re.search(r"\bSECTION\s*\(", shape):
            raise Untranscribable(f"it asserts inside a statement: {text.splitlines()[0][:60]}")
        declared = _declared(text)
        if declared is not None and declared[0] not in used:
            value = read_literal(declared[1], transcript.host, declared[2])
            if value is not NO:
                transcript.host[declared[0]] = value  # held against only: it stays here
                continue
        transcript.lines.append(text)
    if not transcript.steps:  # it passes where it runs to its end
        transcript.check("tdd_steps.check([&] {});", "the test runs to its end", None)
    return transcript


def _assert(macro: str, given: str, transcript: Transcript) -> None:
    arguments = split_arguments(given, blank(given, CPP_LEXEMES))
    if not arguments:
        raise Untranscribable(f"it asserts nothing with {macro}")
    if "THROWS" in macro or macro.endswith("NOTHROW"):
        line = f"tdd_steps.check([&] {{ (void)({arguments[0]}); }});"
        said = arguments[0].strip()
        if said.startswith("(") and bracket_end(blank(said, CPP_LEXEMES), 0) == len(said) - 1:
            said = said[1:-1].strip()  # `((queen_attack::chess_board{white, black}))`
        if macro.endswith("THROWS_WITH") and len(arguments) > 1:
            message = read_literal(arguments[1], transcript.host)
            if not isinstance(message, str):
                raise Untranscribable(f"it expects a message it does not write: {given[:60]}")
            transcript.block(line, said, message)
        elif macro.endswith(("THROWS", "THROWS_AS", "NOTHROW")):
            transcript.block(line, said, None, succeeds=macro.endswith("NOTHROW"))
        else:
            raise Untranscribable(f"it asserts with {macro}")
        return
    if macro not in ("REQUIRE", "CHECK", "REQUIRE_FALSE", "CHECK_FALSE") or len(arguments) > 1:
        raise Untranscribable(f"it asserts with {macro}")
    asked = arguments[0]
    shape = blank(asked, CPP_LEXEMES)
    equal = [
        m.start()
        for m in re.finditer(r"(?<![=!<>])==(?!=)", shape)
        if _depth(shape, m.start()) == 0
    ]
    if len(equal) == 1:
        first, second = asked[: equal[0]].strip(), asked[equal[0] + 2 :].strip()
        for actual, held in ((first, second), (second, first)):
            wanted = read_literal(held, transcript.host)
            if wanted is not NO and read_literal(actual, transcript.host) is NO:
                _check(transcript, actual, wanted)
                return
        raise OwnAnswers
    if re.search(r"[<>]=?|!=|&&|\|\||==", shape):
        raise Untranscribable(f"it asserts a comparison: {asked[:60]}")
    truth = not macro.endswith("FALSE")
    _check(transcript, f"static_cast<bool>({asked})", truth, f"{macro}({asked[:60]})")


def _depth(code: str, at: int) -> int:
    return sum((c in "([{") - (c in ")]}") for c in code[:at])


def _declared(text: str) -> tuple[str, str, str] | None:
    """A declaration of a value of the language's own types (a container, text, a number;
    `auto`): its name, the text of its value and its type; None for any other (an object
    of the code's, `school_{}`, is made, not written)."""
    match = _DECLARED.match(text.strip())
    if match is None or not _PLAIN_TYPE.match(match["type"]):
        return None
    return match["name"], (match["value"] or match["braced"] or "").strip(), match["type"]


def _literal_declared(text: str) -> bool:
    declared = _declared(text)
    return declared is not None and read_literal(declared[1], {}, declared[2]) is not NO


def _asked(text: str) -> str:
    """What of a statement the code runs: all of it, or of an assertion what it asks."""
    shape = blank(text, CPP_LEXEMES)
    asserted = _ASSERT.match(shape)
    if asserted is None:
        return text
    closing = bracket_end(shape, asserted.end() - 1)
    inner = text[asserted.end() : closing]
    return " ".join(
        side for side in re.split(r"==", inner)
        if not re.fullmatch(r"\s*\w+\s*", side) and read_literal(side.strip()) is NO
    )  # fmt: skip


def _names(text: str) -> set[str]:
    return set(re.findall(r"(?<![\w.:>])[A-Za-z_]\w*", blank(text, CPP_LEXEMES)))
