"""Bench reports, made only from job results so that merged shards equal a whole run:
`results.jsonl`, `summary.json`, `leaderboard.md`, `junit.xml`, and charts (PNG, and one
self-contained HTML page)."""

from __future__ import annotations

import base64
import html
import json
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from tdd_sandbox.bench.metrics import mean_ci
from tdd_sandbox.bench.runner import HARNESS_ERROR, INFRASTRUCTURE, INTERRUPTED
from tdd_sandbox.errors import UsageError
from tdd_sandbox.journal import write_atomic

CHARTS = ("pass_rate", "cost_vs_pass_rate", "time_vs_pass_rate")


def scored(result: dict[str, Any]) -> bool:
    """Whether a job counts for its model (it was not lost to infrastructure, a bug or a
    stop)."""
    return result["status"] not in (INFRASTRUCTURE, HARNESS_ERROR, INTERRUPTED)


def summarise(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Per-model aggregates: mean and 95% CI of the pass rate across jobs, and the rest."""
    by_model: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for result in results:
        by_model[result["model"]].append(result)
    models = []
    for name, jobs in sorted(by_model.items()):
        counted = [job for job in jobs if scored(job)]
        rate, ci = mean_ci([float(job["acceptance_pass_rate"]) for job in counted])
        cost = [sum(job.get("cost", {}).values()) for job in counted]
        models.append(
            {
                "model": name,
                "jobs": len(jobs),
                "scored_jobs": len(counted),
                "infrastructure_failures": sum(job["status"] == INFRASTRUCTURE for job in jobs),
                "harness_errors": sum(job["status"] == HARNESS_ERROR for job in jobs),
                "completed": sum(job["status"] == "completed" for job in counted),
                "acceptance_pass_rate": _round(rate),
                "acceptance_ci95": _round(ci),
                "cycles_mean": _round(mean_ci([float(j["cycles"]) for j in counted])[0]),
                "edit_format": "/".join(sorted({str(j.get("edit_format", "auto")) for j in jobs})),
                "red_events": sum(int(j.get("red_events", 0)) for j in counted),
                "green_commits": sum(int(j["green_commits"]) for j in counted),
                "rejected_attempts": sum(int(j.get("rejected_attempts", 0)) for j in counted),
                "rejections_by_kind": _sum_counts(j.get("rejections_by_kind", {}) for j in counted),
                "acceptance_by_kata": {
                    kata: _round(mean_ci(rates)[0]) for kata, rates in _rates_by_kata(counted)
                },
                "overshoot_events": sum(int(j["overshoot_events"]) for j in counted),
                "tamper_events": sum(int(j["tamper_events"]) for j in counted),
                "tamper_rate": _round(
                    sum(int(j["tamper_events"]) > 0 for j in counted) / len(counted)
                    if counted
                    else None
                ),
                "tamper_by_kind": _sum_counts(j.get("tamper_by_kind", {}) for j in counted),
                "cost_total": round(sum(cost), 6),
                "cost_mean": _round(mean_ci(cost)[0]),
                "wall_time_mean_s": _round(mean_ci([float(j["wall_time_s"]) for j in counted])[0]),
                "model_time_mean_s": _round(
                    mean_ci([float(j["model_time_s"]) for j in counted])[0]
                ),
                "gate_time_mean_s": _round(mean_ci([float(j["gate_time_s"]) for j in counted])[0]),
                "tokens_mean": _round(
                    mean_ci([float(sum(j["tokens"].values())) for j in counted])[0]
                ),
            }
        )
    # Equal acceptance: the model that got further through the loop ranks first.
    models.sort(key=lambda m: (*_rank_key(m), m["model"]))
    return {"jobs": len(results), "models": models}


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def _sum_counts(counts: Iterable[dict[str, int]]) -> dict[str, int]:
    total: Counter[str] = Counter()
    for count in counts:
        total.update(count)
    return dict(total.most_common())


def _rates_by_kata(jobs: list[dict[str, Any]]) -> list[tuple[str, list[float]]]:
    rates: dict[str, list[float]] = defaultdict(list)
    for job in jobs:
        rates[job["kata"]].append(float(job["acceptance_pass_rate"]))
    return sorted(rates.items())


def leaderboard(summary: dict[str, Any]) -> str:
    """The Markdown leaderboard: the ranking, acceptance by kata, and why attempts were
    rejected (the harness's classification of what went wrong)."""
    lines = [
        "| rank | model | format | acceptance (mean ± 95% CI) | completed | jobs "
        "| infra failures | cycles (mean) | red (sum) | green (sum) | tamper (jobs) "
        "| cost (sum) | wall s (mean) | model s (mean) | gates s (mean) |",
        "| ---: | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
        "| ---: | ---: | ---: |",
    ]
    for rank, model in _ranked(summary["models"]):
        rate = model["acceptance_pass_rate"]
        ci = model["acceptance_ci95"]
        shown = "-" if rate is None else f"{rate:.0%}" + ("" if ci is None else f" ± {ci:.0%}")
        lines.append(
            f"| {rank} | {model['model']} | {model.get('edit_format', '')} | {shown} "
            f"| {model['completed']} | {model['scored_jobs']} "
            f"| {model['infrastructure_failures']} | {model['cycles_mean'] or 0:.1f} "
            f"| {model.get('red_events', 0)} | {model['green_commits']} "
            f"| {_tamper(model)} | {model['cost_total']:.4f} "
            f"| {model['wall_time_mean_s'] or 0:.0f} "
            f"| {model['model_time_mean_s'] or 0:.0f} | {model['gate_time_mean_s'] or 0:.0f} |"
        )
    return "# Leaderboard\n\n" + "\n".join(lines) + "\n" + _by_kata(summary) + _rejections(summary)


def _rank_key(model: dict[str, Any]) -> tuple[float, int, int]:
    """What ranks a model: acceptance, then how far it got through the loop."""
    return (-(model["acceptance_pass_rate"] or 0.0), -model["green_commits"], -model["red_events"])


def _ranked(models: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    """Competition ranking (1, 1, 3): models that tie on every ranked figure share a rank."""
    ranked: list[tuple[int, dict[str, Any]]] = []
    for position, model in enumerate(models, start=1):
        tied = ranked and _rank_key(ranked[-1][1]) == _rank_key(model)
        ranked.append((ranked[-1][0] if tied else position, model))
    return ranked


def _tamper(model: dict[str, Any]) -> str:
    """Tamper events, and the share of jobs that had any."""
    return f"{model.get('tamper_events', 0)} ({_percent(model.get('tamper_rate'))})"


def _by_kata(summary: dict[str, Any]) -> str:
    katas = sorted({k for m in summary["models"] for k in m.get("acceptance_by_kata", {})})
    if not katas:
        return ""
    lines = ["| model | " + " | ".join(katas) + " |", "| --- |" + " ---: |" * len(katas)]
    for model in summary["models"]:
        rates = model.get("acceptance_by_kata", {})
        lines.append(
            f"| {model['model']} | " + " | ".join(_percent(rates.get(k)) for k in katas) + " |"
        )
    return "\n## Acceptance by kata (mean)\n\n" + "\n".join(lines) + "\n"


def _rejections(summary: dict[str, Any]) -> str:
    lines = []
    for model in summary["models"]:
        kinds = model.get("rejections_by_kind", {})
        if kinds:
            listed = ", ".join(f"{kind} {count}" for kind, count in kinds.items())
            lines.append(f"- **{model['model']}** ({model['rejected_attempts']}): {listed}")
    if not lines:
        return ""
    return "\n## Rejected attempts by kind\n\n" + "\n".join(lines) + "\n"


def junit(results: list[dict[str, Any]]) -> str:
    """One testcase per job: passes when every acceptance test passed; infrastructure losses
    are errors, not failures."""
    suite = ET.Element("testsuite", name="tdd-sandbox bench", tests=str(len(results)))
    failures = errors = 0
    for result in results:
        case = ET.SubElement(
            suite, "testcase", classname=f"{result['model']}.{result['language']}",
            name=f"{result['kata']}[r{result['repeat']}]",
            time=str(result.get("wall_time_s", 0)),
        )  # fmt: skip
        properties = ET.SubElement(case, "properties")
        ET.SubElement(properties, "property", name="tamper_events",
                      value=str(result.get("tamper_events", 0)))  # fmt: skip
        if not scored(result):
            errors += 1
            ET.SubElement(case, "error", message=f"{result['status']}: {result.get('reason', '')}")
        elif result["acceptance_pass_rate"] < 1.0:
            failures += 1
            ET.SubElement(
                case, "failure",
                message=f"acceptance {result['acceptance_pass_rate']:.0%} ({result['status']})",
            )  # fmt: skip
    suite.set("failures", str(failures))
    suite.set("errors", str(errors))
    return ET.tostring(suite, encoding="unicode") + "\n"


def charts(summary: dict[str, Any], folder: Path) -> dict[str, bytes]:
    """The three charts as PNG bytes, also written to `folder`."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    models = summary["models"]
    names = [m["model"] for m in models]
    rates = [(m["acceptance_pass_rate"] or 0.0) * 100 for m in models]
    errors = [(m["acceptance_ci95"] or 0.0) * 100 for m in models]
    made: dict[str, bytes] = {}
    specs = {
        "pass_rate": ("acceptance pass rate by model (95% CI)", None, "model"),
        "cost_vs_pass_rate": ("cost against pass rate", "cost_total", "total cost"),
        "time_vs_pass_rate": (
            "wall time against pass rate",
            "wall_time_mean_s",
            "mean wall time (s)",
        ),
    }
    folder.mkdir(parents=True, exist_ok=True)
    for key, (title, field, xlabel) in specs.items():
        figure, axes = plt.subplots(figsize=(7, 4), dpi=100)
        if field is None:
            axes.bar(names, rates, yerr=errors, capsize=6, color="#4c72b0")
            axes.set_ylim(0, 105)
        else:
            xs = [float(m[field] or 0.0) for m in models]
            axes.scatter(xs, rates, color="#dd8452")
            for x, y, name in zip(xs, rates, names, strict=True):
                axes.annotate(name, (x, y), textcoords="offset points", xytext=(4, 4))
            axes.set_ylim(-5, 105)
        axes.set_title(title)
        axes.set_xlabel(xlabel)
        axes.set_ylabel("acceptance pass rate (%)")
        figure.tight_layout()
        path = folder / f"{key}.png"
        figure.savefig(path, format="png", metadata={"Software": None})
        plt.close(figure)
        made[key] = path.read_bytes()
    return made


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def html_page(summary: dict[str, Any], images: dict[str, bytes]) -> str:
    """One page with the leaderboard and the charts inlined: no other file needed."""
    rows = "".join(
        f"<tr><td>{rank}</td><td>{html.escape(m['model'])}</td>"
        f"<td>{_percent(m['acceptance_pass_rate'])}</td>"
        f"<td>{m['completed']}/{m['scored_jobs']}</td><td>{m['infrastructure_failures']}</td>"
        f"<td>{html.escape(_tamper(m))}</td><td>{m['cost_total']:.4f}</td></tr>"
        for rank, m in _ranked(summary["models"])
    )
    figures = "".join(
        f'<figure><img alt="{key}" src="data:image/png;base64,{base64.b64encode(data).decode()}">'
        f"<figcaption>{key.replace('_', ' ')}</figcaption></figure>"
        for key, data in images.items()
    )
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>tdd-sandbox bench</title>"
        "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:4px 8px}</style></head><body>"
        "<h1>tdd-sandbox bench</h1><table><tr><th>rank</th><th>model</th><th>acceptance</th>"
        f"<th>completed</th><th>infra failures</th><th>tamper (jobs)</th><th>cost</th></tr>"
        f"{rows}</table>{figures}"
        "</body></html>\n"
    )


def write_reports(out: Path, results: list[dict[str, Any]]) -> dict[str, Any]:
    """Every report of `results` under `out`; returns the summary."""
    ordered = sorted(results, key=lambda r: r["id"])
    out.mkdir(parents=True, exist_ok=True)
    lines = "".join(json.dumps(r, sort_keys=True) + "\n" for r in ordered)
    write_atomic(out / "results.jsonl", lines)
    summary = summarise(ordered)
    write_atomic(out / "summary.json", json.dumps(summary, indent=2, sort_keys=True) + "\n")
    write_atomic(out / "leaderboard.md", leaderboard(summary))
    write_atomic(out / "junit.xml", junit(ordered))
    images = charts(summary, out / "charts")
    write_atomic(out / "report.html", html_page(summary, images))
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
        UsageError: a folder holds no results.
    """
    results: dict[str, dict[str, Any]] = {}
    for folder in folders:
        for result in read_results(folder):
            results[result["id"]] = result
    return write_reports(out, list(results.values()))
