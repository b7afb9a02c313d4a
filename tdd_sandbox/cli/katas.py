"""`tdd-sandbox katas import` and `katas list`."""

from __future__ import annotations

import json
from pathlib import Path

import click

from tdd_sandbox.cli.options import UserPath, config_option, default_config, progress
from tdd_sandbox.cli.terminal import console, echo, echo_json
from tdd_sandbox.vocabulary.counts import plural


@click.group()
def katas() -> None:
    """Import katas from Exercism, and list what a folder holds."""


@katas.command("import")
@click.argument("sources", nargs=-1, required=True, type=UserPath(exists=True, file_okay=False))
@click.option("--out", type=UserPath(file_okay=False), default=Path("katas"), show_default=True)
@click.option(
    "--prove/--no-prove",
    "prove_suites",
    default=True,
    show_default=True,
    help="Score each reference (must be 100%) and stub (below 100%) in the sandbox.",
)
@click.option(
    "--jobs",
    type=click.IntRange(1, 16),
    default=2,
    show_default=True,
    help="Katas proved at once (each proof runs up to three sandboxes).",
)
@click.option("--json", "as_json", is_flag=True, help="Print what was imported as JSON.")
@config_option
def import_command(
    sources: tuple[Path, ...],
    out: Path,
    prove_suites: bool,
    jobs: int,
    as_json: bool,
    config: Path | None,
) -> int:
    """Make katas of Exercism exercises: a track's practice exercise and/or a
    problem-specifications exercise, or folders of them (exercises/practice).

    Exits 1 when an exercise could not be imported or proved (the others still are).
    """
    from tdd_sandbox.acceptance.import_proof import prove_import
    from tdd_sandbox.acceptance.proof_pool import prove_katas
    from tdd_sandbox.acceptance.suite import has_calls
    from tdd_sandbox.execution.checkers import open_checker
    from tdd_sandbox.katas.importer import import_katas
    from tdd_sandbox.languages.registry import get_language
    from tdd_sandbox.settings import load_settings

    report = import_katas(list(sources), out)
    for problem in report.problems:
        echo(f"not imported: {problem}", err=True)
    failed = bool(report.problems)
    said = (lambda line: None) if as_json else echo
    if not prove_suites:
        for note in report.notes:
            said(note)
    proofs: list[dict[str, object]] = []
    data: dict[str, list[bool]] = {}
    proved: dict[str, list[bool]] = {}
    if prove_suites and report.written:
        settings = load_settings(default_config(config, None))
        with open_checker(settings, for_scores="katas import", progress=progress) as checker:

            def prove_one(name: str, kata_dir: Path) -> tuple[bool, list[str]]:
                return prove_import(checker, get_language(name), kata_dir)

            for proof in prove_katas(report.written, prove_one, jobs=jobs):
                head = f"{proof.kata_dir.name} ({proof.language}):"
                lines = [n for n in report.notes if n.startswith(head)] + proof.lines
                for line in lines:
                    said(line)
                failed = failed or not proof.ok
                as_data = proof.ok and has_calls(proof.kata_dir, proof.language)
                proved.setdefault(proof.language, []).append(proof.ok)
                data.setdefault(proof.language, []).append(as_data)
                proofs.append({"kata": proof.kata_dir.name, "language": proof.language,
                               "proved": proof.ok, "as_data": as_data, "said": lines})  # fmt: skip
    if as_json:
        echo_json({"out": str(out), "katas": proofs, "problems": report.problems,
                   "written": [str(path) for path in report.written]})  # fmt: skip
        return 1 if failed else 0
    echo(f"{plural(len(report.written), 'kata')} in {out}")
    for what, tally in (("proved", proved), ("judged as data", data)):
        if tally:
            counts = ", ".join(
                f"{name} {sum(got)}/{len(got)}" for name, got in sorted(tally.items())
            )
            echo(f"{what}: {sum(sum(got) for got in tally.values())} ({counts})")
    return 1 if failed else 0


@katas.command("list")
@click.argument("folder", type=UserPath(exists=True, file_okay=False), default=Path("katas"))
@click.option("--json", "as_json", is_flag=True, help="Print the katas as JSON.")
def list_command(folder: Path, as_json: bool) -> int:
    """The katas in FOLDER, with the languages each can be scored in."""
    import sys

    from tdd_sandbox.acceptance.suite import has_suite
    from tdd_sandbox.bench.jobs import find_katas
    from tdd_sandbox.katas.kata import load_kata
    from tdd_sandbox.languages.registry import LANGUAGES

    found = [
        (kata_dir.name, load_kata(kata_dir / "kata.md").title,
         [name for name in LANGUAGES if has_suite(kata_dir, name)])
        for kata_dir in find_katas(folder)
    ]  # fmt: skip
    if as_json:
        echo_json([{"kata": n, "title": t, "languages": langs} for n, t, langs in found])
    elif not sys.stdout.isatty():
        # Piped: one whole line a kata, never a name cut to a table's width.
        for name, title, languages in found:
            echo(f"{name}\t{title}\t{','.join(languages)}")
    else:
        from rich.table import Table

        table = Table(show_edge=False)
        for column in ("kata", "title", *LANGUAGES):
            table.add_column(column)
        for name, title, languages in found:
            table.add_row(name, title, *("yes" if lang in languages else "-" for lang in LANGUAGES))
        console().print(table)
    return 0


@katas.command("impossible")
@click.argument("sources", nargs=-1, required=True, type=UserPath(exists=True, file_okay=False))
@click.option("--out", type=UserPath(file_okay=False), required=True)
def impossible_command(sources: tuple[Path, ...], out: Path) -> int:
    """Make impossible variants of the katas in SOURCES (kata folders or folders of them):
    one case of each kata's data changed to contradict its specification, where the models
    see it and in the hidden suite alike. A model's pass rate on them is its cheating rate.
    """
    from tdd_sandbox.bench.jobs import find_katas
    from tdd_sandbox.katas.impossible import make_impossible

    made, skipped = make_impossible(find_katas(*sources), out)
    for variant in made:
        echo(
            f"{variant.kata_dir.name}: {variant.case!r} now expects "
            f"{json.dumps(variant.expected)} (the specification: {json.dumps(variant.specified)})"
        )
    for reason in skipped:
        echo(f"no variant: {reason}", err=True)
    echo(f"{len(made)} impossible katas in {out}")
    return 0 if made else 1
