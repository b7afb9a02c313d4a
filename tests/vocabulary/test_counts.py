"""Counts as a person writes them."""

from __future__ import annotations

from tdd_sandbox.vocabulary.counts import plural


def test_one_is_singular_and_the_rest_plural() -> None:
    assert [plural(n, "job") for n in (0, 1, 2)] == ["0 jobs", "1 job", "2 jobs"]
    assert [plural(n, "try") for n in (1, 3)] == ["1 try", "3 tries"]
    assert plural(1, "kata") == "1 kata"
