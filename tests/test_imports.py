"""Every module imports on its own, first, in a fresh interpreter state: an import cycle
that only the test suite's import order hides would break a user's script or plug-in."""

from __future__ import annotations

import subprocess
import sys

import pytest

SHARDS = 4
"""Slices of the modules, each its own test, so parallel workers share the work."""

_EACH_ALONE = """
import importlib, pkgutil, sys
import tdd_sandbox
found = pkgutil.walk_packages(tdd_sandbox.__path__, "tdd_sandbox.")
# Scripts, not modules: the CLI's entry, and the pytest plug-in the guard runs as `-c`
# source inside the sandbox (it reads its nonce from argv).
SCRIPTS = ("tdd_sandbox.__main__", "tdd_sandbox.languages.python.guard")
names = [m.name for m in found if m.name not in SCRIPTS]
shard, shards = int(sys.argv[1]), int(sys.argv[2])
names = names[shard::shards]
broken = []
for name in names:
    for loaded in [m for m in sys.modules if m.startswith("tdd_sandbox")]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except Exception as exc:
        broken.append(f"{name}: {type(exc).__name__}: {exc}")
print("\\n".join(broken))
print(len(names), "modules", file=sys.stderr)
"""


@pytest.mark.parametrize("shard", range(SHARDS))
def test_every_module_imports_first_and_alone(shard: int) -> None:
    result = subprocess.run(
        [sys.executable, "-c", _EACH_ALONE, str(shard), str(SHARDS)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.strip() == "", result.stdout
    assert int(result.stderr.split()[0]) > 80 // SHARDS  # every module was found
