"""The `whole` format: each file the model changes, its path on a line, then all of it in a
fenced code block. Small models follow it far better than JSON (nothing to escape), as aider
found; the harness builds the plan and writes the commit message from what it verified."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from tdd_sandbox.llm.chat import ChatReply
from tdd_sandbox.llm.formats.base import (
    Ask,
    AsksWholeFiles,
    PlanError,
    check_echo,
    check_file,
    check_text,
    cut_short,
    example_parts,
    file_hole,
    finish,
    keeping,
    kept,
)
from tdd_sandbox.llm.formats.json_plan import JsonFormat
from tdd_sandbox.protocol import Edit, EditPlan
from tdd_sandbox.vocabulary.failures import Failure
from tdd_sandbox.vocabulary.formats import EditFormat

DONE = "DONE"
PATH_LINE = (
    r"[ \t]*(?:#{1,6}[ \t]+)?(?:\*\*|`)?(?P<path>[\w./-]+\.\w+|[\w./-]*/[\w.-]+)(?:\*\*|`)?:?[ \t]*"
)
"""A line naming a file (`fizzbuzz.py`, `**src/lib.rs**`, `` `kata.js`: ``, or a markdown
heading, `### kata.js`, as the 0.5B wrote for each of two files and aider's harness reads):
`diff` reads it too."""
_FILE_BLOCK = re.compile(
    rf"^{PATH_LINE}\n(?:[ \t]*\n){{0,2}}```[\w+-]*[ \t]*\n(?P<body>.*?)^[ \t]*```[\w+-]*[ \t]*$",
    re.MULTILINE | re.DOTALL,
)
"""A path line and its block (a blank line or two between them, as the 0.5B wrote under
markdown headings), which ends at the next fence: one that opens another block
(```` ```javascript ````) ends it too, as aider's harness reads it (the 0.5B began its
tests' block without ending its code's, and the tests became the end of its code)."""
_COMMENT_PATH = r"[ \t]*(?:#|//|--|;+|/\*)[ \t]*(?P<path>[\w./-]+\.\w+)[ \t]*(?:\*/)?[ \t]*\n"
_COMMENTED_BLOCK = re.compile(
    rf"^[ \t]*```[\w+-]*[ \t]*\n(?P<body>{_COMMENT_PATH}.*?)^[ \t]*```[ \t]*$",
    re.MULTILINE | re.DOTALL,
)
"""A block whose first line is a comment naming its file (`# fizzbuzz.py`): models often
put the path there instead of on the line before; and where another such line follows,
another file begins (the 0.5B wrote dominoes' three Java files in one block, each under
`// src/main/java/Domino.java`, and all three went to the first, a class declared twice)."""
_NEXT_FILE = re.compile(rf"^{_COMMENT_PATH}", re.MULTILINE)
_ANY_BLOCK = re.compile(
    r"^[ \t]*```[\w+-]*[ \t]*\n(.*?)^[ \t]*```[ \t]*$", re.MULTILINE | re.DOTALL
)
_DELETE = re.compile(r"^[ \t]*DELETE[ \t]+(?P<path>\S+)[ \t]*$", re.MULTILINE)


class WholeFormat(AsksWholeFiles):
    """Whole files in fenced blocks, each after its path."""

    edit_format = EditFormat.WHOLE
    continues = False

    def instructions(self, ask: Ask) -> str:
        """The example: a worked answer for a tiny file in the language (`Ask.sample`), then
        the file to write. A hole to fill (`<all of f.py>`) is the fallback: a small model
        copied it back on half of the imported exercises, a worked answer on none."""
        path = ask.target or "path/of/the/file"
        finishing = (
            f"\nWhen every behaviour of the kata is tested already, answer only: {DONE}"
            if ask.may_finish
            else ""
        ) + keeping(ask)
        how = "Answer with the complete file: its path on a line of its own, then all of its "
        sample = ask.sample
        if sample is None:
            return (
                how + "code in one fenced block, like this:\n\n"
                f"{path}\n```{ask.fence}\n{file_hole(ask)}\n```\n\n"
                "Write every file you change that way." + finishing
            )
        return (
            how + f"code in one fenced block. For example, asked for {sample.asked}, in "
            f"{sample.path}, you would answer:\n\n"
            f"{sample.path}\n```{ask.fence}\n{sample.code.rstrip()}\n```\n\n"
            f"Write {path} that way, and any other file you change." + finishing
        )

    def parse(self, reply: ChatReply, ask: Ask) -> EditPlan:
        """The files in the answer. A lone unnamed block goes to `ask.target`; a JSON answer is
        read as `json`, since models mix the two up.

        Raises:
            PlanError: no file found, cut off, the example copied, or done where it may not.
        """
        check_text(reply)
        text = close_cut(reply)
        if text.strip().rstrip(".") == DONE:
            return finish(EditPlan(plan="done", edits=[], commit_message="", done=True), ask)
        edits = _placed(
            _named_files(text)
            or _path_inside(text, ask)
            or _mentioned_files(text, ask)
            or _declared_files(text, ask)
            or _unnamed_file(text, ask),
            ask,
        )
        if not edits:
            if text.lstrip().startswith("{"):
                return JsonFormat().parse(reply, ask)
            if not reply.cut and (unchanged := kept(text, ask)) is not None:
                return unchanged
            if reply.cut or len(_fences(text)) % 2:
                # Cut off before any code: nothing to judge.
                what = ask.target or "the files to change"
                raise cut_short(
                    reply, "before its code block ended", f"write {what} and nothing after it"
                )
            where = ask.target or "the file's path"
            raise PlanError(
                f"no file found: write {where} on a line of its own, then the whole file in a "
                "fenced code block",
                Failure.NO_FILES,
            )
        for edit in edits:
            check_echo(edit.content, example_parts(ask))
            check_file(edit.content, ask)
        summary = text.strip().split("\n", 1)[0][:200]
        return EditPlan(plan=summary, edits=edits, commit_message="", done=False)


def close_cut(reply: ChatReply) -> str:
    """The answer's text; one the token limit cut off loses its unfinished last line, and the
    block the cut left open is closed there. The code written so far is then judged as a
    person given the answer would try it (the plain prompt's baseline does): a small model
    often writes the file, then prints and checks after it in the same block until the
    limit, and refusing those answers measured the harness, not the model (issue #44)."""
    text = reply.text
    if not reply.cut:
        return text
    text = text[: text.rfind("\n") + 1]
    if not len(_fences(text)) % 2:
        return text
    opening = text.rstrip("\n").rfind("```")
    body = text[opening:].partition("\n")[2]
    return text + "```\n" if body.strip() else text  # an empty file is no file


def _fences(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip().startswith("```")]


def _named_files(text: str) -> list[Edit]:
    edits = [
        Edit(path=m.group("path"), action="upsert", content=m.group("body"))
        for m in _FILE_BLOCK.finditer(text)
    ]
    if not edits:
        edits = [edit for m in _COMMENTED_BLOCK.finditer(text) for edit in _split(m["body"])]
    return edits + [
        Edit(path=m.group("path"), action="delete", content="") for m in _DELETE.finditer(text)
    ]


def _split(body: str) -> list[Edit]:
    """A commented block's files, each from its comment naming it to the next comment naming
    another (one naming the file again is the file's own line: the 0.5B wrote
    `# tests/test_fizzbuzz.py` twice in one file)."""
    starts, seen = [], set()
    for named in _NEXT_FILE.finditer(body):
        if named["path"] not in seen:
            seen.add(named["path"])
            starts.append(named)
    ends = [m.start() for m in starts[1:]] + [len(body)]
    return [
        Edit(path=m["path"], action="upsert", content=body[m.start() : end])
        for m, end in zip(starts, ends, strict=True)
    ]


def _path_inside(text: str, ask: Ask) -> list[Edit]:
    """Blocks whose first line is a file's path alone, the path inside the fence rather than
    on the line before it: the 0.5B coder did so on 4 of 12 imported exercises, and the path
    left in the file broke every test. Only a path the answer may mean counts (the target, a
    file there is, or one named like the target), so a line of code is never taken for one."""
    suffix = PurePosixPath(ask.target).suffix
    edits = []
    for body in _ANY_BLOCK.findall(text):
        first, _, rest = body.partition("\n")
        named = re.fullmatch(PATH_LINE, first)
        path = named.group("path") if named else ""
        if path and (path in _meant(ask) or (suffix and path.endswith(suffix))):
            edits.append(Edit(path=path, action="upsert", content=rest))
    return edits


_MENTION = re.compile(r"`([\w./-]+)`")


def _meant(ask: Ask) -> set[str]:
    """The files an answer may mean: the one asked for and those there are."""
    return {ask.target, *ask.files} - {""}


def _distinct(edits: list[Edit]) -> list[Edit]:
    """`edits`, or none where two write one file: then where a block goes was a guess."""
    paths = [edit.path for edit in edits]
    return edits if len(set(paths)) == len(paths) else []


def _mentioned_files(text: str, ask: Ask) -> list[Edit]:
    """Blocks each after prose naming one file the answer may mean in backticks ("Here's
    the complete `meetup.js` file:"), as aider's harness reads them: the 0.5B named both of
    its files so on JavaScript. A block named by nothing is left out; a line naming two
    files gives none."""
    known = _meant(ask)
    edits: list[Edit] = []
    for block in _ANY_BLOCK.finditer(text):
        before = text[: block.start()].rstrip().rpartition("\n")[2]
        named = {m for m in _MENTION.findall(before) if m in known}
        if len(named) > 1:
            return []
        if named:
            edits.append(Edit(path=named.pop(), action="upsert", content=block.group(1)))
    return _distinct(edits)


def _placed(edits: list[Edit], ask: Ask) -> list[Edit]:
    """Each edit where the answer meant it: a path that is no file there, named as exactly
    one file the answer may mean is, is that file (the 0.5B wrote `### Plant.java` for
    `src/main/java/Plant.java`; aider's harness does the same for a folder too many)."""
    known = _meant(ask)
    placed = []
    for edit in edits:
        same = [path for path in known if PurePosixPath(path).name == PurePosixPath(edit.path).name]
        moved = edit.path not in known and edit.action == "upsert" and len(same) == 1
        placed.append(edit.model_copy(update={"path": same[0]}) if moved else edit)
    return placed


_DECLARED = re.compile(
    r"^(?:(?:public|final|abstract|sealed|static)\s+)*(?:class|interface|enum|record)\s+(\w+)",
    re.MULTILINE,
)


def _declared_files(text: str, ask: Ask) -> list[Edit]:
    """Unnamed blocks each declaring, first, a type named as exactly one file the answer may
    mean (Java's rule: `enum Plant` is `Plant.java`): the 0.5B wrote Java's two files as
    two blocks and no name. A block declaring no such type is left out."""
    stems: dict[str, list[str]] = {}
    for path in _meant(ask):
        stems.setdefault(PurePosixPath(path).stem, []).append(path)
    edits = []
    for body in _ANY_BLOCK.findall(text):
        first = _DECLARED.search(body)
        paths = stems.get(first.group(1), []) if first else []
        if len(paths) == 1:
            edits.append(Edit(path=paths[0], action="upsert", content=body))
    return _distinct(edits)


def _unnamed_file(text: str, ask: Ask) -> list[Edit]:
    """The target's content from an answer that forgot its path line (one block, nothing
    else to tell where it goes), or forgot the fence after the target's own path line."""
    if not ask.target:
        return []
    blocks = _ANY_BLOCK.findall(text)
    if len(blocks) == 1:
        return [Edit(path=ask.target, action="upsert", content=blocks[0])]
    head, _, rest = text.lstrip().partition("\n")
    if not _fences(text) and head.strip().strip("*`:") == ask.target and rest.strip():
        return [Edit(path=ask.target, action="upsert", content=rest.strip("\n") + "\n")]
    return []
