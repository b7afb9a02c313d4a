"""Test ids: the one rule for which reported test stands for which expected one."""

from __future__ import annotations


def matches(reported: str, expected: str) -> bool:
    """Whether a reported test id is the expected test or one of its parametrised variants
    (`id[...]`): pytest reports `test_x[1]` for the `test_x` read from the source."""
    return reported == expected or reported.startswith(expected + "[")
