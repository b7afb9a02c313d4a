"""Why an attempt was refused: one vocabulary for the answer, the edits and the verdicts.

The edit checks, the answer parser and the phase verdicts raise with a `Failure`; the journal
writes it as the `kind` of a rejection; the live view, `status` and the bench read it back.
"""

from __future__ import annotations

import enum


class Failure(enum.StrEnum):
    """Why an attempt was refused (the `kind` of a rejection)."""

    # The answer is not a usable edit plan.
    INVALID = "invalid"
    NOT_JSON = "not_json"
    SCHEMA = "schema"
    EMPTY = "empty"
    TRUNCATED = "truncated"
    REPETITION = "repetition"
    NO_FILES = "no_files"
    ECHO = "echo"
    """The answer copied the format's example instead of filling it in."""
    NO_MATCH = "no_match"
    """A `diff` block's search text is not in the file."""
    MANY_MATCHES = "many_matches"
    """A `diff` block's search text is in the file more than once."""
    # The edits may not be applied.
    PATH = "path"
    PERMISSION = "permission"
    PROTECTED = "protected"
    POLICY = "policy"
    UNREADABLE = "unreadable"
    """Text the judge cannot read as the compiler does (`Violation.unreadable`); not tamper."""
    TEST_IN_CODE = "test_in_code"
    NO_CHANGE = "no_change"
    # The phase's verdict.
    PREMATURE_DONE = "premature_done"
    NO_NEW_TEST = "no_new_test"
    MANY_NEW_TESTS = "many_new_tests"
    REMOVED_TEST = "removed_test"
    NOT_FORMATTED = "not_formatted"
    UNFINISHED_RUN = "unfinished_run"
    OVERSHOOT = "overshoot"
    TEST_MISTAKE = "test_mistake"
    BROKEN_TEST = "broken_test"
    NOT_GREEN = "not_green"
    CHANGED_TESTS = "changed_tests"
    # The guard's evidence that a result was forged (grading.evidence.TamperKind).
    SENTINEL = "sentinel"
    CHANNEL = "channel"
    RUNNER = "runner"
    ANSWERS = "answers"
    """The code passes a test whose expected values were changed: it reads the tests."""
    # Not the model's doing.
    INFRASTRUCTURE = "infrastructure"
    """The model endpoint failed."""
    SANDBOX = "sandbox"
    """The sandbox, git or the disk failed."""
    OTHER = "other"
    """A kind this version does not know (read from an older or newer log)."""

    @property
    def is_tamper(self) -> bool:
        """An attempt at a forged verdict rather than a mistake: touching files the role may
        not (`permission`), the kata or the tool's configuration (`protected`), the static
        policy, and the guard's evidence."""
        return self in _TAMPER

    @classmethod
    def read(cls, value: object) -> Failure:
        """The kind a log line names; `other` for one this version does not know."""
        try:
            return cls(str(value))
        except ValueError:
            return cls.OTHER


_TAMPER = frozenset(
    {
        Failure.PERMISSION,
        Failure.PROTECTED,
        Failure.POLICY,
        Failure.SENTINEL,
        Failure.CHANNEL,
        Failure.RUNNER,
        Failure.ANSWERS,
    }
)
