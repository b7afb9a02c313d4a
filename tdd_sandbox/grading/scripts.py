"""Judging a case performed by a script of operations (`languages.scripting`), step by
step. The driver was given each operation's name and arguments only; it answers with every
step's outcome, in order: `{"value": ...}`, or `{"error": ..., "error_type": ...}` where
the step failed. Here each is held against what the data says of its operation:

- `should_succeed: false`: the step fails (with an error of the kata's kinds, where the
  track names them);
- `expected`: the step answers that value;
- the case's own `expected`, where it is more than `{}`: what the last step answers, or its
  error (bank-account's `balance` or `{"error": "account not open"}`);
- any other step succeeds: a buffer's `clear` or `overwrite`, a group run at once.

A step marked `unordered` answers a list whose items may come in any order (a track's
test that collects them into a set).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tdd_sandbox.grading.equality import in_order_of, show
from tdd_sandbox.languages.framing import observed_from
from tdd_sandbox.languages.scripting import OPERATIONS
from tdd_sandbox.vocabulary.cases import Case, Observed

_FAILS = object()
"""What a step is expected to do when it must fail, with no message given."""
_SUCCEEDS = object()
"""What a step is expected to do when only its success is asked."""


def script_departure(
    case: Case,
    answer: Any,
    error_types: frozenset[str],
    judged: Callable[[Any, Observed], str | None],
) -> str | None:
    """Why `answer` (the driver's list of step outcomes) departs from the case's script, at
    its first step that does; None where every step does what the data says. A step that
    must fail fails with an error of `error_types` (any, where empty); one that must answer
    a value or an error is `judged` as a case's answer is (why it is wrong, or None)."""
    ops = case.input[OPERATIONS]
    if not isinstance(answer, list) or len(answer) != len(ops):
        return f"expected the outcomes of {len(ops)} steps, got {show(answer)}"
    for index, (op, outcome) in enumerate(zip(ops, answer, strict=True)):
        last = index == len(ops) - 1
        wanted = _wanted(op, case.expected if last else {})
        if op.get("unordered") and isinstance(outcome, dict) and set(outcome) == {"value"}:
            outcome = {"value": in_order_of(wanted, outcome["value"])}
        why = _departure(wanted, outcome, error_types, judged)
        if why is not None:
            return f"step {index + 1} ({op.get('operation')}): {why}"
    return None


def _wanted(op: Mapping[str, Any], final: Any) -> Any:
    """What a step must do: `_FAILS`, `_SUCCEEDS`, `{"error": message}` or a value."""
    if op.get("should_succeed") is False:
        return _FAILS
    if "expected" in op:
        return op["expected"]
    if final != {}:
        return final
    return _SUCCEEDS


def _departure(
    wanted: Any,
    outcome: Any,
    error_types: frozenset[str],
    judged: Callable[[Any, Observed], str | None],
) -> str | None:
    seen = observed_from(outcome)
    if seen.failure is not None:
        return f"a malformed outcome {show(outcome)}"
    said = f"{seen.error_type}: {str(seen.error)[:120]!r}"
    if wanted is _FAILS:
        if seen.error is None:
            return f"expected it to fail, got {show(seen.value)}"
        return (
            None
            if seen.is_of(error_types)
            else f"expected a {', '.join(sorted(error_types))}, got {said}"
        )
    if wanted is _SUCCEEDS:
        return None if seen.error is None else f"expected it to succeed, got {said}"
    return judged(wanted, seen)
