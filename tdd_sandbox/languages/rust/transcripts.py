"""A Rust track's own `#[test]` functions as data (`transcribing` says how, and why): each
runs in the driver as written, and each assertion there only answers the value it asserts.
What it is held against is a literal (`literals`) or a name the test binds to one and uses
for nothing else. The file's `use` lines join the driver, and so do its other items (a
helper function, a constant) where a test uses them; nothing else of the file is shipped.

Assertions: `assert_eq!` (either side the literal), `assert!` of a value, of its negation
or of `==`; a `#[should_panic]` test is one step that must panic, with the message its
`expected` gives. Any other (`assert_ne!`, `assert!` of another comparison, an assertion
in a block, or in a test that must panic) leaves the exercise to the track's tests."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from tdd_sandbox.languages.lexing import bracket_end, statement_spans
from tdd_sandbox.languages.literal_reader import NO
from tdd_sandbox.languages.rust.literals import read_literal
from tdd_sandbox.languages.rust.reader import rust_code
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

_TEST = re.compile(r"#\[\s*test\s*\]")
_PANICS = re.compile(r"#\[\s*should_panic\b")
_EXPECTED = re.compile(r"#\[\s*should_panic\s*\(\s*expected\s*=\s*(\"(?:\\.|[^\"\\])*\")")
_FN = re.compile(r"\bfn\s+(\w+)\s*(?:<[^>]*>)?\s*\(")
_DECLARES = re.compile(
    r"\b(?:fn|const|static|struct|enum|type|trait|mod)\s+(\w+)|\bimpl\b[^{]*?\b(\w+)\s*(?:<[^>]*>)?\s*\{"
)
_ASSERT = re.compile(r"(assert_eq|assert_ne|assert|debug_assert\w*)\s*!\s*\(")
_BOUND = re.compile(r"let\s+(\w+)\s*(?::[^=]+)?=\s*(.*?);?\s*$", re.DOTALL)


@dataclass(frozen=True)
class _Test:
    name: str
    body: tuple[str, ...]
    panics: str | None
    """Where it must panic: the message its `expected` gives ("" for any); else None."""


def _check(transcript: Transcript, asked: str, wanted: Any, said: str = "") -> None:
    if compares(rust_code(asked)[0]):
        raise Untranscribable(f"it compares beside the code: {asked[:80]}")
    transcript.check(f"tdd_steps.value(&({asked}));", said or asked, wanted)


def derive_rust_transcripts(cases: Sequence[Case], tests: Mapping[str, bytes]) -> CallMap | str:
    """Each `#[test]` of the track's transcribed, the data's case it is named as or one of
    its own, what its steps must answer restated; or why the tests cannot be read so."""
    uses, items, found = [], {}, []
    for path, data in sorted(tests.items()):
        text = data.decode("utf-8", "replace")
        code, _ = rust_code(text)
        try:
            spans = statement_spans(code, 0, len(code))
        except ValueError as exc:
            return f"the track's test {path} cannot be read: {exc}"
        for start, end in spans:
            said, blank = text[start:end].strip(), code[start:end].strip()
            if blank.startswith("use "):
                uses.append(said)
            elif _TEST.search(blank[: blank.find("fn ") + 1]):
                found.append(_test_of(said, blank))
            else:
                for declared in _DECLARES.finditer(blank):
                    items[declared[1] or declared[2]] = said
    if not found:
        return "the track's tests hold no #[test]"
    made = Transcribed(cases)
    for test in found:
        case = made.case_of(test.name.replace("_", " "))
        if refused := made.take(case, test.name, partial(_source, test)):
            return refused
    needed = list(
        dict.fromkeys(items[n] for n in needed_names(made.transcripts.values(), items, _names))
    )
    if asserting := [item for item in needed if _ASSERT.search(rust_code(item)[0])]:
        # Shipped, its assertion would run beside the code, what it holds against and all.
        name = _DECLARES.search(rust_code(asserting[0])[0])
        return f"a function of the tests' that a test calls asserts itself: {name and name[0]}"
    return made.calls("\n".join([*dict.fromkeys(uses), *needed]))


def _test_of(said: str, blank: str) -> _Test:
    """A `#[test]` function: its name, its body's statements, whether it must panic."""
    name = _FN.search(blank)
    opening = blank.find("{", name.end()) if name else -1
    closing = bracket_end(blank, opening) if opening >= 0 else -1
    if name is None or closing < 0:
        return _Test("", (), None)
    body = [said[s:e].strip() for s, e in statement_spans(blank, opening + 1, closing)]
    panics = _PANICS.search(blank[: name.start()])
    expected = _EXPECTED.search(said[: name.start()]) if panics else None
    message = read_literal(expected[1]) if expected else ""
    return _Test(name[1], tuple(body), message if isinstance(message, str) and panics else None)


def _source(test: _Test) -> tuple[str, Transcript]:
    """The test as the driver runs it: a block that answers its steps' line."""
    transcript = _transcribe(test)
    lines = ["{", "let mut tdd_steps = TddSteps::default();", *transcript.lines]
    return "\n".join([*lines, "tdd_steps.line()", "}"]), transcript


def _transcribe(test: _Test) -> Transcript:
    """The test's statements, its assertions as steps; raises `Untranscribable`."""
    if not test.name:
        raise Untranscribable("a test function it does not read")
    transcript = Transcript()
    if test.panics is not None:
        if any(_ASSERT.search(rust_code(text)[0]) for text in test.body):
            raise Untranscribable("it asserts in a test that must panic")
        block = "\n".join(test.body)
        line = f"tdd_steps.fails(|| {{\n{block}\n}});"
        transcript.block(line, f"{test.name} panics", test.panics or None)
        return transcript
    used = {n for text in test.body if not _literal_bound(text) for n in _names(_asked(text))}
    for text in test.body:
        code = rust_code(text)[0]
        if (asserted := _ASSERT.match(code)) is not None:
            closing = bracket_end(code, asserted.end() - 1)
            if code[closing + 1 :].strip() not in ("", ";"):
                raise Untranscribable(f"it asserts more than it reads: {text[:60]}")
            _assert(asserted[1], text[asserted.end() : closing], transcript)
            continue
        if _ASSERT.search(code):
            raise Untranscribable(f"it asserts inside a statement: {text.splitlines()[0][:60]}")
        bound = _BOUND.match(text)
        value = read_literal(bound[2], transcript.host) if bound else NO
        if bound and bound[1] not in used and value is not NO:
            transcript.host[bound[1]] = value  # held against only: it stays here
            continue
        transcript.lines.append(text if text.endswith((";", "}")) else f"{text};")
    if not transcript.steps:
        _check(transcript, "()", None, "the test runs to its end")
    return transcript


def _assert(macro: str, given: str, transcript: Transcript) -> None:
    arguments = split_arguments(given, rust_code(given)[0])
    if macro == "assert" and arguments:
        asked = arguments[0]
        code = rust_code(asked)[0].strip()
        if (equal := _top_level(code, "==")) is not None:
            arguments, macro = [asked[:equal].strip(), asked[equal + 2 :].strip()], "assert_eq"
        elif re.search(r"[<>]=?|!=|&&|\|\|", code):
            # `len >= 100` would hold its literal against the code in the driver.
            raise Untranscribable(f"it asserts a comparison: {asked[:60]}")
        else:
            negated = code.startswith("!")
            inner = asked.strip()[1:] if negated else asked
            _check(transcript, inner, not negated, f"assert!({asked.strip()[:60]})")
            return
    if macro != "assert_eq" or len(arguments) < 2:
        raise Untranscribable(f"it asserts with {macro}!")
    first, second = arguments[:2]
    for asked, held in ((first, second), (second, first)):
        wanted = read_literal(held, transcript.host)
        if wanted is not NO and read_literal(asked, transcript.host) is NO:
            _check(transcript, asked, wanted)
            return
    raise OwnAnswers


def _top_level(code: str, operator: str) -> int | None:
    """Where `operator` stands in `code` outside brackets, once; None elsewhere."""
    depth, found = 0, []
    for at, char in enumerate(code):
        depth += (char in "([{") - (char in ")]}")
        if depth == 0 and code.startswith(operator, at) and code[at - 1 : at] not in "!<>=":
            found.append(at)
    return found[0] if len(found) == 1 else None


def _asked(text: str) -> str:
    """What of a statement the code runs: all of it, or of an assertion the arguments that
    are neither a literal nor a bare name (held against, they stay on the host)."""
    code = rust_code(text)[0]
    asserted = _ASSERT.match(code)
    if asserted is None:
        return text
    closing = bracket_end(code, asserted.end() - 1)
    given = text[asserted.end() : closing]
    return " ".join(
        a for a in split_arguments(given, rust_code(given)[0])
        if not re.fullmatch(r"\w+", a) and read_literal(a) is NO
    )  # fmt: skip


def _literal_bound(text: str) -> bool:
    bound = _BOUND.match(text)
    return bound is not None and read_literal(bound[2]) is not NO


def _names(text: str) -> set[str]:
    return set(re.findall(r"(?<![\w.:])[A-Za-z_]\w*", rust_code(text)[0]))
