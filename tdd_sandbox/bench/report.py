"""Bench reports, made only from job results so that merged shards equal a whole run:
`results.jsonl`, `summary.json`, `leaderboard.md`, `junit.xml`, and charts (PNG, and one
self-contained HTML page)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from tdd_sandbox.bench.board import every_table
from tdd_sandbox.bench.charts import charts, clear_charts
from tdd_sandbox.bench.conditions import check_mergeable
from tdd_sandbox.bench.page import html_page
from tdd_sandbox.bench.summary import sandbox_line, scored, summarise
from tdd_sandbox.bench.tables import markdown
from tdd_sandbox.errors import UsageError
from tdd_sandbox.vocabulary.cases import Judged
from tdd_sandbox.vocabulary.files import write_atomic
from tdd_sandbox.vocabulary.printable import escape_controls, escape_markdown

SKIPPED_FILE = "skipped.json"
"""The kata x language pairs a bench left out, and why (beside results.jsonl)."""
NOT_DRAWN = "No charts: the bench was stopped before it finished; --resume draws them."
NO_COST = (
    "No cost chart: no job recorded a cost (local endpoints, or models without a price in "
    "the pricing setting)."
)


def leaderboard(summary: dict[str, Any]) -> str:
    """The Markdown leaderboard: the ranking, acceptance by kata and by language, and why
    attempts were rejected or counted as tamper (the harness's classification)."""
    tables = every_table(summary)
    board = "\n".join(markdown(table, level=1 if i == 0 else 2) for i, table in enumerate(tables))
    if skipped := summary.get("skipped"):
        board += "\n## Not scored\n\n" + "".join(f"- {escape_markdown(r)}\n" for r in skipped)
    if sandboxes := summary.get("sandbox"):
        board += "\n## Sandbox\n\n" + "".join(f"- {escape_markdown(s)}\n" for s in sandboxes)
    if harnesses := summary.get("harness"):
        board += "\n## Harness\n\n" + "".join(f"- {escape_markdown(h)}\n" for h in harnesses)
    return board


def junit(results: list[dict[str, Any]]) -> str:
    """One testcase per job: passes when every acceptance test passed; infrastructure losses
    are errors, not failures."""
    # XML 1.0 has no way to write most control characters, even escaped: shown as `\x1b`.
    suite = ET.Element("testsuite", name="tdd-sandbox bench", tests=str(len(results)))
    failures = errors = 0
    for result in results:
        case = ET.SubElement(
            suite, "testcase", classname=escape_controls(f"{result['model']}.{result['language']}"),
            name=escape_controls(f"{result['kata']}[r{result['repeat']}]"),
            time=str(result.get("wall_time_s", 0)),
        )  # fmt: skip
        properties = ET.SubElement(case, "properties")
        ET.SubElement(properties, "property", name="tamper_events",
                      value=str(result.get("tamper_events", 0)))  # fmt: skip
        if result.get("sandbox"):
            ET.SubElement(properties, "property", name="sandbox",
                          value=sandbox_line(result["sandbox"]))  # fmt: skip
        for key in ("judged", "mode", "pass_1", "pass_2", "mutation_score", "impossible"):
            if result.get(key) is not None:
                ET.SubElement(properties, "property", name=key, value=str(result[key]).lower())
        if not scored(result):
            errors += 1
            ET.SubElement(
                case,
                "error",
                message=escape_controls(f"{result['status']}: {result.get('reason', '')}"),
            )
        elif result["acceptance_pass_rate"] < 1.0:
            failures += 1
            ET.SubElement(
                case, "failure",
                message=f"acceptance {result['acceptance_pass_rate']:.0%} ({result['status']}"
                f"{', judged in-process' if result.get('judged') == Judged.IN_PROCESS else ''})",
            )  # fmt: skip
    suite.set("failures", str(failures))
    suite.set("errors", str(errors))
    return ET.tostring(suite, encoding="unicode") + "\n"


def write_reports(
    out: Path, results: list[dict[str, Any]], skipped: Iterable[str] = (), *, stopped: bool = False
) -> dict[str, Any]:
    """Every report of `results` (and of the pairs `skipped`) under `out`; returns the
    summary. A `stopped` bench's charts are not drawn: drawing takes longer than a stop may
    (about a second, most of it loading matplotlib), and `--resume` draws them."""
    ordered = sorted(results, key=lambda r: r["id"])
    out.mkdir(parents=True, exist_ok=True)
    lines = "".join(json.dumps(r, sort_keys=True) + "\n" for r in ordered)
    write_atomic(out / "results.jsonl", lines)
    summary = summarise(ordered, skipped)
    write_atomic(out / SKIPPED_FILE, json.dumps(summary["skipped"], indent=2))
    write_atomic(out / "summary.json", json.dumps(summary, indent=2, sort_keys=True) + "\n")
    write_atomic(out / "leaderboard.md", leaderboard(summary))
    write_atomic(out / "junit.xml", junit(ordered))
    if stopped:
        clear_charts(out / "charts")
        images: dict[str, bytes] = {}
        notes = [NOT_DRAWN]
    else:
        images = charts(summary["models"], out / "charts")
        notes = [] if "cost_vs_pass_rate" in images else [NO_COST]
    notes += [f"Not scored: {reason}." for reason in summary["skipped"]]
    notes += [f"Sandbox: {line}." for line in summary["sandbox"]]
    notes += [f"Harness: {line}." for line in summary.get("harness", [])]
    tables = every_table(summary)
    write_atomic(out / "report.html", html_page(tables, images, jobs=summary["jobs"], notes=notes))
    return summary


def read_results(folder: Path) -> list[dict[str, Any]]:
    """The job results of a bench output folder.

    Raises:
        UsageError: it holds none.
    """
    path = folder / "results.jsonl"
    if not path.is_file():
        raise UsageError(f"{folder} holds no results.jsonl: pass the --out folder of a bench")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def merge(folders: list[Path], out: Path) -> dict[str, Any]:
    """Combine shard outputs into one report (a job found twice keeps its last result).

    Raises:
        UsageError: a folder holds no results, or one model's results ran under different
            settings.
    """
    results: dict[str, dict[str, Any]] = {}
    skipped: set[str] = set()
    for folder in folders:
        for result in read_results(folder):
            results[result["id"]] = result
        if (listed := folder / SKIPPED_FILE).is_file():
            skipped.update(json.loads(listed.read_text(encoding="utf-8")))
    check_mergeable(results.values())
    return write_reports(out, list(results.values()), skipped)
