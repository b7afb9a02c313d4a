"""Defaults and choices the command line shows in its help before any setting is loaded
(loading the settings models costs more than a whole `--help` may take)."""

from __future__ import annotations

from typing import Literal

DEFAULT_LANGUAGE = "python"
"""A new kata's language when neither the command, tdd.yaml, the kata nor the repo names one."""

Executor = Literal["local", "ray"]
"""Where a bench's jobs run (`bench.executor`, `bench --executor`): on this machine, or as
tasks on a Ray cluster (`bench/cluster.py`)."""
