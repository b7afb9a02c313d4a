"""Validating a model's edits and applying them in memory (`engine.writing` puts them on
disk).

Model output is untrusted. Nothing is written until every edit of a plan has passed:
paths stay inside the repo (no absolute paths, no `..`, no `.git` in any spelling), files
are text under a size limit, and the role may touch the path at all.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from tdd_sandbox.errors import TddSandboxError
from tdd_sandbox.languages.parts import Layout
from tdd_sandbox.protocol import EditPlan
from tdd_sandbox.vocabulary.failures import Failure
from tdd_sandbox.vocabulary.files import PROTECTED
from tdd_sandbox.vocabulary.roles import Role

MAX_FILE_BYTES = 256 * 1024
MAX_EDITS = 50
MAX_PATH_CHARS = 240
_RESERVED = re.compile(r"^(\.git|git~\d+|\.tdd)$")
_ALLOWED_GIT_FILES = {".gitignore"}


class EditRejected(TddSandboxError, ValueError):
    """A plan that may not be applied; the message is fed back to the model, `kind` says
    why (an unsafe path, a role touching files it may not, the tool's configuration...)."""

    def __init__(self, message: str, kind: Failure) -> None:
        super().__init__(message)
        self.kind = kind


def check_path(path: str) -> str:
    """The path as a clean relative POSIX path.

    Raises:
        EditRejected: it could leave the repo, reach into `.git`, or is otherwise unsafe.
    """
    if not path or len(path) > MAX_PATH_CHARS:
        raise EditRejected(
            f"path {path[:60]!r} is empty or longer than {MAX_PATH_CHARS} chars", Failure.PATH
        )
    if any(ord(char) < 32 or char in "\\:\x7f" for char in path):
        raise EditRejected(
            f"path {path!r} holds a backslash, colon or control character", Failure.PATH
        )
    if path.startswith("/"):
        raise EditRejected(
            f"path {path!r} is absolute; paths are relative to the repo root", Failure.PATH
        )
    parts = path.split("/")
    for part in parts:
        if part in ("", ".", ".."):
            raise EditRejected(f"path {path!r} has an empty, '.' or '..' component", Failure.PATH)
        # Windows and macOS fold case and drop trailing dots and spaces: `.GIT`, `.git.`
        # and `git~1` all name the same directory there (CVE-2014-9390).
        folded = part.casefold().rstrip(". ")
        if _RESERVED.match(folded) or (
            folded.startswith(".git") and folded not in _ALLOWED_GIT_FILES
        ):
            raise EditRejected(
                f"path {path!r} touches git or harness internals ({part!r})", Failure.PATH
            )
    return path


def check_permission(
    role: Role, path: str, language: Layout, *, first_cycle: bool, content: bytes | None = None
) -> None:
    """Whether `role` may change `path` (to `content`; None deletes it).

    Raises:
        EditRejected: it may not; the message says why.
    """
    if path.rsplit("/", 1)[-1].casefold() in PROTECTED:
        # tdd.yaml names endpoints, key variables and gate commands: a model that could
        # write it could send a host secret to its own server (issue #10). The kata's front
        # matter may allow policy rules.
        raise EditRejected(
            f"{path} is the kata or the tool's configuration: no agent may write it",
            Failure.PROTECTED,
        )
    if language.is_runner_config(path):
        # Runner configuration decides which tests run and how: changing it could hide a
        # failing test as surely as editing the test. The first tester may only lay down
        # the scaffold's own file (an adopted repo may lack it).
        scaffold = language.scaffold().get(path)
        if role is Role.TESTER and first_cycle and scaffold is not None:
            if content == scaffold.encode():
                return
            raise EditRejected(
                f"the tester may create {path} only as the scaffold made it", Failure.PERMISSION
            )
        raise EditRejected(
            f"the {role} may not change test-runner configuration ({path})", Failure.PERMISSION
        )
    is_test = language.is_test_path(path)
    if role is Role.TESTER and not is_test:
        raise EditRejected(f"the tester may only change test files, not {path}", Failure.PERMISSION)
    if role is not Role.TESTER and is_test:
        raise EditRejected(f"the {role} may not change test files ({path})", Failure.PERMISSION)


def _same_text(data: bytes, content: str) -> bool:
    """Whether `content` is the text of `data`, but for whitespace at line ends and the
    file's end."""

    def lines(text: str) -> list[str]:
        return [line.rstrip() for line in text.strip("\n").splitlines()]

    return lines(data.decode("utf-8", "replace")) == lines(content)


def apply_plan(
    files: Mapping[str, bytes],
    plan: EditPlan,
    role: Role,
    language: Layout,
    *,
    first_cycle: bool = False,
) -> dict[str, bytes]:
    """The repo's files after `plan`, all edits checked before any is applied.

    Raises:
        EditRejected: any edit is invalid or not allowed for the role.
    """
    if len(plan.edits) > MAX_EDITS:
        raise EditRejected(
            f"{len(plan.edits)} edits is over the limit of {MAX_EDITS}", Failure.INVALID
        )
    result = dict(files)
    for edit in plan.edits:
        path = check_path(edit.path)
        if edit.action == "upsert" and path in result and _same_text(result[path], edit.content):
            # A file written back as it stands (a small model echoes the tests it was shown
            # beside its code) changes nothing, whoever may write it: the rest of the answer
            # was refused with it, and the code thrown away.
            continue
        content = None if edit.action == "delete" else edit.content.encode("utf-8")
        check_permission(role, path, language, first_cycle=first_cycle, content=content)
        if edit.action == "delete":
            if path not in result:
                raise EditRejected(f"cannot delete {path}: no such file", Failure.INVALID)
            del result[path]
            continue
        data = edit.content.encode("utf-8")
        if len(data) > MAX_FILE_BYTES:
            raise EditRejected(
                f"{path} would be {len(data)} bytes, over {MAX_FILE_BYTES}", Failure.INVALID
            )
        if "\0" in edit.content:
            raise EditRejected(
                f"{path} holds a NUL byte; only text files may be written", Failure.INVALID
            )
        if any(other.startswith(path + "/") for other in result):
            raise EditRejected(f"{path} is a directory in the repo", Failure.INVALID)
        prefix = path.rsplit("/", 1)[0] if "/" in path else ""
        if prefix and any(p == prefix or prefix.startswith(p + "/") for p in result):
            raise EditRejected(f"a parent of {path} is a file in the repo", Failure.INVALID)
        result[path] = data
    return result
