"""The live view: a clock that runs between events, and race results under their own phase."""

from __future__ import annotations

import io

from rich.console import Console

from tdd_sandbox.cli.view import RunView
from tdd_sandbox.engine.events import AttemptEnded, AttemptStarted
from tdd_sandbox.engine.phases import Phase
from tdd_sandbox.engine.race import AttemptStatus


def _view() -> tuple[RunView, io.StringIO]:
    out = io.StringIO()
    return RunView(Console(file=out, width=120, force_terminal=False)), out


def test_the_clock_runs_without_events() -> None:
    view, _ = _view()
    view.started -= 75
    assert "01:15" in str(view.__rich__())
    view.started -= 60
    assert "02:15" in str(view.__rich__())


def test_a_loser_ending_after_the_next_phase_began_is_shown_under_its_own_phase() -> None:
    view, out = _view()
    view(AttemptStarted(1, Phase.GREEN, 1, index=0, count=3, model="m"))
    view(AttemptStarted(1, Phase.REFACTOR, 1))
    view(AttemptEnded(1, Phase.GREEN, 2, AttemptStatus.LOST, 1.0))
    assert "green attempt 3: lost" in out.getvalue()


def test_a_refactorer_with_nothing_to_change_is_not_a_failure() -> None:
    view, out = _view()
    view(AttemptEnded(1, Phase.REFACTOR, 0, AttemptStatus.UNCHANGED, 0.5))
    assert "refactor: nothing worth changing" in out.getvalue()
    assert "failed" not in out.getvalue()


def test_a_red_attempt_that_lands_is_shown_by_its_test_alone() -> None:
    # RED runs through the same attempt() as every phase now; its end is not a second line.
    view, out = _view()
    view(AttemptEnded(1, Phase.RED, 0, AttemptStatus.GREEN, 0.5))
    assert out.getvalue() == ""
