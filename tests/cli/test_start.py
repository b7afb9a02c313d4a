"""A command imports only what it runs: help and `status` load no model client, no
Docker SDK, no language pack and no settings model (benchmarks/cli_start.py has the times)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from tdd_sandbox.cli import COMMANDS, cli
from tdd_sandbox.cli.options import SettingNumber
from tdd_sandbox.vocabulary.files import TDD_DIR
from tests.helpers.cli import run_entry_point
from tests.helpers.git import git

HEAVY = (
    "docker", "git", "httpx", "openai", "pydantic", "pydantic_settings", "yaml",
    "tdd_sandbox.languages.registry", "tdd_sandbox.engine.session", "tdd_sandbox.bench.pipeline",
    "tdd_sandbox.execution", "tdd_sandbox.llm", "tdd_sandbox.settings",
)  # fmt: skip
"""Modules whose import alone costs more than the whole start-up budget leaves."""

_PROBE = """
import json, sys
from tdd_sandbox.cli import cli
try:
    cli.main(sys.argv[1:], standalone_mode=False, prog_name="tdd-sandbox")
except Exception as exc:
    print(type(exc).__name__, exc, file=sys.stderr)
print(json.dumps(sorted(sys.modules)))
"""


def loaded_by(*argv: str) -> set[str]:
    """The modules a fresh interpreter holds after running the CLI with `argv`."""
    result = subprocess.run(
        [sys.executable, "-c", _PROBE, *argv], capture_output=True, text=True, check=True
    )
    return set(json.loads(result.stdout.splitlines()[-1]))


def heavy(modules: set[str]) -> list[str]:
    """The heavy modules (or their sub-modules) among `modules`."""
    return sorted(m for m in modules if any(m == h or m.startswith(f"{h}.") for h in HEAVY))


def test_root_help_imports_no_heavy_module() -> None:
    assert heavy(loaded_by("--help")) == []


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_each_command_help_imports_no_heavy_module(command: str) -> None:
    assert heavy(loaded_by(command, "--help")) == []


def test_status_imports_no_heavy_module(tmp_path: Path) -> None:
    # A run and a commit, so status reads everything it reads: the journal, the state and git
    # (plain git, never gitpython, which alone took a quarter of the budget).
    git(tmp_path, "init", "-q")
    (tmp_path / "a.py").write_text("a\n")
    git(tmp_path, "add", "a.py")
    git(tmp_path, "-c", "user.name=u", "-c", "user.email=u@x", "commit", "-qm", "feat: a")
    run = tmp_path / TDD_DIR / "runs" / "r1"
    run.mkdir(parents=True)
    (run / "log.jsonl").write_text('{"event": "cycle", "cycle": 1}\n')
    (tmp_path / TDD_DIR / "latest.json").write_text('{"run_id": "r1"}')
    loaded = loaded_by("status", "--repo", str(tmp_path), "--json")
    assert "tdd_sandbox.ops.status" in loaded
    assert heavy(loaded) == []


def every_parameter() -> list[click.Parameter]:
    """Each parameter of each command and sub-command."""
    found: list[click.Parameter] = []
    pending: list[click.Command] = [cli]
    context = click.Context(cli)
    while pending:
        command = pending.pop()
        found += command.params
        if isinstance(command, click.Group):
            for name in command.list_commands(context):
                sub = command.get_command(context, name)
                pending += [sub] if sub is not None else []
    return found


def test_every_setting_option_names_a_numeric_setting_with_its_bounds() -> None:
    # The bounds are read when a value is given: each option must still name a number field.
    numbers = [p.type for p in every_parameter() if isinstance(p.type, SettingNumber)]
    assert {number.setting for number in numbers} >= {"parallel", "cycles", "parallel_refactor"}
    for number in numbers:
        assert isinstance(number.checked, click.IntRange | click.FloatRange)


def test_a_setting_option_outside_its_bound_is_a_usage_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["run", str(tmp_path / "kata.md"), "--parallel", "0"])
    assert result.exit_code == 2
    assert "--parallel" in result.output
    assert "0 is not in the range 1<=x<=16" in result.output


def test_the_entry_point_maps_an_error_to_its_exit_code_in_a_child(tmp_path: Path) -> None:
    # Other CLI tests run `invoke` in-process; this one is the console script's own path.
    result = run_entry_point("gates", str(tmp_path / "missing"))
    assert result.returncode == 2
    assert result.stderr.count("\n") <= 4
    assert "Traceback" not in result.stderr
    assert run_entry_point("--version").stdout.startswith("tdd-sandbox, version")


def test_help_lists_every_registered_language_without_loading_the_registry() -> None:
    from tdd_sandbox.cli.options import language_packs
    from tdd_sandbox.languages.registry import LANGUAGES

    assert language_packs() == sorted(LANGUAGES)
    shown = CliRunner().invoke(cli, ["init", "--help"], terminal_width=200).output
    assert "[" + "|".join(sorted(LANGUAGES)) + "]" in shown
