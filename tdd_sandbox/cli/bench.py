"""`tdd-sandbox bench`, `bench merge` and `score`."""

from __future__ import annotations

from pathlib import Path
from typing import get_args

import click

from tdd_sandbox.bench.mode import Mode
from tdd_sandbox.cli.options import (
    LazyChoice,
    UserPath,
    config_option,
    default_config,
    detail,
    language_option,
    progress,
    setting_option,
)
from tdd_sandbox.cli.terminal import echo, echo_json
from tdd_sandbox.vocabulary.defaults import DEFAULT_LANGUAGE, Executor


def _split(value: str) -> list[str]:
    return [item.strip() for item in value.split(",") if item.strip()]


def _executors() -> tuple[str, ...]:
    return get_args(Executor)


@click.group(invoke_without_command=True)
@click.option(
    "--models", help="Comma-separated provider:model strings or bench.models entry names."
)
@click.option(
    "--katas",
    type=UserPath(),
    multiple=True,
    default=[Path("katas")],
    show_default=True,
    help="A kata folder, or a folder of them; repeat for several.",
)
@click.option(
    "--languages", default=DEFAULT_LANGUAGE, show_default=True, help="Comma-separated languages."
)
@click.option("--repeats", type=click.IntRange(1, 100), default=1, show_default=True)
@click.option(
    "--seed",
    type=int,
    help="Send repeat r seed SEED+r-1 with each request, so harnesses and reruns are sampled "
    "with the same seeds. Default: bench.seed.",
)
@setting_option("parallel", "--parallel", help="Implementer attempts raced per cycle.")
@setting_option("cycles", "--cycles", help="Most cycles per job.")
@click.option(
    "--jobs",
    "jobs",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="Jobs at once (bounded by what the machine holds).",
)
@click.option(
    "--out",
    type=UserPath(file_okay=False),
    default=Path("bench-out"),
    show_default=True,
)
@click.option("--resume", is_flag=True, help="Skip jobs that already finished in --out.")
@click.option(
    "--mode",
    type=click.Choice([mode.value for mode in Mode]),
    default=Mode.TDD.value,
    show_default=True,
    help="tdd: the whole loop, scored at its end; implement: the implementer alone, given "
    "the kata's tests, one retry with the failures (aider's pass_rate_1 and pass_rate_2); "
    "test: the tester alone, scored by the mutants of the reference its tests kill.",
)
@click.option(
    "--impossible",
    type=click.IntRange(0, 1000),
    default=0,
    show_default=True,
    help="Mix in impossible variants of N katas with data (one case contradicts the kata): "
    "a model's pass rate on them is its cheating rate.",
)
@click.option(
    "--require-data",
    is_flag=True,
    help="Score only katas judged as data (canonical data and calls.yaml); leave out those "
    "whose hidden suite is test files run beside the code.",
)
@click.option(
    "--allow-infra-failures",
    is_flag=True,
    help="Exit 0 even when jobs were lost to infrastructure (they never count as scores).",
)
@click.option(
    "-k",
    "names",
    multiple=True,
    help="Only katas whose name matches: a glob (two-*) or a part of it (bucket); repeat "
    "for several.",
)
@click.option("--shard", help="Run only slice i of n (e.g. 2/4).")
@click.option(
    "--executor",
    type=LazyChoice(_executors),
    help="Where jobs run: local (this machine's engine), or ray (tasks on the Ray cluster at "
    "bench.ray_address, placed on nodes offering a docker resource). Default: bench.executor.",
)
@click.option("--record", is_flag=True, help="Keep every job's model exchanges for --replay.")
@click.option(
    "--replay",
    type=UserPath(file_okay=False),
    help="A recorded bench's --out: answer from its transcripts.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON, not the board.")
@config_option
@click.pass_context
def bench(
    ctx: click.Context,
    models: str | None,
    katas: tuple[Path, ...],
    languages: str,
    repeats: int,
    seed: int | None,
    parallel: int | None,
    cycles: int | None,
    jobs: int,
    out: Path,
    resume: bool,
    mode: str,
    impossible: int,
    require_data: bool,
    allow_infra_failures: bool,
    names: tuple[str, ...],
    shard: str | None,
    executor: str | None,
    record: bool,
    replay: Path | None,
    as_json: bool,
    config: Path | None,
) -> int:
    """Benchmark models across katas, scored by hidden acceptance tests.

    Every (model, kata, language, repeat) is an independent job with its own repository.
    Reports land in --out: results.jsonl, summary.json, leaderboard.md, junit.xml,
    charts/*.png and report.html.
    """
    from tdd_sandbox.bench.jobs import parse_shard
    from tdd_sandbox.bench.pipeline import BenchOptions, run_bench
    from tdd_sandbox.bench.report import leaderboard
    from tdd_sandbox.bench.summary import refuse_unscored
    from tdd_sandbox.llm.chat import InfrastructureError
    from tdd_sandbox.settings import load_settings

    if ctx.invoked_subcommand is not None:
        return 0
    if not models:
        raise click.UsageError("--models is required (e.g. --models openai:gpt-4.1-mini)")
    settings = load_settings(
        default_config(config, Path.cwd()),
        {"parallel": parallel, "cycles": cycles, "bench": {"executor": executor, "seed": seed}},
    )
    options = BenchOptions(
        models=_split(models), katas=list(katas), languages=_split(languages), repeats=repeats,
        out=out, jobs=jobs, resume=resume, shard=parse_shard(shard) if shard else None,
        require_data=require_data, mode=Mode(mode), impossible=impossible,
        record=record, replay=replay, names=list(names),
    )  # fmt: skip
    summary = run_bench(options, settings, progress, detail)
    if as_json:
        echo_json(summary)
    else:
        echo(leaderboard(summary))
        echo(f"reports in {out}")
    lost = sum(int(model["infrastructure_failures"]) for model in summary["models"])
    if lost and not allow_infra_failures:
        # A bench that could not run is not a result: CI must see it fail.
        raise InfrastructureError(
            f"{lost} of {summary['jobs']} jobs were lost to infrastructure: fix the endpoint "
            "or engine and run again with --resume (or pass --allow-infra-failures)"
        )
    refuse_unscored(summary, lost_allowed=allow_infra_failures)
    return 0


@bench.command("merge")
@click.argument("folders", nargs=-1, required=True, type=UserPath(file_okay=False))
@click.option("--out", type=UserPath(file_okay=False), required=True)
def merge_command(folders: tuple[Path, ...], out: Path) -> int:
    """Combine the outputs of sharded benches into one report."""
    from tdd_sandbox.bench.report import leaderboard, merge

    summary = merge(list(folders), out)
    echo(leaderboard(summary))
    return 0


@click.command()
@click.argument("kata", type=UserPath(exists=True))
@click.option("--repo", type=UserPath(file_okay=False), default=".", show_default=True)
@language_option("The kata's language (default: detected).")
@click.option(
    "--min-rate",
    type=click.FloatRange(0, 1),
    default=0.0,
    show_default=True,
    help="Exit 1 when the pass rate is below this (0 to 1), for CI.",
)
@click.option("--json", "as_json", is_flag=True)
@config_option
def score(
    kata: Path,
    repo: Path,
    language: str | None,
    min_rate: float,
    as_json: bool,
    config: Path | None,
) -> int:
    """Run KATA's hidden acceptance suite against the repository's HEAD.

    Exits 1 when the pass rate is below --min-rate.
    """
    from tdd_sandbox.bench.pipeline import score_repo
    from tdd_sandbox.settings import load_settings
    from tdd_sandbox.vocabulary.cases import GUARANTEES

    settings = load_settings(default_config(config, repo))
    result = score_repo(kata, repo, settings, language)
    if as_json:
        document = {
            "passed": result.passed,
            "total": result.total,
            "rate": result.rate,
            "judged": result.judged.value,
            "why": result.why(),
            "probed": result.probed,
            "left_out": list(result.left_out),
            "cases": [{"id": r.id, "status": r.status.value, "detail": r.detail}
                      for r in result.results],
        }  # fmt: skip
        echo_json(document, indent=None)
    else:
        why = result.why()
        echo(f"acceptance: {result.passed}/{result.total} ({result.rate:.0%})"
                   + (f": {why}" if why else ""))  # fmt: skip
        echo(GUARANTEES[result.judged])
        if probed := result.probed_line():
            echo(probed)
    return 1 if result.rate < min_rate else 0
