"""What a model wrote reaches the terminal as text, never as instructions to it (issue #46):
a failing test's output, an import error, a test's name, a reason quoting an answer."""

from __future__ import annotations

import ast
import io
from pathlib import Path

import pytest
from rich.table import Table
from rich.text import Text

import tdd_sandbox.cli
from tdd_sandbox.cli.escaping import EscapingConsole
from tdd_sandbox.cli.gates import render
from tdd_sandbox.cli.terminal import echo
from tdd_sandbox.grading.gates import GateReport, GateResult, GateStatus
from tdd_sandbox.sandbox.base import ExecResult
from tdd_sandbox.vocabulary.results import GateKind

# Retitle the window, erase the line above, print a green verdict there, ring the bell.
ATTACK = "\x1b]0;pwned\x07\x1b[1A\x1b[2K\x1b[32m15/15 (100%)\x1b[0m\x9b2J\u202eesrever"


def _console(buffer: io.StringIO) -> EscapingConsole:
    # A real terminal's console: styles are written, so only the text's own escapes can leak.
    return EscapingConsole(file=buffer, force_terminal=True, color_system="standard", width=120)


def _leaks(shown: str) -> list[str]:
    """The attack's sequences that reached the output raw."""
    sequences = ("\x1b]0;", "\x1b[1A", "\x1b[2K", "\x07", "\x9b", "\u202e")
    return [seq for seq in sequences if seq in shown]


def test_a_failing_gates_output_tail_is_shown_escaped() -> None:
    tail = f"FAILED test_k.py::test_one\n{ATTACK}\n"
    report = GateReport(
        "python",
        (GateResult(GateKind.TEST, GateStatus.FAILED, "1 failed", ExecResult(1, tail, "", 0.1)),),
    )
    buffer = io.StringIO()
    render(report, _console(buffer))
    shown = buffer.getvalue()
    assert _leaks(shown) == []
    assert "\\x1b]0;pwned" in shown  # the reader sees what was there (rich drops the bell)
    assert "not green" in shown


@pytest.mark.parametrize(
    "renderable",
    [ATTACK, Text(ATTACK), "[bold]" + ATTACK + "[/bold]"],
    ids=["str", "Text", "markup"],
)
def test_every_renderable_is_escaped(renderable: str | Text) -> None:
    buffer = io.StringIO()
    table = Table(title=ATTACK)
    table.add_column(ATTACK)
    table.add_row(renderable)
    console = _console(buffer)
    console.print(renderable)
    console.print(table)
    console.rule(ATTACK)
    assert _leaks(buffer.getvalue()) == []


def test_echo_escapes_and_cuts_a_line_that_would_bury_the_verdict(
    capsys: pytest.CaptureFixture[str],
) -> None:
    echo(f"acceptance: 0/13\n{ATTACK}{'x' * 10_000}")
    out = capsys.readouterr().out
    assert _leaks(out) == []
    assert out.startswith("acceptance: 0/13\n")
    assert len(out) < 3000
    assert "characters]" in out


def test_no_command_writes_to_the_terminal_around_the_escaping_writers() -> None:
    # Fails closed: a new command that prints with click.echo or its own rich Console would
    # show a model's bytes raw, so only the terminal module may build either.
    raw = []
    for path in sorted(Path(tdd_sandbox.cli.__file__).parent.glob("*.py")):
        if path.name in {"terminal.py", "escaping.py"}:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                name = ast.unparse(node.func)
                if name in {"click.echo", "click.secho", "print", "Console", "rich.print"}:
                    raw.append(f"{path.name}:{node.lineno} {name}")
    assert raw == []
