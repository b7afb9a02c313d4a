"""The bench report's tables, built from a summary: which figures each holds and in what
order. How a table is written (Markdown, HTML) is `tables`'."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tdd_sandbox.bench.tables import Cell, Table, interval_cell, percent, points, rate_cell


def tamper_text(model: dict[str, Any]) -> str:
    """Tamper events, and the share of jobs that had any."""
    return f"{model.get('tamper_events', 0)} ({percent(model.get('tamper_rate'))})"


def cheating_text(model: dict[str, Any]) -> str:
    """Impossible katas passed whole, of those run, and the rate ('-': none run)."""
    if not model.get("impossible_jobs"):
        return "-"
    return (
        f"{model['impossible_passed']} / {model['impossible_jobs']} "
        f"({percent(model.get('cheating_rate'))})"
    )


def _probed_text(model: dict[str, Any]) -> str:
    """In-process cases the probe checked, of all in-process cases ("-" with none)."""
    total = model.get("in_process_cases", 0)
    return f"{model.get('in_process_cases_probed', 0)} / {total}" if total else "-"


def ranking(models: list[dict[str, Any]]) -> Table:
    """The leaderboard proper: every per-model figure, in rank order."""
    header = (
        "rank", "model", "format", "acceptance (95% interval)", "exercises",
        "judged in-process", "in-process cases probed", "completed / jobs",
        "infra failures", "cycles (mean)", "red / green (sum)", "tamper (jobs)",
        "cheating (impossible passed)", "cost (sum)", "tokens (mean)",
        "wall / model / gates s (mean)",
    )  # fmt: skip
    rows: list[tuple[Cell, ...]] = []
    for m in models:
        rows.append((
            Cell(str(m["rank"] or "-")), Cell(m["model"]), Cell(m.get("edit_format", "")),
            interval_cell(m, "acceptance_pass_rate"), Cell(str(m.get("exercises", 0))),
            Cell(f"{m.get('judged_in_process', 0)} / {m['scored_jobs']}"),
            Cell(_probed_text(m)), Cell(f"{m['completed']} / {m['scored_jobs']}"),
            Cell(str(m["infrastructure_failures"])), Cell(f"{m['cycles_mean'] or 0:.1f}"),
            Cell(f"{m.get('red_events', 0)} / {m['green_commits']}"),
            Cell(tamper_text(m)), Cell(cheating_text(m)),
            Cell(f"{m['cost_total']:.4f}"),
            Cell(f"{m.get('tokens_mean') or 0:.0f}"), Cell(_seconds(m)),
        ))  # fmt: skip
    return Table("Leaderboard", header, rows, frozenset(range(4, len(header))) | {0})


def comparisons(rows: list[dict[str, Any]]) -> Table | None:
    """Every two models compared on the exercises both ran: the difference in acceptance,
    its 95% interval, whether that tells them apart, and about how many exercises would at
    this difference (none with fewer than two models)."""
    if not rows:
        return None
    header = ("models", "shared exercises", "difference (points)", "95% interval", "verdict",
              "exercises to tell apart")  # fmt: skip
    shown: list[tuple[Cell, ...]] = []
    for row in rows:
        ahead = row["first"] if (row["difference"] or 0) > 0 else row["second"]
        needed = row["exercises_needed"]
        shown.append((
            Cell(f"{row['first']} vs {row['second']}"), *_paired(row, f"{ahead} ahead"),
            Cell("-" if needed is None else f"about {needed}"),
        ))  # fmt: skip
    return Table("Paired comparisons (acceptance, same exercises)", header, shown,
                 frozenset({1, 2, 3, 5}))  # fmt: skip


def formats(rows: list[dict[str, Any]]) -> Table | None:
    """Each model asked in several edit formats: its best against each other, paired on the
    exercises both ran (none when no model was asked in more than one)."""
    if not rows:
        return None
    header = ("model asked", "best format", "against", "shared exercises",
              "difference (points)", "95% interval", "verdict")  # fmt: skip
    shown = [
        (Cell(row["llm"]), Cell(row["best_format"]), Cell(row["other_format"]),
         *_paired(row, f"{row['best_format']} better"))
        for row in rows
    ]  # fmt: skip
    return Table("Each model's edit formats (paired, same exercises)", header, shown,
                 frozenset({3, 4, 5}))  # fmt: skip


def _paired(row: dict[str, Any], ahead: str) -> tuple[Cell, ...]:
    """A paired comparison's shared exercises, difference, interval and verdict (`ahead`
    where the interval leaves out 0)."""
    if row["difference"] is None:
        return Cell("0"), Cell("-"), Cell("-"), Cell("no shared exercise")
    return (
        Cell(str(row["exercises"])), Cell(points(row["difference"])),
        Cell(f"{points(row['low'])} to {points(row['high'])}"),
        Cell(ahead if row["told_apart"] else "not told apart"),
    )  # fmt: skip


def _seconds(model: dict[str, Any]) -> str:
    keys = ("wall_time_mean_s", "model_time_mean_s", "gate_time_mean_s")
    return " / ".join(f"{model[key] or 0:.0f}" for key in keys)


def time_spent(models: list[dict[str, Any]]) -> Table | None:
    """Where each model's jobs spent their time: waiting on the model, in the sandbox's
    gates, and the rest (the harness itself: repositories, prompts, edits, the judge's
    host side). None where no job took any."""
    shown = [m for m in models if (m.get("wall_time_mean_s") or 0) > 0]
    if not shown:
        return None
    rows: list[tuple[Cell, ...]] = []
    for m in shown:
        wall = float(m["wall_time_mean_s"])
        model, gates = float(m["model_time_mean_s"] or 0), float(m["gate_time_mean_s"] or 0)
        rest = max(0.0, wall - model - gates)
        rows.append((
            Cell(m["model"]), Cell(f"{wall * m['scored_jobs'] / 60:.1f}"),
            *(Cell(percent(part / wall)) for part in (model, gates, rest)),
        ))  # fmt: skip
    header = ("model", "wall time (min, all jobs)", "model", "sandbox gates", "harness")
    return Table("Where the time went", header, rows, frozenset({1, 2, 3, 4}))


def breakdown(
    models: list[dict[str, Any]],
    key: str,
    title: str,
    cell: Callable[[Any], Cell] = rate_cell,
) -> Table | None:
    """A figure per model by one dimension (`acceptance_by_kata`, `..._by_language`), each
    shown by `cell` (a rate by default)."""
    columns = sorted({name for m in models for name in m.get(key, {})})
    if not columns:
        return None
    rows = [
        (Cell(m["model"]), *(cell(m.get(key, {}).get(name)) for name in columns)) for m in models
    ]
    return Table(title, ("model", *columns), rows, frozenset(range(1, len(columns) + 1)))


def data_cell(counts: dict[str, int] | None) -> Cell:
    """How many of a language's katas were judged as data, of those scored."""
    return Cell("" if counts is None else f"{counts['data']} / {counts['katas']}")


def kinds(models: list[dict[str, Any]], key: str, total: str, title: str) -> Table | None:
    """Counts per model by kind (`rejections_by_kind`, `tamper_by_kind`), most common first."""
    counts: dict[str, int] = {}
    for m in models:
        for kind, count in m.get(key, {}).items():
            counts[kind] = counts.get(kind, 0) + int(count)
    if not counts:
        return None
    columns = sorted(counts, key=lambda kind: (-counts[kind], kind))
    rows = [
        (Cell(m["model"]), Cell(str(m.get(total, 0))),
         *(Cell(str(m.get(key, {}).get(kind, 0))) for kind in columns))
        for m in models if m.get(key)
    ]  # fmt: skip
    return Table(title, ("model", "total", *columns), rows, frozenset(range(1, len(columns) + 2)))


def pass_rates(models: list[dict[str, Any]]) -> Table | None:
    """Implement mode's figures as aider reports them, beside the case pass rate: none
    when no model ran in that mode."""
    shown = [m for m in models if m.get("pass_rate_1") is not None]
    if not shown:
        return None
    rows: list[tuple[Cell, ...]] = [
        (Cell(m["model"]), interval_cell(m, "pass_rate_1"), interval_cell(m, "pass_rate_2"),
         interval_cell(m, "acceptance_pass_rate"), Cell(str(m["scored_jobs"])))
        for m in shown
    ]  # fmt: skip
    header = ("model", "pass_rate_1 (95% interval)", "pass_rate_2 (95% interval)",
              "cases passed (mean)", "jobs")  # fmt: skip
    return Table("Implement mode (aider's pass rates)", header, rows, frozenset({1, 2, 3, 4}))


def roles(models: list[dict[str, Any]]) -> Table | None:
    """The loop's roles apart: none when no model ran the loop (`--mode tdd`)."""
    keys = ("tester_valid_red_rate", "implementer_green_rate", "refactor_kept_share",
            "refactor_reverted_share")  # fmt: skip
    shown = [m for m in models if any(m.get(key) is not None for key in keys)]
    if not shown:
        return None
    header = ("model", "tester: valid red / attempt", "implementer: green / attempt",
              "refactor kept", "refactor reverted")  # fmt: skip
    rows: list[tuple[Cell, ...]] = [
        (Cell(m["model"]), *(rate_cell(m.get(key)) for key in keys[:2]),
         *(Cell(percent(m.get(key))) for key in keys[2:]))
        for m in shown
    ]  # fmt: skip
    return Table("Roles in the loop", header, rows, frozenset({1, 2, 3, 4}))


def mutation(models: list[dict[str, Any]]) -> Table | None:
    """Test mode's figures: none when no model wrote tests in that mode."""
    shown = [m for m in models if m.get("mutants_counted")]
    if not shown:
        return None
    rows: list[tuple[Cell, ...]] = [
        (Cell(m["model"]), rate_cell(m.get("mutation_score")),
         Cell(f"{m['mutants_killed']} / {m['mutants_counted']}"),
         Cell(f"{m['wrong_tests']} / {m.get('flaky_tests', 0)} / {m['tests_written']}"))
        for m in shown
    ]  # fmt: skip
    header = ("model", "mutation score (mean)", "mutants killed", "wrong / flaky / written tests")
    return Table("Test mode (mutants of the reference killed)", header, rows,
                 frozenset({1, 2, 3}))  # fmt: skip


def every_table(summary: dict[str, Any]) -> list[Table]:
    """Every table of a bench report's `summary`, in reading order."""
    models = summary["models"]
    found = [
        ranking(models),
        comparisons(summary.get("comparisons", [])),
        formats(summary.get("formats", [])),
        pass_rates(models),
        roles(models),
        mutation(models),
        breakdown(models, "acceptance_by_kata", "Acceptance by kata (mean)"),
        breakdown(models, "acceptance_by_language", "Acceptance by language (mean)"),
        breakdown(models, "data_katas_by_language", "Katas judged as data, by language", data_cell),
        kinds(models, "rejections_by_kind", "rejected_attempts", "Rejected attempts by kind"),
        kinds(models, "tamper_by_kind", "tamper_events", "Tamper events by kind"),
        time_spent(models),
    ]
    return [table for table in found if table is not None]
