"""Defaults the command line shows in its help before any setting is loaded (loading the
settings models costs more than a whole `--help` may take)."""

from __future__ import annotations

DEFAULT_LANGUAGE = "python"
"""A new kata's language when neither the command, tdd.yaml, the kata nor the repo names one."""
