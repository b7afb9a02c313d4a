"""The bench's tables as data, rendered to Markdown (leaderboard.md) and HTML (report.html)
from the same rows, so that neither report can carry a figure the other lacks."""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any

from tdd_sandbox.vocabulary.printable import escape_controls, escape_markdown


@dataclass(frozen=True)
class Cell:
    """One table cell: the text shown, and a 0..1 rate when the cell is one (the HTML page
    shades it)."""

    text: str
    rate: float | None = None


@dataclass(frozen=True)
class Table:
    """A titled table; `numeric` columns are right-aligned."""

    title: str
    header: tuple[str, ...]
    rows: list[tuple[Cell, ...]] = field(default_factory=list)
    numeric: frozenset[int] = frozenset()


def percent(value: float | None) -> str:
    """A rate as a whole percentage, or '-' when there is none."""
    return "-" if value is None else f"{value:.0%}"


def rate_cell(value: float | None) -> Cell:
    """A rate, shaded on the page."""
    return Cell(percent(value), value)


def interval_cell(model: dict[str, Any], key: str) -> Cell:
    """A rate with its 95% interval (`key`_low, `key`_high), shaded by the rate: 38% (12-71%)."""
    value, low, high = model.get(key), model.get(f"{key}_low"), model.get(f"{key}_high")
    if value is None or low is None or high is None:
        return rate_cell(value)
    return Cell(f"{percent(value)} ({low * 100:.0f}-{high:.0%})", value)


def points(value: float) -> str:
    """A difference of two rates in percentage points, signed."""
    return f"{value * 100:+.0f}"


def markdown(table: Table, *, level: int = 2) -> str:
    """A table as GitHub Markdown under its title."""
    align = [
        "---:" if i in table.numeric else "---" for i in range(len(table.header))
    ]  # fmt: skip
    lines = [
        f"{'#' * level} {escape_markdown(table.title)}",
        "",
        "| " + " | ".join(map(escape_markdown, table.header)) + " |",
        "| " + " | ".join(align) + " |",
        *(
            "| " + " | ".join(escape_markdown(cell.text) for cell in row) + " |"
            for row in table.rows
        ),
    ]
    return "\n".join(lines) + "\n"


def _html(text: str) -> str:
    return html.escape(escape_controls(text))


def html_table(table: Table) -> str:
    """A table as HTML under its title; rate cells shaded from red (0%) to green (100%)."""

    def cell(tag: str, index: int, content: Cell) -> str:
        classes = "num" if index in table.numeric else "name" if index == first_text else ""
        style = ""
        if content.rate is not None:
            style = f' style="background:hsl({120 * content.rate:.0f},60%,85%)"'
        return f'<{tag} class="{classes}"{style}>{_html(content.text)}</{tag}>'

    first_text = min(set(range(len(table.header))) - table.numeric)
    head = "".join(cell("th", i, Cell(name)) for i, name in enumerate(table.header))
    body = "".join(
        "<tr>" + "".join(cell("td", i, c) for i, c in enumerate(row)) + "</tr>"
        for row in table.rows
    )
    return (
        f"<h2>{_html(table.title)}</h2><div class='scroll'><table>"
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>"
    )
