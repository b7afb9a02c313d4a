"""The `diff` format: aider's SEARCH/REPLACE blocks. Each block names a file, quotes lines of
it exactly and gives their replacement; an empty SEARCH creates a file. For larger files it
costs a fraction of the tokens of `whole`.

An answer with no block at all is read as whole files (models write a new file that way).
A block applies where its SEARCH text stands exactly once; failing that, where it stands
exactly once with each line's surrounding white space ignored (the replacement then takes the
file's indentation). A block that matches nowhere or more than once is a failed attempt
(`no_match`, `many_matches`) whose reason goes back to the model. Blocks apply in order, each
to the file as the blocks before it left it; the plan holds the resulting whole files.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tdd_sandbox.llm.chat import ChatReply
from tdd_sandbox.llm.formats.base import (
    Ask,
    PlanError,
    check_echo,
    check_file,
    check_text,
    cut_short,
    example_parts,
    keeping,
    listed,
    placeholder,
    whole_files_asked,
)
from tdd_sandbox.llm.formats.whole import PATH_LINE, WholeFormat
from tdd_sandbox.protocol import Edit, EditPlan
from tdd_sandbox.vocabulary.failures import Failure
from tdd_sandbox.vocabulary.formats import EditFormat

_SEARCH = re.compile(r"^[ \t]*<{5,9}[ \t]*SEARCH[ \t]*$")
_DIVIDER = re.compile(r"^[ \t]*={5,9}[ \t]*$")
_REPLACE = re.compile(r"^[ \t]*>{5,9}[ \t]*REPLACE[ \t]*$")
_PATH = re.compile(rf"^{PATH_LINE}$")
_HOLES = (placeholder("the exact lines now in the file"), placeholder("the new lines"))


@dataclass(frozen=True)
class Block:
    """One SEARCH/REPLACE block."""

    path: str
    search: str
    replace: str


class DiffFormat:
    """SEARCH/REPLACE blocks, applied to the files as they stand."""

    edit_format = EditFormat.DIFF
    continues = True

    def instructions(self, ask: Ask) -> str:
        """The example: the target's path, then one block to fill in, whose SEARCH quotes the
        file's own first lines (a model copies an example: better it copy lines that are
        there). A file still to be written is asked for whole: a block that creates it is the
        same file with markers around it, and small models copy the markers (issue #44)."""
        path = ask.target or "path/of/the/file"
        current = ask.files.get(path, b"").decode("utf-8", "replace")
        if not current.strip():
            return WholeFormat().instructions(ask)
        how = (
            "Answer with edit blocks: the file's path on a line of its own, then a fenced block "
            "with lines copied exactly from the file and the lines to put in their place"
        )
        rules = (
            "Each SEARCH must match the file exactly once. To create a file, leave SEARCH "
            "empty. Use as many blocks as you need." + keeping(ask)
        )
        if (sample := ask.sample) is None or (renamed := _renamed(sample.code)) is None:
            return (
                f"{how}:\n\n{path}\n```{ask.fence}\n<<<<<<< SEARCH\n{_opening(current)}"
                f"=======\n{_HOLES[1]}\n>>>>>>> REPLACE\n```\n\n{rules}"
            )
        return (
            f"{how}. For example, in {sample.path}, which holds {sample.asked}, asked to name "
            f"its parameter `number`, you would answer:\n\n{sample.path}\n```{ask.fence}\n"
            f"<<<<<<< SEARCH\n{_lines(sample.code)}=======\n{_lines(renamed)}>>>>>>> REPLACE\n"
            f"```\n\nEdit {path} that way. {rules}"
        )

    def asks(self, paths: Sequence[str], files: Mapping[str, bytes]) -> str:
        """The task of editing `paths`; of writing them whole where none has a line yet to
        quote (the instructions then ask for whole files too)."""
        if not any(files.get(path, b"").strip() for path in paths):
            return whole_files_asked(paths)
        return f"Edit {listed(paths)} to solve the kata."

    def parse(self, reply: ChatReply, ask: Ask) -> EditPlan:
        """The files after the answer's blocks, as whole-file upserts.

        Raises:
            PlanError: no block, a block cut off, one that matches nowhere or more than once,
                or the example copied.
        """
        check_text(reply)
        if not any(_SEARCH.match(line) for line in reply.text.splitlines()):
            # Whole files where blocks were asked for (models do that for a new file): the
            # plan is the same, only longer.
            return WholeFormat().parse(reply, ask)
        blocks = read_blocks(reply, ask)
        files = {path: data.decode("utf-8", "replace") for path, data in ask.files.items()}
        changed: dict[str, str] = {}
        renamed = _renamed(ask.sample.code) if ask.sample else None
        copied = (*_HOLES, *example_parts(ask), *([renamed.strip()] if renamed else []))
        for block in blocks:
            check_echo(block.search + block.replace, copied)
            current = changed.get(block.path, files.get(block.path))
            changed[block.path] = apply_block(current, block)
        for content in changed.values():
            check_file(content, ask)
        edits = [Edit(path=p, action="upsert", content=c) for p, c in changed.items()]
        summary = reply.text.strip().split("\n", 1)[0][:200]
        return EditPlan(plan=summary, edits=edits, commit_message="", done=False)


def _renamed(code: str) -> str | None:
    """The worked example's answer: the sample (`twice(n)`, in every pack) with its parameter
    named `number`; None where the sample has no `n` to rename (the example then leaves a
    hole). A hole is what small models copy: the 0.5B coder answered 21 of 32 tries with
    `diff`'s copied as it stood, as it had copied `whole`'s before its worked answer."""
    renamed = re.sub(r"\bn\b", "number", code)
    return renamed if renamed != code else None


def _lines(text: str) -> str:
    """`text` as whole lines, the last one ended."""
    return text.strip("\n") + "\n"


def _opening(content: str) -> str:
    """The file's first lines, up to its first blank line (at most five): what an example
    block quotes."""
    lines: list[str] = []
    for line in content.lstrip("\n").splitlines(keepends=True):
        if not line.strip() or len(lines) == 5:
            break
        lines.append(line if line.endswith("\n") else line + "\n")
    return "".join(lines)


def read_blocks(reply: ChatReply, ask: Ask) -> list[Block]:
    """The blocks of an answer, each with the path last named before it (else the target).

    Raises:
        PlanError: none, or one cut off before its end.
    """
    lines = reply.text.splitlines()
    blocks: list[Block] = []
    path = ""
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if named := _PATH.match(line):
            path = named.group("path")
            continue
        if not _SEARCH.match(line):
            continue
        search, index = _until(lines, index, _DIVIDER, _REPLACE)
        if index <= len(lines) and _REPLACE.match(lines[index - 1]):
            raise PlanError(
                "an edit block has no ======= line between the lines to find and the lines to "
                "put in their place",
                Failure.INVALID,
            )
        replace, index = _until(lines, index, _REPLACE)
        if index > len(lines):
            if reply.cut:
                raise cut_short(reply, "inside an edit block", "send fewer or smaller blocks")
            raise PlanError("an edit block has no >>>>>>> REPLACE line to end it", Failure.INVALID)
        where = path or ask.target
        if not where:
            raise PlanError("an edit block names no file: put its path first", Failure.NO_FILES)
        blocks.append(Block(where, search, replace))
    if not blocks:
        raise PlanError(
            "no edit block found: write the file's path, then <<<<<<< SEARCH, the lines to "
            "replace, =======, the new lines, >>>>>>> REPLACE",
            Failure.NO_FILES,
        )
    return blocks


def _until(lines: list[str], index: int, *ends: re.Pattern[str]) -> tuple[str, int]:
    """The text from `index` up to the first line matching one of `ends`, and the index past
    that line (past the last line when there is none)."""
    taken: list[str] = []
    while index < len(lines) and not any(end.match(lines[index]) for end in ends):
        taken.append(lines[index])
        index += 1
    return "".join(f"{line}\n" for line in taken), index + 1


def apply_block(content: str | None, block: Block) -> str:
    """`content` (None: no such file) with `block` applied.

    Raises:
        PlanError: the SEARCH text matches nowhere, or more than once.
    """
    if not block.search.strip():
        if content is None or not content.strip():
            return block.replace
        raise PlanError(
            f"an empty SEARCH creates a file, but {block.path} exists: quote the lines to replace",
            Failure.NO_MATCH,
        )
    if content is None:
        raise PlanError(
            f"{block.path} does not exist: create it with an empty SEARCH", Failure.NO_MATCH
        )
    found = content.count(block.search)
    if found == 1:
        return content.replace(block.search, block.replace, 1)
    if found > 1:
        raise _many(block)
    return _loosely(content, block)


def _loosely(content: str, block: Block) -> str:
    """`block` applied where its lines match the file's with white space around each ignored."""
    lines = content.splitlines(keepends=True)
    wanted = [line.strip() for line in block.search.splitlines()]
    starts = [
        start
        for start in range(len(lines) - len(wanted) + 1)
        if [line.strip() for line in lines[start : start + len(wanted)]] == wanted
    ]
    if len(starts) > 1:
        raise _many(block)
    if not starts:
        raise PlanError(
            f"a SEARCH block matches no lines of {block.path}: copy the lines to replace "
            "exactly as the file has them",
            Failure.NO_MATCH,
        )
    start = starts[0]
    found = lines[start : start + len(wanted)]
    replacement = _reindent(block, found)
    return "".join(lines[:start]) + replacement + "".join(lines[start + len(wanted) :])


def _reindent(block: Block, found: list[str]) -> str:
    """The replacement moved by as much indentation as the file's lines have beyond the
    SEARCH lines' (models often drop a method's leading spaces)."""
    first_file = next((line for line in found if line.strip()), "")
    first_search = next((line for line in block.search.splitlines() if line.strip()), "")
    extra = _indent(first_file)
    quoted = _indent(first_search)
    if not extra.startswith(quoted):
        return block.replace
    shift = extra[len(quoted) :]
    return "".join(
        shift + line if line.strip() else line for line in block.replace.splitlines(keepends=True)
    )


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _many(block: Block) -> PlanError:
    return PlanError(
        f"a SEARCH block matches {block.path} in more than one place: quote more lines so it "
        "matches once",
        Failure.MANY_MATCHES,
    )
