"""Test ids: the one rule for which reported test stands for which expected one."""

from __future__ import annotations


def matches(reported: str, expected: str) -> bool:
    """Whether a reported test id is the expected test or one of its variants read from no
    source: a parametrisation (pytest's `test_x[1]` for `test_x`) or a subtest (go test's
    `TestX/case` for `TestX`)."""
    return reported == expected or reported.startswith((expected + "[", expected + "/"))
