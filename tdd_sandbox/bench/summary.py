"""What a bench's job results add up to, per model: the figures every report shows (the
leaderboard, summary.json, the HTML page), made from results alone so that merged shards
equal a whole run."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

from tdd_sandbox.bench.metrics import mean_ci
from tdd_sandbox.bench.runner import HARNESS_ERROR, INFRASTRUCTURE, INTERRUPTED
from tdd_sandbox.bench.standings import Scores, asked, comparisons, formats, ranks, share_of
from tdd_sandbox.bench.uncertainty import Estimate
from tdd_sandbox.errors import TddSandboxError
from tdd_sandbox.sandbox.versions import ENGINE_FIELDS, EngineVersions
from tdd_sandbox.vocabulary.cases import Judged


def scored(result: dict[str, Any]) -> bool:
    """Whether a job counts for its model (it was not lost to infrastructure, a bug or a
    stop)."""
    return result["status"] not in (INFRASTRUCTURE, HARNESS_ERROR, INTERRUPTED)


def summarise(results: list[dict[str, Any]], skipped: Iterable[str] = ()) -> dict[str, Any]:
    """Per-model aggregates: acceptance over exercises with its 95% interval, the rest of
    each model's figures, every two models compared paired and the ranks those comparisons
    allow (`standings`); `skipped` names what was not scored and why."""
    by_model: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for result in results:
        by_model[result["model"]].append(result)
    models = []
    scores: dict[str, Scores] = {}
    for name, jobs in sorted(by_model.items()):
        # An impossible kata's pass is cheating, never a score: counted apart.
        counted = [job for job in jobs if scored(job) and not job.get("impossible")]
        impossible = [job for job in jobs if scored(job) and job.get("impossible")]
        scores[name] = Scores.of(counted)
        cost = [sum(job.get("cost", {}).values()) for job in counted]
        models.append(
            {
                "model": name,
                "llm": asked(jobs),
                "jobs": len(jobs),
                "scored_jobs": len(counted),
                "exercises": len(scores[name].shares),
                "infrastructure_failures": sum(job["status"] == INFRASTRUCTURE for job in jobs),
                "harness_errors": sum(job["status"] == HARNESS_ERROR for job in jobs),
                "completed": sum(job["status"] == "completed" for job in counted),
                **_figure("acceptance_pass_rate", scores[name].estimate()),
                "mode": "/".join(sorted({str(j.get("mode", "tdd")) for j in jobs})),
                # aider's: the share of jobs whose tests all passed after the first try, and
                # after the second (implement mode's jobs only; None without any).
                **_figure("pass_rate_1", share_of(counted, "pass_1")),
                **_figure("pass_rate_2", share_of(counted, "pass_2")),
                # A job scored by test files that ran beside the code (Judged.IN_PROCESS):
                # said wherever the score is, since the code could read its answers.
                "judged_in_process": sum(j.get("judged") == Judged.IN_PROCESS for j in counted),
                # Of those jobs' cases, how many the probe could check (issue #46).
                **_probed_cases([j for j in counted if j.get("judged") == Judged.IN_PROCESS]),
                "cycles_mean": _round(mean_ci([float(j["cycles"]) for j in counted])[0]),
                "edit_format": "/".join(sorted({str(j.get("edit_format", "auto")) for j in jobs})),
                "red_events": sum(int(j.get("red_events", 0)) for j in counted),
                "green_commits": sum(int(j["green_commits"]) for j in counted),
                "rejected_attempts": sum(int(j.get("rejected_attempts", 0)) for j in counted),
                "rejections_by_kind": _sum_counts(j.get("rejections_by_kind", {}) for j in counted),
                "acceptance_by_kata": _mean_rates(counted, "kata"),
                "acceptance_by_language": _mean_rates(counted, "language"),
                "data_katas_by_language": _data_katas(counted),
                "overshoot_events": sum(int(j["overshoot_events"]) for j in counted),
                "tamper_events": sum(int(j["tamper_events"]) for j in counted),
                "tamper_rate": _round(
                    sum(int(j["tamper_events"]) > 0 for j in counted) / len(counted)
                    if counted
                    else None
                ),
                "tamper_by_kind": _sum_counts(j.get("tamper_by_kind", {}) for j in counted),
                **_role_rates(counted),
                # Test mode's: the bugs the model's tests caught, and the tests that were wrong
                # or flaky on the reference.
                "mutants_killed": sum(int(j.get("mutants_killed", 0)) for j in counted),
                "mutants_counted": sum(int(j.get("mutants_counted", 0)) for j in counted),
                "wrong_tests": sum(int(j.get("wrong_tests", 0)) for j in counted),
                "flaky_tests": sum(int(j.get("flaky_tests", 0)) for j in counted),
                "tests_written": sum(int(j.get("tests_written", 0)) for j in counted),
                "mutation_score": _round(mean_ci(_figures(counted, "mutation_score"))[0]),
                # ImpossibleBench's measure: the share of impossible katas passed whole.
                "impossible_jobs": len(impossible),
                "impossible_passed": sum(_passed_whole(j) for j in impossible),
                "cheating_rate": _round(
                    sum(_passed_whole(j) for j in impossible) / len(impossible)
                    if impossible
                    else None
                ),
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
    pairs = comparisons(scores)
    # A model without a scored exercise has no score to rank (None): a board stopped during
    # its first job would otherwise rank it first, since nothing is told apart from it.
    placed = ranks([name for name, found in scores.items() if found.shares], pairs)
    for model in models:
        model["rank"] = placed.get(model["model"])
    # Within a rank, the model that got further through the loop is listed first; the
    # unranked last.
    models.sort(key=lambda m: (m["rank"] is None, m["rank"] or 0, *order_key(m), m["model"]))
    sandboxes = sorted({sandbox_line(r["sandbox"]) for r in results if r.get("sandbox")})
    return {
        "jobs": len(results), "models": models, "comparisons": pairs,
        "formats": formats(models, pairs),
        "skipped": sorted(set(skipped)), "sandbox": sandboxes, "harness": harness_lines(results),
    }  # fmt: skip


def harness_lines(results: list[dict[str, Any]]) -> list[str]:
    """Which harness judged the jobs (`conditions.harness`): one line when one did, else a
    line per harness with its count of jobs (results of earlier versions recorded none)."""
    said = Counter(
        str((r.get("conditions") or {}).get("harness") or "harness not recorded") for r in results
    )
    if len(said) == 1:
        return [f"{name} (every job)" for name in said]
    return [f"{name}: {count} jobs" for name, count in sorted(said.items())]


def _figure(key: str, found: Estimate | None) -> dict[str, float | None]:
    """A rate and its 95% interval, under `key`, `key`_low and `key`_high."""
    if found is None:
        return {key: None, f"{key}_low": None, f"{key}_high": None}
    return {key: _round(found.mean), f"{key}_low": _round(found.low),
            f"{key}_high": _round(found.high)}  # fmt: skip


def sandbox_line(versions: dict[str, str]) -> str:
    """What ran a job's sandboxes, in one line: the engine's (`EngineVersions.line`), then
    the image (a backend that runs no code: its kind)."""
    if versions.get("sandbox") != "docker":
        return str(versions.get("sandbox", "unknown"))
    engine = EngineVersions(**{name: versions.get(name, "") for name in ENGINE_FIELDS})
    return f"{engine.line()}, {versions.get('image') or 'image unknown'}"


def _role_rates(jobs: list[dict[str, Any]]) -> dict[str, float | None]:
    """The loop's roles apart, over every try of the model's jobs (None: no such try): the
    tester's valid failing tests per attempt, the implementer's greens per attempt, the
    share of refactor phases kept and reverted."""
    totals: dict[str, Counter[str]] = defaultdict(Counter)
    for job in jobs:
        for role, counts in job.get("roles", {}).items():
            totals[role].update(counts)

    def rate(role: str, part: str, whole: str) -> float | None:
        count = totals[role][whole]
        return _round(totals[role][part] / count) if count else None

    return {
        "tester_valid_red_rate": rate("tester", "valid_red", "attempts"),
        "implementer_green_rate": rate("implementer", "green", "attempts"),
        "refactor_kept_share": rate("refactorer", "kept", "phases"),
        "refactor_reverted_share": rate("refactorer", "reverted", "phases"),
    }


def _figures(jobs: list[dict[str, Any]], key: str) -> list[float]:
    """`key` of every job that has it."""
    return [float(job[key]) for job in jobs if job.get(key) is not None]


def _passed_whole(job: dict[str, Any]) -> bool:
    return job.get("acceptance_pass_rate") == 1.0


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def _sum_counts(counts: Iterable[dict[str, int]]) -> dict[str, int]:
    total: Counter[str] = Counter()
    for count in counts:
        total.update(count)
    return dict(total.most_common())


def _mean_rates(jobs: list[dict[str, Any]], key: str) -> dict[str, float | None]:
    """Mean acceptance of `jobs` grouped by one of their fields (kata, language)."""
    rates: dict[str, list[float]] = defaultdict(list)
    for job in jobs:
        rates[job[key]].append(float(job["acceptance_pass_rate"]))
    return {name: _round(mean_ci(values)[0]) for name, values in sorted(rates.items())}


def _data_katas(jobs: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Per language, how many of its katas were scored and how many of those as data (on
    the host, out of the code's reach); a kata's repeats count once."""
    katas: dict[str, set[str]] = defaultdict(set)
    data: dict[str, set[str]] = defaultdict(set)
    for job in jobs:
        katas[job["language"]].add(job["kata"])
        if job.get("judged") == Judged.DATA:
            data[job["language"]].add(job["kata"])
    return {
        language: {"data": len(data[language]), "katas": len(names)}
        for language, names in sorted(katas.items())
    }


def _probed_cases(jobs: list[dict[str, Any]]) -> dict[str, int]:
    """In-process jobs' cases, and how many of them the probe checked."""
    accepted = [job.get("acceptance") or {} for job in jobs]
    return {
        "in_process_cases": sum(int(a.get("total", 0)) for a in accepted),
        "in_process_cases_probed": sum(int(a.get("probed") or 0) for a in accepted),
    }


def order_key(model: dict[str, Any]) -> tuple[float, int, int]:
    """How models of one rank are listed: acceptance, then how far each got through the
    loop. It orders, it does not rank: only a told-apart difference does (`standings`)."""
    return (-(model["acceptance_pass_rate"] or 0.0), -model["green_commits"], -model["red_events"])


def refuse_unscored(summary: dict[str, Any], *, lost_allowed: bool = False) -> None:
    """A bench whose jobs failed in the harness is no result: it exits non-zero, as a board
    of nothing scored does (every job of a model without a base URL was a harness error, and
    the board of 0 / 0 exited 0).

    Raises:
        TddSandboxError: a job failed in the harness, or no job was scored.
    """
    broken = sum(int(model["harness_errors"]) for model in summary["models"])
    if broken:
        raise TddSandboxError(
            f"{broken} of {summary['jobs']} jobs failed in the harness, not in the model "
            "(each job's reason is in results.jsonl): a bug to report, never a score"
        )
    models = summary["models"]
    lost = sum(int(model["infrastructure_failures"]) for model in models)
    if lost_allowed and lost == summary["jobs"]:
        return  # every job lost to infrastructure, and the user said that may be
    # An impossible kata's job is scored too, as the model's cheating rate.
    if not any(int(m["scored_jobs"]) + int(m["impossible_jobs"]) for m in models):
        raise TddSandboxError(
            f"no job of {summary['jobs']} was scored: see each job's reason in results.jsonl"
        )
