"""The README is a front page and the rest of the documentation is in docs/: every relative
link names a file that exists, every page is in the site's navigation, and the site builds."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import click
import yaml

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_LINK = re.compile(r"\]\(([^)\s]+)\)")


def _relative_links(page: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.DOTALL)
    return [
        link.split("#")[0]
        for link in _LINK.findall(text)
        if not re.match(r"[a-z]+:", link) and not link.startswith("#")
    ]


def test_every_relative_link_names_a_file_that_exists() -> None:
    broken = [
        f"{page.relative_to(ROOT)}: {link}"
        for page in PAGES
        for link in _relative_links(page)
        if not (page.parent / link).exists()
    ]
    assert broken == []


def test_the_readme_is_a_front_page() -> None:
    # It was 75 KB, and a newcomer could not find the settings or what the commands mean.
    assert len((ROOT / "README.md").read_bytes()) <= 15_000
    linked = set(_relative_links(ROOT / "README.md"))
    assert {f"docs/{page.name}" for page in PAGES[1:] if page.name != "index.md"} <= linked


def test_every_page_is_in_the_navigation_and_the_site_builds(tmp_path: Path) -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    listed = {page for entry in config["nav"] for page in entry.values()}
    assert listed == {page.name for page in PAGES[1:]}
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr[-2000:]


_SHELL = re.compile(r"```(?:bash|sh|shell|console)\n(.*?)```", re.DOTALL)
_PLACEHOLDERS = {"...", "…"}
"""Words a page writes for "and the rest as before"."""


def commands(text: str) -> list[list[str]]:
    """Each `tdd-sandbox` command of `text`'s shell blocks, as its words after the name."""
    found = []
    for block in _SHELL.findall(text):
        for line in block.replace("\\\n", " ").splitlines():
            words = shlex.split(line.removeprefix("$ "), comments=True)
            command: list[str] | None = None
            for word in [*words, ";"]:
                if word in {"&&", "||", ";", "|"} or word.endswith(";"):
                    if command is not None:
                        found.append(command)
                    command = None
                elif command is not None and word not in _PLACEHOLDERS:
                    command.append(word)
                elif word == "tdd-sandbox" and command is None:
                    command = []
    return found


def misuse(args: list[str]) -> str:
    """Why `tdd-sandbox ARGS` would be refused as usage (an unknown command or option, a
    missing or extra argument, a value outside its choices); "" when it parses. Nothing
    runs: paths need not exist here."""
    from tdd_sandbox.cli import cli

    command: click.Command = cli
    parent: click.Context | None = None
    name = "tdd-sandbox"
    while True:
        ctx = click.Context(command, info_name=name, parent=parent)
        parser = command.make_parser(ctx)
        if isinstance(command, click.Group):
            parser.allow_interspersed_args = False
        try:
            values, rest, _ = parser.parse_args(args=list(args))
        except click.UsageError as exc:
            return f"{name}: {exc.format_message()}"
        for param in command.params:
            value = values.get(param.name or "")
            if isinstance(param.type, click.Choice) and not _unset(value):
                given = value if isinstance(value, list | tuple) else [value]
                if not set(map(str, given)) <= set(param.type.choices):
                    return f"{name}: {param.name}={value!r} is none of {param.type.choices}"
        if not isinstance(command, click.Group):
            break
        if not rest:
            return (
                ""
                if values.get("help") or command.invoke_without_command
                else f"{name}: no command"
            )
        sub = command.get_command(ctx, rest[0])
        if sub is None:
            return f"{name}: no command {rest[0]!r}"
        command, parent, name, args = sub, ctx, rest[0], rest[1:]
    arguments = [p for p in command.params if isinstance(p, click.Argument)]
    if rest and not any(p.nargs == -1 for p in arguments):
        return f"{name}: unexpected {rest}"
    missing = [p.name for p in arguments if p.required and _unset(values.get(p.name or ""))]
    return f"{name}: missing {missing}" if missing and not values.get("help") else ""


def _unset(value: object) -> bool:
    # click 8.2 and later mark a value not given with a sentinel of their own.
    return value is None or value == () or type(value).__name__ == "Sentinel"


def test_every_command_in_the_docs_parses_as_the_cli_reads_it() -> None:
    # A renamed option or command left the docs telling users what fails with exit 2.
    said = {
        f"{page.relative_to(ROOT)}: tdd-sandbox {' '.join(args)}": misuse(args)
        for page in PAGES
        for args in commands(page.read_text(encoding="utf-8"))
    }
    assert len(said) >= 20  # the pages do show commands
    assert {command: why for command, why in said.items() if why} == {}


def test_a_misused_command_is_found() -> None:
    assert misuse(["run", "kata.md", "--parallel", "3"]) == ""
    assert misuse(["-q", "bench", "merge", "a", "b", "--out", "c"]) == ""
    assert "no such option" in misuse(["run", "kata.md", "--paralel", "3"]).lower()
    assert "no command 'benchmark'" in misuse(["benchmark"])
    assert "none of" in misuse(["bench", "--models", "m", "--mode", "fast"])
    assert "missing" in misuse(["run", "--parallel", "3"])
    assert commands("```bash\nx && tdd-sandbox run k.md ... # note\n$ tdd-sandbox gc\n```") == [
        ["run", "k.md"],
        ["gc"],
    ]


def test_every_script_the_docs_run_exists() -> None:
    scripts = {
        f"{page.relative_to(ROOT)}: {word}"
        for page in PAGES
        for block in _SHELL.findall(page.read_text(encoding="utf-8"))
        for word in re.findall(r"(?:^|\s)((?:scripts|benchmarks)/[\w/.-]+\.(?:py|sh))", block)
        if not (ROOT / word).is_file()
    }
    assert scripts == set()
