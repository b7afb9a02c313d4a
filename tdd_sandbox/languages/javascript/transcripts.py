"""A JavaScript track's own Jest tests as data (`transcribing` says how, and why): each test
named as a case runs after its describe blocks' statements and `beforeEach` bodies, and each
`expect(actual)` there only answers `actual`. What it is held against may be a literal, or
a name the test or its file binds to one and uses for nothing else, or a field of one
(`expected.value`). Of the spec's own code, only the statements a test runs, the functions
and values of its file they use, and its imports of the code are shipped.

Matchers: `toEqual`, `toStrictEqual` and `toBe` a value; `toBeTruthy`, `toBeFalsy`,
`toBeNull`, `toBeUndefined`, `toBeDefined`; `toHaveLength` a number; `toThrow` (or
`toThrowError`) with no argument, an error's kind, a message or `new Error(message)`, and
`not.toThrow()`. Any other (`.not.toBe`, `toBeCloseTo`, `resolves`) leaves the exercise to
the track's tests."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import PurePosixPath
from typing import Any

from tdd_sandbox.languages.javascript.jest import SpecTest, SpecUnreadable, read_spec
from tdd_sandbox.languages.javascript.literals import read_literal
from tdd_sandbox.languages.javascript.reader import read_javascript
from tdd_sandbox.languages.lexing import bracket_end
from tdd_sandbox.languages.literal_reader import NO
from tdd_sandbox.languages.transcribing import (
    OwnAnswers,
    Transcribed,
    Transcript,
    Untranscribable,
    compares,
    needed_names,
)
from tdd_sandbox.vocabulary.cases import CallMap, Case

HELPER = """
const tddFailed = (error) => ({
  error: String(error instanceof Error ? error.message : error),
  error_type: error instanceof Error ? "Error" : "throw",
});
const tddCheck = (answer) => {
  try {
    return { value: plain(answer(), 1) };
  } catch (error) {
    if (error instanceof NotPlain) throw error;
    return tddFailed(error);
  }
};
const tddFails = (block) => {
  try {
    block();
  } catch (error) {
    return tddFailed(error);
  }
  return { value: null };
};
"""
"""A transcript's helpers: an asserted value read as plain data at once (later code could
change what it holds), or its error; a block that must fail, and its error."""
_BOUND = re.compile(r"(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(.*?);?\s*$", re.DOTALL)
_EXPECT = re.compile(r"(?<![\w$.])expect\s*\(")
_MATCHERS = ("toEqual", "toStrictEqual", "toBe", "toBeTruthy", "toBeFalsy", "toBeNull",
             "toBeUndefined", "toBeDefined", "toHaveLength", "toThrow", "toThrowError")  # fmt: skip
_MATCHER = re.compile(rf"\)\s*\.\s*(not\s*\.\s*toThrow|{'|'.join(_MATCHERS)})\s*\(")
_RUNNER_GLOBALS = frozenset({"describe", "test", "it", "xtest", "xit", "expect", "jest",
                             "beforeEach", "afterEach", "beforeAll", "afterAll", "vi"})  # fmt: skip
_NAME = re.compile(r"(?<![\w$.])(?<!\?\.)[A-Za-z_$][\w$]*")
_FIELD = re.compile(r"([A-Za-z_$][\w$]*)((?:\s*\.\s*[A-Za-z_$][\w$]*|\s*\[\s*\d+\s*\])*)")
_ERROR = re.compile(r"new\s+\w*Error\s*\((.*)\)", re.DOTALL)
_TRUTH = {"toBeTruthy": ("Boolean({})", True), "toBeFalsy": ("Boolean({})", False),
          "toBeNull": ("({}) === null", True), "toBeUndefined": ("({}) === undefined", True),
          "toBeDefined": ("({}) === undefined", False)}  # fmt: skip


@dataclass
class _Transcript(Transcript):
    held: set[str] = field(default_factory=set)
    """The names of the host's values the steps are held against."""

    def value(self, text: str) -> Any:
        """What `text` writes with the host's values (`_host_value`), the names it read
        noted."""
        found = _host_value(text, self.host)
        if found is not NO:
            self.held |= _names(text) & self.host.keys()
        return found


def derive_javascript_transcripts(
    cases: Sequence[Case], tests: Mapping[str, bytes]
) -> CallMap | str:
    """Each case's test transcribed (`CallMap.transcripts`), what its steps must answer
    restated (`CallMap.restated`); or why the tests cannot be read so."""
    specs = []
    for path, data in sorted(tests.items()):
        try:
            specs.append(read_spec(data.decode("utf-8", "replace")))
        except SpecUnreadable as exc:
            return f"the track's spec {path} cannot be read: {exc}"
    declared = {name: text for spec in specs for name, text in spec.declared.items()}
    file_values = {name: v for name, text in declared.items()
                   if (v := _bound_literal(text)) is not NO}  # fmt: skip
    made, held = Transcribed(cases), set[str]()
    for test in (test for spec in specs for test in spec.tests):
        case = made.case_of(test.name, test.groups)
        if refused := made.take(case, repr(test.name), partial(_source, test, file_values, held)):
            return refused
    used = needed_names(made.transcripts.values(), declared, _names)
    if asserting := [name for name in used if _EXPECT.search(read_javascript(declared[name]).code)]:
        return f"a function of the spec's that a test calls expects itself: {asserting[0]}"
    if shared := sorted(held & set(used)):
        # A value of the file's the code is given: held against, the code could read it.
        return f"the spec holds answers against {shared[0]}, which it gives the code too"
    imports = [_import(line) for spec in specs for line in spec.imports]
    return made.calls(
        "\n".join([*filter(None, imports), *(declared[name] for name in used), HELPER])
    )


def _source(
    test: SpecTest, file_values: Mapping[str, Any], held: set[str]
) -> tuple[str, Transcript]:
    """The test as the driver runs it: an async function, called, that answers its steps;
    the names of the host's values it holds against noted in `held`."""
    transcript = _transcribe(test, file_values)
    held |= transcript.held
    lines = ["(async () => {", "const tddSteps = [];", *transcript.lines, "return tddSteps;"]
    return "\n".join([*lines, "})()"]), transcript


def _transcribe(test: SpecTest, file_values: Mapping[str, Any]) -> _Transcript:
    """The test's statements, its expectations as steps; raises `Untranscribable`."""
    said = [*test.before, *test.body]
    parsed = [_expectation(text) for text in said]
    shipped_text = [p[0] for p in parsed if p is not None] + [
        text for text, p in zip(said, parsed, strict=True) if p is None and not _literal_bound(text)
    ]
    used = {name for text in shipped_text for name in _names(text)}
    transcript = _Transcript(host=dict(file_values))
    for text, expectation in zip(said, parsed, strict=True):
        if expectation is not None:
            _expect(*expectation, transcript)
            continue
        if _EXPECT.search(read_javascript(text).code):
            raise Untranscribable(f"it expects inside a statement: {text.splitlines()[0][:80]}")
        bound = _BOUND.match(text)
        if bound and bound[1] not in used and (value := read_literal(bound[2])) is not NO:
            transcript.host[bound[1]] = value  # held against only: it stays here
            continue
        transcript.host.pop(bound[1], None) if bound else None
        transcript.lines.append(text)
    if not transcript.steps:
        raise Untranscribable("it expects nothing")
    return transcript


def _expectation(text: str) -> tuple[str, str, str] | None:
    """`expect(actual).matcher(argument);` as its three texts; None for any other
    statement. Raises `Untranscribable` for an expectation of another shape."""
    code = read_javascript(text).code
    if not (opened := _EXPECT.match(code)):
        return None
    closing = _closing(code, opened.end() - 1)
    matcher = _MATCHER.match(code, closing)
    if matcher is None:
        raise Untranscribable(f"it expects with {_said(code[closing + 1 :])}")
    ending = _closing(code, matcher.end() - 1)
    if code[ending + 1 :].strip() not in ("", ";"):
        raise Untranscribable(f"it expects more of one value: {_said(code[ending + 1 :])}")
    actual = text[opened.end() : closing].strip().removesuffix(",").strip()
    argument = text[matcher.end() : ending].strip().removesuffix(",").strip()
    return actual, re.sub(r"\s", "", matcher[1]), argument


def _expect(actual: str, matcher: str, argument: str, transcript: _Transcript) -> None:
    if matcher not in ("toThrow", "toThrowError", "not.toThrow") and compares(
        read_javascript(actual).code
    ):
        raise Untranscribable(f"it compares beside the code: {actual[:80]}")
    if matcher in _TRUTH:
        form, wanted = _TRUTH[matcher]
        line = f"tddSteps.push(tddCheck(() => {form.format(actual)}));"
        transcript.check(line, f"{actual} ({matcher})", wanted)
        return
    if matcher == "not.toThrow" and not argument:
        transcript.block(f"tddSteps.push(tddFails({actual}));", actual, None, succeeds=True)
        return
    if matcher in ("toThrow", "toThrowError"):
        line = f"tddSteps.push(tddFails({actual}));"
        transcript.block(line, actual, _thrown(argument, transcript))
        return
    wanted = transcript.value(argument)
    if wanted is NO:
        computed = "(" in argument or _names(argument) - transcript.host.keys()
        raise OwnAnswers if computed else Untranscribable(f"it expects {argument[:80]}")
    if matcher == "toHaveLength":
        actual = f"({actual}).length"
    transcript.check(f"tddSteps.push(tddCheck(() => ({actual})));", actual, wanted)


def _thrown(argument: str, transcript: _Transcript) -> str | None:
    """The message a block must fail with, where the test says one."""
    if not argument or re.fullmatch(r"[A-Z][\w$]*", argument):  # any error, or of a kind
        return None
    made = _ERROR.fullmatch(argument)
    message = transcript.value(made[1].strip() if made else argument)
    if not isinstance(message, str):
        raise Untranscribable(f"it expects an error of no message it writes: {argument[:80]}")
    return message


def _host_value(text: str, host: Mapping[str, Any]) -> Any:
    """The value `text` writes as a literal, or reads of the host's values (`expected`,
    `expected.value`, `rows[0]`); `NO` for anything else."""
    if (value := read_literal(text, host)) is not NO:
        return value
    path = _FIELD.fullmatch(text.strip())
    if path is None or path[1] not in host:
        return NO
    value = host[path[1]]
    for step in re.findall(r"[A-Za-z_$][\w$]*|\d+", path[2]):
        if isinstance(value, dict) and step in value:
            value = value[step]
        elif isinstance(value, list) and step.isdigit() and int(step) < len(value):
            value = value[int(step)]
        elif isinstance(value, list | str) and step == "length":
            value = len(value)
        else:
            return NO
    return value


def _bound_literal(text: str) -> Any:
    bound = _BOUND.match(text)
    return read_literal(bound[2]) if bound else NO


def _literal_bound(text: str) -> bool:
    return _bound_literal(text) is not NO


def _names(text: str) -> set[str]:
    """The names `text` reads (not a member after a dot), as its code reads them."""
    return set(_NAME.findall(read_javascript(text).code))


def _import(line: str) -> str:
    """An import of the spec's as the driver beside the code makes it: none of the test
    runner's globals (however the spec was placed: `@jest/globals`, the image's own); a
    module of the code's as the file beside the driver, named with its suffix (`.js` where
    the spec left it out, as Babel lets JavaScript's do)."""
    source = re.search(r"""from\s+(['"])(.+?)\1""", line)
    names = re.search(r"import\s*\{([^}]*)\}", line)
    imported = {n.split(" as ")[0].strip() for n in names[1].split(",")} if names else set()
    if source is None or (imported and imported - {""} <= _RUNNER_GLOBALS):
        return ""
    if not source[2].startswith("."):
        return line
    module = PurePosixPath(source[2]).name
    module += "" if re.search(r"\.[cm]?[jt]s$", module) else ".js"
    return line.replace(source[0], f'from "./{module}"')


def _closing(code: str, opening: int) -> int:
    closing = bracket_end(code, opening)
    if closing < 0:
        raise Untranscribable("brackets that do not close")
    return closing


def _said(text: str) -> str:
    return text.strip().splitlines()[0][:60] if text.strip() else "nothing"
