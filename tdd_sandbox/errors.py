"""One error root for the tool; the CLI maps each class to an exit code.

A `TddSandboxError` is something the user can act on: the CLI prints its message on one line
and exits without a traceback. Anything else is a bug and gets a crash log.
"""

from __future__ import annotations


class TddSandboxError(Exception):
    """Root of every error the tool raises on purpose.

    The message names the problem and, where there is one, the fix.
    """

    exit_code = 1


class UsageError(TddSandboxError, ValueError):
    """The user asked for something that cannot work (unknown language, missing directory)."""

    exit_code = 2


class ConfigError(TddSandboxError, ValueError):
    """A configuration file or environment variable is invalid."""

    exit_code = 2


class PrerequisiteError(TddSandboxError, RuntimeError):
    """Something the tool needs on this machine is missing (Docker, git, an image)."""

    exit_code = 3


class SandboxUnavailable(TddSandboxError, RuntimeError):
    """The sandbox itself is unusable: the engine went away or a container could not start.

    A command that fails inside a working sandbox is never this; it is an `ExecResult`.
    """

    exit_code = 4


class ImageBuildError(PrerequisiteError):
    """A sandbox image could not be built."""


class Interrupted(KeyboardInterrupt):
    """A stop was asked for from outside the run (a bench's Ctrl-C reaching a job's thread).

    A `KeyboardInterrupt`, so that a run stopped this way unwinds and is recorded exactly as
    one stopped by Ctrl-C: containers removed, status `interrupted`, commits counted.
    """
