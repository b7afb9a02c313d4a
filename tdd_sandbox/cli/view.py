"""The live progress of a run on the terminal (rich): a status line and one line per event."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, Self

from rich.console import Console
from rich.markup import escape
from rich.status import Status

from tdd_sandbox.closing import Closing


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

    def __call__(self, event: str, data: Mapping[str, Any]) -> None:
        """Observer hook for `Loop`."""
        if event == "cycle":
            self.cycle = int(data["cycle"])
            self.console.print(f"[bold]cycle {self.cycle}[/bold]")
        elif event == "attempt":
            self.phase, self.attempt = str(data["phase"]), int(data["attempt"])
            if int(data.get("count", 1)) > 1:
                which = f"{int(data['index']) + 1}/{data['count']}"
                model = escape(str(data.get("model")))
                self.console.print(f"  {self.phase} wave {self.attempt}: attempt {which} ({model})")
        elif event == "attempt-end" and data.get("status") == "unchanged":
            self.console.print(f"  {data.get('phase', self.phase)}: nothing worth changing")
        elif event == "attempt-end" and data.get("status") in ("green", "lost"):
            # A loser may end after the next phase began: it is shown under its own phase.
            phase = data.get("phase", self.phase)
            self.console.print(
                f"  {phase} attempt {int(data['index']) + 1}: {data['status']} "
                f"({data['seconds']:.1f}s)"
            )
        elif (
            event == "race" and data.get("winner") is not None and len(data.get("results", [])) > 1
        ):
            self.console.print(
                f"  [green]attempt {int(data['winner']) + 1} won[/green]; "
                f"losers cancelled in {data['cancel_s']:.2f}s"
            )
        elif event == "gates":
            verdict = "[green]green[/green]" if data.get("ok") else "[yellow]not green[/yellow]"
            gates = " ".join(f"{k}={v}" for k, v in dict(data.get("gates", {})).items())
            self.console.print(
                f"  {self.phase} #{self.attempt}: {verdict} [dim]{escape(gates)}[/dim]"
            )
        elif event == "rejected":
            self.console.print(
                f"  [red]rejected[/red] [dim]{escape(str(data['error'])[:160])}[/dim]"
            )
        elif event == "red":
            self.console.print(f"  [red]red[/red]: {escape(str(data['test']))}")
        elif event == "commit":
            self.console.print(
                f"  [green]committed[/green] {str(data['sha'])[:8]} {escape(str(data['summary']))}"
            )
        elif event in ("smaller-step", "reverted"):
            self.console.print(f"  [yellow]{event}[/yellow]")
        if self._status is not None:
            self._status.update(self)
