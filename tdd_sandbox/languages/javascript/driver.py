"""JavaScript's acceptance driver, host side: a generated module beside the model's code files
(under a package.json of the tool's) that performs one case per process."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path, PurePosixPath
from typing import Any

from tdd_sandbox.errors import UsageError
from tdd_sandbox.languages.driving import DRIVER_DIR, PackDriver, Prepared, render_calls
from tdd_sandbox.languages.framing import TIMED_OUT, read_framed
from tdd_sandbox.languages.javascript.flavour import JAVASCRIPT_FLAVOUR, NodeFlavour
from tdd_sandbox.languages.javascript.guard import CONSOLE_MODULE
from tdd_sandbox.vocabulary.cases import CallMap, Case, Observed

_TEMPLATE = Path(__file__).with_name("driver.mjs")
RESULTS = "/tmp/tdd-acceptance/out"
_ERROR = re.compile(r"\w*Error(?: \[\w+\])?: ")
"""The line of Node's report of an error that says what it was (`SyntaxError: ...`,
`Error [ERR_MODULE_NOT_FOUND]: Cannot find module ...`)."""

# Run from a copy under /tmp, the driver at its root so that the setup's `./kata.js` resolves;
# one process per case, each under `timeout`, its output capped, so a case that hangs or
# floods fails alone. A module that does not load fails every case the same way: the first
# case's report of it is kept (each case adds a copy; the end of the last is a stack). Each
# case's process runs under Node's permission model: it reads the copy and writes nothing,
# so no case leaves anything behind for the next.
_SCRIPT = r"""
n=$1; count=$2; limit=$3; out=/tmp/tdd-acceptance/out
mkdir -p /tmp/tdd-acceptance /tmp/package && cp -R /work/. /tmp/package/ || exit 3
cd /tmp/package || exit 3
mv .tdd/acceptance/driver{module} tdd_acceptance_driver{module} || exit 3
mv .tdd/acceptance/console.mjs tdd_acceptance_console.mjs || exit 3
: > "$out"
i=0
while [ "$i" -lt "$count" ]; do
  { timeout -s KILL "$limit" {node} --permission --allow-fs-read=/tmp/package \
      --import ./tdd_acceptance_console.mjs tdd_acceptance_driver{module} "$i" "$n" \
      2>>/tmp/tdd-acceptance/err
    echo $? > /tmp/tdd-acceptance/rc; } | head -c 1000000 >> "$out"
{timed_out}  i=$((i + 1))
done
if ! grep -q "^@@$n " "$out"; then
  printf '@@%s build-failed\n' "$n" > "$out"
  head -c 4000 /tmp/tdd-acceptance/err >> "$out"
fi
"""


class JavaScriptDriver(PackDriver):
    """Runs a generated module, once per case, beside the model's code."""

    source = _TEMPLATE
    flavour: NodeFlavour = JAVASCRIPT_FLAVOUR
    """The language on Node the cases' code is in (how node runs it)."""

    def prepare(
        self, files: Mapping[str, bytes], cases: Sequence[Case], calls: CallMap, nonce: str
    ) -> Prepared:
        """The model's code files, a package.json of the tool's and the generated driver."""
        rendered = render_calls(calls, cases, js_literal, transcribes=True)
        arms = "\n".join(
            f"    case {i}:\n      return ({call});" for i, call in enumerate(rendered)
        )
        source = (
            self.source.read_text().replace("/*SETUP*/", calls.setup).replace("/*CASES*/", arms)
        )
        shipped = {
            path: data
            for path, data in files.items()
            if path.endswith(self.language.source_suffixes)
            and not self.language.is_test_path(path)
            and not self.language.is_runner_config(path)
            and not PurePosixPath(path).parts[0].startswith(".")
        }
        shipped["package.json"] = b'{"private": true, "type": "module"}\n'
        module = self.flavour.module
        shipped[f"{DRIVER_DIR}/driver{module}"] = source.encode()
        # The console a test file's process has (text to stderr), loaded before the code:
        # the report's stdout carries nothing the code wrote.
        shipped[f"{DRIVER_DIR}/console.mjs"] = CONSOLE_MODULE.encode()
        limit = f"{calls.timeout_s:g}"
        script = (
            _SCRIPT.replace("{node}", self.flavour.node)
            .replace("{module}", module)
            .replace("{timed_out}", TIMED_OUT)
        )
        command = ("sh", "-c", script, "acceptance", nonce, str(len(cases)), limit)
        return Prepared(shipped, command, RESULTS)

    def read(
        self, data: bytes | None, nonce: str, cases: Sequence[Case]
    ) -> tuple[dict[str, Observed], str]:
        """Each case's framed line (see `read_framed`)."""
        observed, problem = read_framed(data, nonce, cases)
        if problem:
            text = (data or b"").decode("utf-8", "replace")
            errors = [line for line in text.splitlines() if _ERROR.match(line)]
            problem = "the code did not import: " + (errors[0] if errors else problem)[:300]
        return observed, problem


def js_literal(value: Any) -> str:
    """A JSON value as a JavaScript expression (JSON is one, maps included).

    Raises:
        UsageError: a float that is not finite.
    """
    if isinstance(value, float) and not math.isfinite(value):
        raise UsageError(f"{value} cannot be a JavaScript input")
    return json.dumps(value, ensure_ascii=False)
