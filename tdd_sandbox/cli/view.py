"""The live progress of a run on the terminal (rich): a status line and one line per event."""

from __future__ import annotations

import time
from typing import Self

from rich.console import Console
from rich.markup import escape
from rich.status import Status

from tdd_sandbox.closing import Closing
from tdd_sandbox.engine.events import (
    AttemptEnded,
    AttemptStarted,
    Committed,
    CycleStarted,
    Event,
    Formatted,
    GatesRan,
    RaceEnded,
    RedFound,
    Rejected,
    Reverted,
    SmallerStepAsked,
)
from tdd_sandbox.engine.phases import Phase
from tdd_sandbox.engine.race import AttemptStatus

VERBOSE_LINES = 80
"""A rejection's lines shown under `-v`: what the model is told holds gate output."""


class RunView(Closing):
    """Turns loop events into a spinner line (cycle, phase, attempt, gate, elapsed) and a log."""

    def __init__(self, console: Console, *, verbose: bool = False) -> None:
        self.console = console
        self.verbose = verbose
        """`-v`: each try and its model, gate times, formatted files, rejections whole."""
        self.started = time.monotonic()
        self.cycle = 0
        self.phase = "starting"
        self.attempt = 0
        self._status: Status | None = None

    def __enter__(self) -> Self:
        # The view itself is the status renderable: rich redraws it several times a second,
        # so the clock runs between events (a model that takes minutes to answer included).
        self._status = self.console.status(self)
        self._status.start()
        return self

    def __rich__(self) -> str:
        """The status line as it is now."""
        return self._line()

    def close(self) -> None:
        """Stop the status line."""
        if self._status is not None:
            self._status.stop()

    def _line(self, doing: str = "") -> str:
        elapsed = time.monotonic() - self.started
        clock = f"{int(elapsed // 60):02d}:{int(elapsed % 60):02d}"
        parts = [f"cycle {self.cycle}", self.phase, f"attempt {self.attempt}", doing, clock]
        return " · ".join(part for part in parts if part)

    def __call__(self, event: Event) -> None:
        """Observer hook for `Loop`."""
        match event:
            case CycleStarted(cycle=cycle):
                self.cycle = cycle
                self.console.print(f"[bold]cycle {cycle}[/bold]")
            case AttemptStarted(phase=phase, attempt=wave, index=index, count=count, model=model):
                self.phase, self.attempt = phase.value, wave
                if count > 1:
                    self.console.print(
                        f"  {phase} wave {wave}: attempt {index + 1}/{count} ({escape(model)})"
                    )
                elif self.verbose:
                    self.console.print(f"  {phase} try {wave} ({escape(model)})")
            case AttemptEnded(phase=phase, status=AttemptStatus.UNCHANGED):
                self.console.print(f"  {phase}: nothing worth changing")
            case AttemptEnded(phase=phase, index=index, status=status, seconds=seconds) if (
                status in (AttemptStatus.GREEN, AttemptStatus.LOST) and phase is not Phase.RED
            ):  # a RED attempt that lands is shown by its failing test
                # A loser may end after the next phase began: it is shown under its own phase.
                self.console.print(f"  {phase} attempt {index + 1}: {status} ({seconds:.1f}s)")
            case RaceEnded(winner=int(winner), results=results, cancel_s=cancel_s) if (
                len(results) > 1
            ):
                self.console.print(
                    f"  [green]attempt {winner + 1} won[/green]; "
                    f"losers cancelled in {cancel_s:.2f}s"
                )
            case GatesRan(ok=ok, gates=gates, seconds=seconds):
                verdict = "[green]green[/green]" if ok else "[yellow]not green[/yellow]"
                said = " ".join(f"{k}={v}" for k, v in gates.items())
                said += f" ({seconds:.1f}s)" if self.verbose else ""
                self.console.print(
                    f"  {self.phase} #{self.attempt}: {verdict} [dim]{escape(said)}[/dim]"
                )
            case Rejected(error=error) if self.verbose:
                # What the model is told, whole: the line below cuts it at 160 characters.
                lines = error.splitlines()[:VERBOSE_LINES] or [""]
                self.console.print(f"  [red]rejected[/red] [dim]{escape(lines[0])}[/dim]")
                for line in lines[1:]:
                    self.console.print(f"    [dim]{escape(line)}[/dim]")
            case Rejected(error=error):
                self.console.print(f"  [red]rejected[/red] [dim]{escape(error[:160])}[/dim]")
            case Formatted(paths=paths) if self.verbose:
                self.console.print(f"  formatted [dim]{escape(', '.join(paths))}[/dim]")
            case RedFound(test=test):
                self.console.print(f"  [red]red[/red]: {escape(test)}")
            case Committed(sha=sha, summary=summary):
                self.console.print(f"  [green]committed[/green] {sha[:8]} {escape(summary)}")
            case SmallerStepAsked() | Reverted():
                self.console.print(f"  [yellow]{event.name}[/yellow]")
        if self._status is not None:
            self._status.update(self)
