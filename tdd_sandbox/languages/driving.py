"""What every pack's acceptance driver provides on the host side, and the parts they share."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from tdd_sandbox.errors import UsageError
from tdd_sandbox.languages.deriving import is_rows
from tdd_sandbox.languages.framing import read_framed
from tdd_sandbox.languages.members import as_name
from tdd_sandbox.languages.scripting import TIMES, is_group, step_of
from tdd_sandbox.vocabulary.cases import CallMap, Case, Observed
from tdd_sandbox.vocabulary.files import TOOL_CONFIG

DRIVER_DIR = ".tdd/acceptance"
"""Where the driver and the inputs go in the sandbox's snapshot: a path no agent may write."""
_PLACEHOLDER = re.compile(r"\$\{(\w+(?:\.\w+)*)(?:\+(\w+))?(?:\|(lines|json|lower|name|steps))?\}")


@dataclass(frozen=True)
class Prepared:
    """A snapshot to judge in, the command that runs every case, and its results file."""

    files: dict[str, bytes]
    command: tuple[str, ...]
    results: str


class Driver(Protocol):
    """The host side of one language's acceptance driver."""

    source: Path
    """The driver program (or its template) that goes into the sandbox beside the code."""

    def prepare(
        self, files: Mapping[str, bytes], cases: Sequence[Case], calls: CallMap, nonce: str
    ) -> Prepared:
        """The snapshot (the implementation files only, plus the driver and the cases'
        inputs) and the command that runs every case.

        Raises:
            UsageError: the call mapping cannot express a case.
        """
        ...

    def read(
        self, data: bytes | None, nonce: str, cases: Sequence[Case]
    ) -> tuple[dict[str, Observed], str]:
        """What was observed per case id, and why nothing ran (empty when something did)."""
        ...


def implementation_files(language: CodeFiles, files: Mapping[str, bytes]) -> dict[str, bytes]:
    """The model's tree without its tests, runner configuration or the tool's config: the
    hidden suite is judged against the code alone."""
    return {
        path: data
        for path, data in files.items()
        if not language.is_test_path(path)
        and not language.is_runner_config(path)
        and path.rsplit("/", 1)[-1].casefold() not in TOOL_CONFIG
    }


def render_calls(
    calls: CallMap,
    cases: Sequence[Case],
    literal: Callable[[Any], str],
    reported: Callable[[str], str] = str,
    lined: Callable[[str], str] = str,
    transcribes: bool = False,
) -> list[str]:
    """Each case's call, rendered (`render_call`) with its property's steps, if any, and
    given to `reported` (how the driver reports an answer), or for a script, whose call
    gives its line already (each step's answer read as it came: `CallMap.steps`), to
    `lined`, as is a case performed by its track's test transcribed, whose expression gives
    its steps' line too, where the driver `transcribes` (it runs the transcript's language).

    Raises:
        UsageError: a case cannot be written so.
    """
    answers = []
    for case in cases:
        if case.id in calls.transcripts:
            if not transcribes:
                raise UsageError(f"{case.id}: this language's driver runs no transcribed test")
            answers.append(lined(calls.transcripts[case.id]))
            continue
        steps = calls.steps.get(case.property)
        call = render_call(calls.calls[case.property], case, literal, steps)
        answers.append(lined(call) if steps is not None else reported(call))
    return answers


def render_call(
    template: str,
    case: Case,
    literal: Callable[[Any], str],
    steps: Mapping[str, str] | None = None,
) -> str:
    """`template` with each `${name}` replaced by the case's input `name` as a literal (a
    field of a record input as `${name.field}`, an item of a list input as `${name.0}`), and
    each `${name|lines}` by its list of strings as one string of lines (a track that takes
    a grid or a table as text where the canonical data lists its rows), and each
    `${name|json}` by its JSON text as a string (for a driver to convert to the type the
    call takes: Go's `[]Domino`), and each `${name|lower}` by its text in lower case (a
    track that spells the data's names so: JavaScript's space-age `age('earth', ...)`), and
    each `${name|name}` by its text as a name, not a literal (`members.as_name`: a member
    named by the value, C++'s space-age `on_earth()`), only where it is one; and each
    `${name|steps}` by its list of operations as their steps, joined by commas: each the
    template `steps` gives its operation (`scripting.step_of`), rendered so with the
    operation's fields as the inputs (a group's count once where it gives none); and each
    `${name+other}` by the list `name` with the input `other` after its items (a replay's
    steps and the one the case asks: `folding.Fold.replayed`).

    Raises:
        UsageError: the case has no such input, or it cannot be written as a literal.
    """

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        value: Any = case.input
        # `${key.a}`: the field `a` of the input `key`; `${sides.0}`: the first item of `sides`
        for part in name.split("."):
            if isinstance(value, list) and part.isdigit() and int(part) < len(value):
                value = value[int(part)]
            elif isinstance(value, dict) and part in value:
                value = value[part]
            else:
                raise UsageError(
                    f"case {case.id!r} has no input {name!r} for the call {template!r}"
                )
        if match.group(2) is not None:  # `${items+last}`: the list, then one more
            if not isinstance(value, list) or match.group(2) not in case.input:
                raise UsageError(f"case {case.id!r} has no list {name!r} and input {match[2]!r}")
            value = [*value, case.input[match.group(2)]]
        how = match.group(3)
        if how == "steps":
            return _steps(value, case, literal, steps or {})
        if how == "lines":
            if not is_rows(value):
                raise UsageError(f"case {case.id!r}: input {name!r} is not a list of lines")
            value = "\n".join(value)
        elif how == "json":
            value = json.dumps(value, ensure_ascii=False)
        elif how == "name":
            named = as_name(value)
            if named is None:
                raise UsageError(f"case {case.id!r}: input {name!r} is no name: {value!r}")
            return named
        elif how == "lower":
            if not isinstance(value, str):
                raise UsageError(f"case {case.id!r}: input {name!r} is not a text")
            value = value.lower()
        return literal(value)

    return _PLACEHOLDER.sub(replace, template)


def rename_inputs(template: str, names: Mapping[str, str]) -> str:
    """`template` with each placeholder of an input `names` holds (its first part: `key` of
    `${key.a}`, and a replay's `+last`) naming the input `names` gives it instead."""

    def rename(match: re.Match[str]) -> str:
        head, dot, rest = match.group(1).partition(".")
        text = "${" + names.get(head, head) + dot + rest
        if match.group(2) is not None:
            text += "+" + names.get(match.group(2), match.group(2))
        return text + (f"|{match.group(3)}" if match.group(3) else "") + "}"

    return _PLACEHOLDER.sub(rename, template)


def _steps(value: Any, case: Case, literal: Callable[[Any], str], steps: Mapping[str, str]) -> str:
    if not isinstance(value, list) or not all(isinstance(op, dict) for op in value):
        raise UsageError(f"case {case.id!r}: its operations are not a list of records")
    rendered = []
    for op in value:
        template = step_of(op, steps)
        if template is None:
            raise UsageError(f"case {case.id!r}: no step performs the operation {op!r}")
        fields = {TIMES: 1, **op} if is_group(op) else op
        rendered.append(render_call(template, replace(case, input=fields), literal, steps))
    return ", ".join(rendered)


class CodeFiles(Protocol):
    """What a driver asks of its pack's plug-in: which of a tree's files are the code."""

    source_suffixes: tuple[str, ...]

    def is_test_path(self, path: str) -> bool:
        """Whether `path` holds tests."""
        ...

    def is_runner_config(self, path: str) -> bool:
        """Whether `path` configures how tests are found or run."""
        ...


class PackDriver:
    """A driver bound to its pack's plug-in, which tells the code from the tests."""

    def __init__(self, language: CodeFiles) -> None:
        self.language = language


class FramedDriver(PackDriver):
    """What the drivers that print one framed line per case share: reading them back."""

    def read(
        self, data: bytes | None, nonce: str, cases: Sequence[Case]
    ) -> tuple[dict[str, Observed], str]:
        """Each case's framed line (see `read_framed`)."""
        return read_framed(data, nonce, cases)
