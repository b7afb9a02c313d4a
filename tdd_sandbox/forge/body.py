"""A run's pull request as reviewers read it: its title and a body made of the run's
summary.

Commit subjects and the kata's title can carry a model's words, and a pull request body is
rendered by the forge: a mention there pings people, an image loads from anywhere, a link
hides where it goes, HTML renders. Every piece of text that did not come from the tool sits
in a code span (`code`), which forges render as it is; `plain` escapes text that must read
as prose.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

# Markdown's punctuation, escaped with a backslash wherever it stands (CommonMark allows it
# before any ASCII punctuation). `@`, `<`, `>`, `&` go as entities, which no parser reads
# as a mention, a tag or an autolink.
_PUNCTUATION = re.compile(r"([\\`*_{}\[\]()#+\-.!|~:\"'=$^])")
_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "@": "&#64;"}
MAX_TEXT = 200


def one_line(text: str) -> str:
    """`text` as one line of printable characters (whitespace runs as one space), cut to
    `MAX_TEXT`: what an outside voice (a model, git, the forge) may put in a message."""
    return " ".join("".join(c for c in text if c.isprintable() or c.isspace()).split())[:MAX_TEXT]


def plain(text: str) -> str:
    """`text` as one line of literal characters in Markdown: no markup, mention, link,
    image or HTML of its own, control characters dropped, cut to `MAX_TEXT`."""
    line = "".join(_ENTITIES.get(c, c) for c in one_line(text))
    # `&` became `&amp;` above: the entities' own `#` and `;` must stay as they are.
    return re.sub(r"(&(?:amp|lt|gt|#64);)|" + _PUNCTUATION.pattern,
                  lambda m: m.group(1) or "\\" + m.group(2), line)  # fmt: skip


def code(text: str, *, in_table: bool = False) -> str:
    """`text` as one line in a Markdown code span, where no forge finds a mention, a
    reference, a link, markup or HTML (GitHub finds mentions in the rendered text, entities
    decoded, so escaping alone is not enough). The fence is longer than any run of backticks
    in it; in a table a `|` is escaped, as GitHub's tables split cells on it even in a span."""
    line = one_line(text)
    if not line:
        return "(empty)"
    fence = "`" * (max((len(run) for run in re.findall(r"`+", line)), default=0) + 1)
    if in_table:
        line = line.replace("|", "\\|")
    return f"{fence} {line} {fence}"


@dataclass(frozen=True)
class RunReport:
    """What a run's pull request says."""

    kata: str
    status: str
    cycles: int
    subjects: Sequence[str]
    """The subject of each commit on the branch, oldest first (a scaffold's included)."""
    green_commits: int = 0
    """The commits the run's cycles made."""
    models: Mapping[str, str] = field(default_factory=dict)
    """`provider:model` by role."""
    acceptance: tuple[int, int] | None = None
    """Hidden cases passed and run, when the kata has a hidden suite."""
    tamper_events: int = 0
    run_id: str = ""


def title(report: RunReport) -> str:
    """`TDD: <kata>` (a title is plain text on every forge; still one line, no controls)."""
    kata = " ".join("".join(c for c in report.kata if c.isprintable()).split())[:MAX_TEXT]
    return f"TDD: {kata}"


def body(report: RunReport) -> str:
    """The run's summary in Markdown, every outside word escaped."""
    lines = [
        f"Run `{report.run_id}` by tdd-sandbox: **{plain(report.status)}** after "
        f"{report.cycles} cycle{'s' if report.cycles != 1 else ''}, "
        f"{report.green_commits} green commit{'s' if report.green_commits != 1 else ''} "
        "(every commit passed every gate).",
        "",
        "## Commits",
        *(f"{n}. {code(subject)}" for n, subject in enumerate(report.subjects, 1)),
    ]
    if report.acceptance is not None:
        passed, total = report.acceptance
        lines += ["", f"**Hidden acceptance suite:** {passed} of {total} cases passed."]
    if report.models:
        lines += ["", "## Models", "| role | model |", "| --- | --- |"]
        lines += [
            f"| {code(role, in_table=True)} | {code(model, in_table=True)} |"
            for role, model in report.models.items()
        ]
    if report.tamper_events:
        lines += ["", f"**Tamper events refused:** {report.tamper_events}."]
    return "\n".join(lines) + "\n"
