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
    GatesRan,
    RaceEnded,
    RedFound,
    Rejected,
    Reverted,
    SmallerStepAsked,
)
from tdd_sandbox.engine.phases import Phase
from tdd_sandbox.engine.race import AttemptStatus


class RunView(Closing):
    """Turns loop events into a spinner line (cycle, phase, attempt, gate, elapsed) and a log."""

    def __init__(self, console: Console) -> None:
        self.console = console
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
            case GatesRan(ok=ok, gates=gates):
                verdict = "[green]green[/green]" if ok else "[yellow]not green[/yellow]"
                said = " ".join(f"{k}={v}" for k, v in gates.items())
                self.console.print(
                    f"  {self.phase} #{self.attempt}: {verdict} [dim]{escape(said)}[/dim]"
                )
            case Rejected(error=error):
                self.console.print(f"  [red]rejected[/red] [dim]{escape(error[:160])}[/dim]")
            case RedFound(test=test):
                self.console.print(f"  [red]red[/red]: {escape(test)}")
            case Committed(sha=sha, summary=summary):
                self.console.print(f"  [green]committed[/green] {sha[:8]} {escape(summary)}")
            case SmallerStepAsked() | Reverted():
                self.console.print(f"  [yellow]{event.name}[/yellow]")
        if self._status is not None:
            self._status.update(self)
