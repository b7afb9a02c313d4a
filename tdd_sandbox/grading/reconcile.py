"""The rule that a test which never reported is an error, never a pass."""

from __future__ import annotations

from collections.abc import Iterable

from tdd_sandbox.grading.ids import matches
from tdd_sandbox.vocabulary.results import NOT_RUN, TestOutcome, TestStatus


def reconcile(outcomes: list[TestOutcome], expected: Iterable[str]) -> list[TestOutcome]:
    """Add an ERROR outcome for each expected test that did not report.

    An expected id is met by an outcome with the same id or a parametrised variant of it
    (`id[...]`): a test that silently did not run must never count as a pass.
    """
    reported = {outcome.id for outcome in outcomes}
    missing = [
        test_id for test_id in sorted(expected) if not any(matches(r, test_id) for r in reported)
    ]
    return outcomes + [TestOutcome(test_id, TestStatus.ERROR, NOT_RUN) for test_id in missing]
