"""What every edit format shares: the request it answers, the Protocol, and the checks of an
answer that do not depend on its shape (empty, runaway, an echoed example)."""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from tdd_sandbox.errors import TddSandboxError
from tdd_sandbox.llm.chat import ChatReply
from tdd_sandbox.llm.stream import REPEATING
from tdd_sandbox.protocol import EditPlan
from tdd_sandbox.vocabulary.failures import Failure
from tdd_sandbox.vocabulary.formats import EditFormat


class PlanError(TddSandboxError, ValueError):
    """A model answer that is not a usable edit plan. The message is feedback for the model."""

    def __init__(self, message: str, kind: Failure) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class Sample:
    """A tiny finished file in the kata's language (`Language.sample`, `test_sample`): the
    answer to a small ask of its own, shown as a worked example."""

    asked: str
    """What it answers, as the example puts it: "`twice(n)`, which doubles a number"."""
    path: str
    code: str
    subject: str = ""
    """The name the sample is about, where an answer about it would pass for one about the
    kata: the tester's `count_vowels` (a test of it is red until code counts vowels, and
    tests no kata). Empty for the code samples: code for `twice` fails the kata's tests."""


@dataclass(frozen=True)
class Ask:
    """What one answer is asked for, as the format needs to know it."""

    target: str = ""
    """The file the model most likely writes: named in the format's example (small models copy
    an example's path literally), and where an answer's one unnamed code block goes."""
    files: Mapping[str, bytes] = field(default_factory=dict)
    """The files as they stand (the `diff` format edits them)."""
    may_finish: bool = False
    """Whether this role may answer that it is done (the tester alone): only then does the
    format show how, since a model told of "done" says it."""
    may_keep: bool = False
    """Whether this role may leave the code as it is (the refactorer): an answer with no code
    then changes nothing. The 0.5B coder said so in prose ("No changes are needed"), which
    was refused as no file, three tries in a row, every cycle (issue #44)."""
    fence: str = ""
    """The tag of the example's code fence (the language's name)."""
    sample: Sample | None = None
    """A worked answer the example shows; without one, the example leaves a hole to fill."""
    question: str = ""
    """The text the model was asked (the kata, the files): a file that opens with it continued
    the question instead of answering it."""


class Format(Protocol):
    """One edit format: the answer it asks for, and how such an answer becomes an EditPlan."""

    edit_format: EditFormat
    continues: bool
    """Whether a retry continues the conversation, the model's answer and the code as it now
    stands in view. A format that edits the code where it stands (`diff`) must show it; one
    whose answer is whole files asks afresh with what failed: shown its own wrong FizzBuzz
    and the failures, the 0.5B coder wrote it again unchanged in 48 of 48 draws, and asked
    afresh it fixed it in 15 of 16 (issue #44)."""

    def instructions(self, ask: Ask) -> str:
        """How to answer, as an example the model fills in."""
        ...

    def asks(self, paths: Sequence[str], files: Mapping[str, bytes]) -> str:
        """The task of writing `paths` (as they stand in `files`), in this format's words: a
        task at odds with the instructions leaves a small model to pick one."""
        ...

    def parse(self, reply: ChatReply, ask: Ask) -> EditPlan:
        """The plan in `reply`.

        Raises:
            PlanError: there is none; its message says what to do instead.
        """
        ...


def placeholder(what: str) -> str:
    """A hole in an example for the model to fill; an answer that still holds it copied the
    example (`Failure.ECHO`)."""
    return f"<{what}>"


def file_hole(ask: Ask) -> str:
    """The hole an example leaves for a whole file's content."""
    return placeholder(f"all of {ask.target or 'the file'}")


def repetitive(text: str) -> bool:
    """Whether `text` is a runaway repetition (the same lines over and over)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(lines) >= 30 and max(lines.count(line) for line in set(lines)) >= 0.5 * len(lines):
        return True
    return len(text) > 3000 and len(zlib.compress(text.encode())) < 0.04 * len(text)


def check_text(reply: ChatReply) -> None:
    """Raises:
    PlanError: the answer is empty or a runaway repetition.
    """
    if not reply.text.strip():
        raise PlanError("the answer was empty", Failure.EMPTY)
    if repetitive(reply.text):
        raise PlanError(
            "the answer kept repeating itself; answer once, briefly", Failure.REPETITION
        )


def cut_short(reply: ChatReply, where: str, fix: str) -> PlanError:
    """The refusal of an answer that ended `where` (inside an edit block...) with nothing to
    judge: cut by the token limit (told `fix`; a bench counts these against `llm.max_tokens`),
    or stopped for repeating itself (`llm.stream`), which more tokens would not have mended."""
    if reply.finish_reason == REPEATING:
        return PlanError(f"the answer repeated itself until it was stopped {where}: write "
                         "each part once", Failure.REPETITION)  # fmt: skip
    return PlanError(f"the answer ran out of room {where}: {fix}", Failure.TRUNCATED)


def example_parts(ask: Ask) -> list[str]:
    """What an answer holds only if it copied the example: the hole for a whole file, and the
    worked sample's code."""
    code = ask.sample.code.strip() if ask.sample else ""
    return [file_hole(ask), *([code] if code else [])]


def check_echo(content: str, holes: Iterable[str]) -> None:
    """Raises:
    PlanError: `content` still holds one of the example's placeholders or its sample code
    (`holes`).
    """
    if any(hole in content for hole in holes):
        raise PlanError(
            "you copied the example instead of filling it in: write the real code",
            Failure.ECHO,
        )


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def words(name: str) -> tuple[str, ...]:
    """An identifier's words in lower case however the language spells it: `count_vowels`,
    `CountVowels` and `countVowels` are all ("count", "vowels")."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)
    return tuple(part.lower() for part in spaced.split("_") if part)


def check_subject(content: str, ask: Ask) -> None:
    """Raises:
    PlanError: `content` names the sample's subject (in any spelling) where the question
    never speaks of it: the example's test, whatever its inputs, moves no kata.
    """
    if ask.sample is None or not ask.sample.subject:
        return
    subject = words(ask.sample.subject)
    if not any(words(name) == subject for name in set(_IDENTIFIER.findall(content))):
        return
    # The question may speak of it, in any words ("count the vowels in a word"): then a
    # test of it may be the kata's. Only where some word of it is never said is it refused.
    said = ask.question.lower()
    if all(re.search(rf"\b{re.escape(word.rstrip('s'))}", said) for word in subject):
        return
    raise PlanError(
        # Not naming the subject: the retry's question holds this message, and would then
        # speak of what the kata never does.
        "you tested the worked example's function, which this kata never asks for: write "
        "one test of what the kata asks",
        Failure.ECHO,
    )


QUESTION_LINES = 3
"""How many opening lines of a file, all the question's own, make it a copy of the question."""


def prose(text: str) -> set[str]:
    """The stripped lines of markdown `text` outside its fenced code blocks."""
    lines: set[str] = set()
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced:
            lines.add(line.strip())
    return lines


def check_question(content: str, ask: Ask) -> None:
    """Raises:
    PlanError: `content` opens with lines of the question's prose that no file holds: the
    0.5B coder opened a code block and went on with the kata's own text (`# Kata`, its title,
    its prose) on 2 of 12 imported exercises, on every try. A file that opens with the stub's
    lines, a code example of the kata's, or prose of its own is an answer and is judged.
    """
    opening = [line.strip() for line in content.splitlines() if line.strip()][:QUESTION_LINES]
    if len(opening) < QUESTION_LINES or not ask.question:
        return
    if not set(opening) <= prose(ask.question):
        return  # the usual case: the files are read only when the opening is all question
    known = {
        line.strip()
        for data in ask.files.values()
        for line in data.decode("utf-8", "replace").splitlines()
    }
    if known.isdisjoint(opening):
        where = ask.target or "the file"
        raise PlanError(
            f"your file began with the question's own text ({opening[0]!r}), not code: write "
            f"only the code of {where}",
            Failure.ECHO,
        )


def check_file(content: str, ask: Ask) -> None:
    """Raises:
    PlanError: a file of the answer continues the question or is about the sample.
    """
    check_question(content, ask)
    check_subject(content, ask)


KEEP = "NO CHANGES"
"""What a role that may leave the code as it is answers to say so, in a text format."""


def keeping(ask: Ask, how: str = f"answer only: {KEEP}") -> str:
    """The instruction's line on leaving the code as it is (`how`), for a role that may."""
    return f"\nIf nothing is worth changing, {how}" if ask.may_keep else ""


def kept(text: str, ask: Ask) -> EditPlan | None:
    """The empty plan of a role that may keep the code and answered without a code block
    (`KEEP`, or saying so in its own words); None for any other answer."""
    if not ask.may_keep or "```" in text:
        return None
    return EditPlan(
        plan=text.strip().split("\n", 1)[0][:200], edits=[], commit_message="", done=False
    )


def finish(plan: EditPlan, ask: Ask) -> EditPlan:
    """`plan` as the role may mean it: "done" from a role that may not finish is dropped when
    it comes with edits (they are what was asked) or from a role that may change nothing, and
    refused when it comes alone.

    Raises:
        PlanError: a role that may not finish said done and changed nothing.
    """
    if not plan.done or ask.may_finish:
        return plan
    if plan.edits or ask.may_keep:
        return plan.model_copy(update={"done": False})
    where = f": write {ask.target}" if ask.target else ""
    raise PlanError(f"nothing was changed; the task is not done{where}", Failure.NO_CHANGE)


def whole_files_asked(paths: Sequence[str]) -> str:
    """The task of writing `paths` whole, as plainly as a person would ask it: talk of the
    tests here makes a small model write tests instead of the code (measured, issue #44)."""
    if len(paths) > 1:
        return f"Write the complete files {listed(paths)}."
    return f"Write the complete file {paths[0] if paths else 'of the implementation'}."


def listed(paths: Sequence[str]) -> str:
    """`paths` as a sentence names them: `a.py`, `a.py and b.py`, `a.py, b.py and c.py`."""
    return f"{', '.join(paths[:-1])} and {paths[-1]}" if len(paths) > 1 else "".join(paths)


class AsksWholeFiles:
    """The task of a format whose answer is whole files: to write them whole."""

    def asks(self, paths: Sequence[str], files: Mapping[str, bytes]) -> str:
        """The task of writing `paths` whole (`whole_files_asked`)."""
        return whole_files_asked(paths)
