"""The live view: a clock that runs between events, and race results under their own phase."""

from __future__ import annotations

import io

from rich.console import Console

from tdd_sandbox.cli.view import RunView
from tdd_sandbox.engine.events import AttemptEnded, AttemptStarted, Formatted, GatesRan, Rejected
from tdd_sandbox.engine.phases import Phase
from tdd_sandbox.engine.race import AttemptStatus
from tdd_sandbox.vocabulary.failures import Failure


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


def test_verbose_shows_a_rejection_whole_and_each_try() -> None:
    # Without -v the line is cut at 160 characters: the gate output after it was lost.
    error = "the test gate failed:\n" + "\n".join(f"line {n} " + "x" * 100 for n in range(5))
    out = io.StringIO()
    view = RunView(Console(file=out, width=200, force_terminal=False), verbose=True)
    view(AttemptStarted(1, Phase.GREEN, 2, model="qwen"))
    view(Rejected(1, Phase.GREEN, 2, error, Failure.NOT_GREEN))
    view(GatesRan(False, {"lint": "ok", "test": "failed"}, 3.25))
    view(Formatted(["src/fizzbuzz.py"]))
    said = out.getvalue()
    assert "green try 2 (qwen)" in said
    assert "line 4 " + "x" * 100 in said
    assert "(3.2s)" in said
    assert "formatted src/fizzbuzz.py" in said
    quiet, cut = _view()
    quiet(Rejected(1, Phase.GREEN, 2, error, Failure.NOT_GREEN))
    quiet(Formatted(["src/fizzbuzz.py"]))
    assert "line 4" not in cut.getvalue()
    assert "formatted" not in cut.getvalue()
