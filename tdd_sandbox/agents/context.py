"""The user message: the kata, the files that matter, the last commit, gate output, feedback.

A budget keeps prompts small: the files most relevant to the role come first, whole where
they fit, and what does not fit is listed by name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from tdd_sandbox.languages.base import Language
from tdd_sandbox.languages.registry import LANGUAGES
from tdd_sandbox.repo.history import CommitInfo
from tdd_sandbox.vocabulary.roles import Role

GATE_OUTPUT_LIMIT = 4000
_HEAD, _TAIL = 2500, 1000
_NOT_CONTEXT = frozenset({"Cargo.lock", "tdd.yaml", ".gitignore"})
_TASK = "# Task\n"
"""The heading of a prompt's last section: `restated` puts what failed just before it."""


def clip_gate_output(text: str) -> str:
    """Over 4000 chars: the first 2500, a `...` line, the last 1000."""
    if len(text) <= GATE_OUTPUT_LIMIT:
        return text
    return text[:_HEAD] + "\n...\n" + text[-_TAIL:]


@dataclass(frozen=True)
class Exchange:
    """An earlier ask of the same job and the model's answer to it. A format that edits the
    code as it stands continues the conversation, as aider does; one that rewrites whole
    files restates the first ask with what failed (`restated`, `Format.continues`)."""

    asked: str
    answered: str


def carried(earlier: Sequence[Exchange], latest: Exchange) -> tuple[Exchange]:
    """The conversation a retry continues: the first ask (the whole story) and the latest
    answer, so that it stays one exchange long however many tries fail."""
    first = earlier[0].asked if earlier else latest.asked
    return (Exchange(first, latest.answered),)


@dataclass(frozen=True)
class Situation:
    """Everything a prompt may draw on."""

    kata_text: str
    kata_path: str
    files: Mapping[str, bytes]
    language: Language
    task: str
    """The one-line instruction for this call (unless `writes` names files)."""
    writes: Sequence[str] = ()
    """The files a role working alone is to write: its task is then the edit format's own
    request for them (`Format.asks`), since how a file is written is the format's to say."""
    focus: Sequence[str] = ()
    """Paths to show first (the failing test files)."""
    last_commit: CommitInfo | None = None
    gate_output: str = ""
    previous_error: str = ""
    extra: Sequence[str] = field(default_factory=tuple)
    target: str = ""
    """The file the role most likely writes (named in the edit format's example)."""
    may_finish: bool = False
    """The role may answer "done" (the loop's tester: nothing left to test), which ends the
    run; only then is it shown how."""
    may_keep: bool = False
    """The role may leave the code as it is (the refactorer): only then is it shown how."""
    solo: bool = False
    """The role works alone on the kata (bench implement and test modes): no loop, and no
    judge but the tests, so it is shown the files it works on and none of the loop's."""
    earlier: Sequence[Exchange] = ()
    """The job's earlier asks and answers, oldest first: this ask follows them up."""


def relevant_files(situation: Situation, role: Role) -> list[str]:
    """Paths in the order the role should see them. Working alone, a role sees the files it
    was pointed at and the code, not the loop's test scaffold or runner configuration."""
    language = situation.language
    candidates = [
        path
        for path in sorted(situation.files)
        if path not in _NOT_CONTEXT and path != situation.kata_path
    ]
    tests = [p for p in candidates if language.is_test_path(p)]
    config = [p for p in candidates if language.is_runner_config(p) and p not in tests]
    sources = [p for p in candidates if p not in tests and p not in config]
    focus = [p for p in situation.focus if p in situation.files]
    if situation.solo:
        return list(dict.fromkeys(focus + sources))
    ordered = focus + (tests + sources if role is Role.TESTER else sources + tests) + config
    return list(dict.fromkeys(ordered))


def kata_for(text: str, language: Language, others: Iterable[Language]) -> str:
    """The kata's text without the list items it writes for other languages only (a line
    `- Rust: ...` is noise to a model writing Python, and small models follow it)."""
    titles = {other.title for other in others if other.title != language.title}
    return "\n".join(
        line
        for line in text.splitlines()
        if not any(line.lstrip("-* \t").startswith(f"{title}:") for title in titles)
        or not line.lstrip().startswith(("-", "*"))
    )


def user_prompt(situation: Situation, role: Role, *, budget_chars: int) -> str:
    """The user message for one call: the whole story, or, after `earlier` exchanges, what
    changed since (`follow_up`). The story opens with the task as well as ending with it: one
    that opened with the kata (`# Kata`, a title, prose) was carried on, not answered, by the
    0.5B coder on 2 of 12 imported exercises (its code block went on with the question's own
    lines); with the task first, both got code."""
    if situation.earlier:
        return follow_up(situation, budget_chars=budget_chars)
    kata = kata_for(situation.kata_text, situation.language, LANGUAGES.values())
    parts = [situation.task, f"# Kata\n{kata.strip()}"]
    shown: list[str] = []
    listed: list[str] = []
    remaining = budget_chars
    language = situation.language
    for path in relevant_files(situation, role):
        text = situation.files[path].decode("utf-8", "replace")
        tag = language.name if path.endswith(language.source_suffixes) else ""
        block = f"## {path}\n```{tag}\n{text}\n```"
        if len(block) <= remaining:
            shown.append(block)
            remaining -= len(block)
        elif remaining > 1500 and not shown:
            cut = text[: remaining - 200]
            shown.append(f"## {path} (cut to fit)\n```\n{cut}\n[...]\n```")
            remaining = 0
        else:
            listed.append(path)
    files = "\n\n".join(shown) if shown else "(no files yet)"
    if listed:
        files += "\n\nOther files (not shown): " + ", ".join(listed)
    if shown or not situation.solo:
        parts.append(f"# Repository files\n{files}")
    if situation.last_commit is not None:
        commit = situation.last_commit
        diff = f"\n```diff\n{commit.diff}\n```" if commit.diff else ""
        parts.append(f"# Last commit\n{commit.message.strip()}{diff}")
    if situation.gate_output.strip():
        parts.append(f"# Last gate output\n```\n{clip_gate_output(situation.gate_output)}\n```")
    parts.append(failure(situation.previous_error))
    parts.extend(situation.extra)
    parts.append(f"{_TASK}{situation.task}")
    return "\n\n".join(filter(None, parts))


def failure(error: str) -> str:
    """The section that says what failed last time; nothing when nothing did."""
    return f"# Your previous attempt failed\n{error}" if error else ""


def restated(first: str, error: str) -> str:
    """The first ask again with what failed just before its task: a retry asked afresh, in
    which the wrong answer is not shown (a small model shown it writes it again)."""
    story, _, task = first.rpartition(f"\n\n{_TASK}")
    if not story:
        return "\n\n".join(filter(None, [first, failure(error)]))
    return "\n\n".join(filter(None, [story, failure(error), f"{_TASK}{task}"]))


def follow_up(situation: Situation, *, budget_chars: int) -> str:
    """The message after an answer that failed: what failed, once, the files it works on as
    they now stand (a search block must quote them), and the task. The kata and the tests are
    already in the conversation."""
    language = situation.language
    parts = [failure(situation.previous_error)]
    remaining = budget_chars
    for path in situation.focus:
        if path not in situation.files or language.is_test_path(path):
            continue
        text = situation.files[path].decode("utf-8", "replace")
        block = f"## {path} (as it is now)\n```{language.name}\n{text}\n```"
        if len(block) <= remaining:
            parts.append(block)
            remaining -= len(block)
    parts.append(f"{_TASK}{situation.task}")
    return "\n\n".join(filter(None, parts))
