"""Python's acceptance driver, host side: ships `python_driver.py` and the inputs, reads
the report file it writes."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tdd_sandbox.languages.driving import DRIVER_DIR, PackDriver, Prepared, implementation_files
from tdd_sandbox.languages.framing import observed_from
from tdd_sandbox.languages.scripting import unanswered
from tdd_sandbox.vocabulary.cases import CallMap, Case, Observed

_SOURCE = Path(__file__).with_name("sandbox_driver.py")
RESULTS = "/tmp/tdd-acceptance/results.json"


def _shipped(case: Case, calls: CallMap) -> Mapping[str, Any]:
    """A case's inputs as the box gets them: a script's without what its steps should do."""
    return unanswered(case.input) if case.property in calls.steps else case.input


class PythonDriver(PackDriver):
    """Imports the code once and performs each case in a forked child."""

    source = _SOURCE

    def prepare(
        self, files: Mapping[str, bytes], cases: Sequence[Case], calls: CallMap, nonce: str
    ) -> Prepared:
        """The code, the driver and `calls.json` (inputs only); `python3 -I` so no variable
        or site hook of the tree's reaches the interpreter."""
        calls_shipped: dict[str, str] = {}
        entries = []
        shipped_input: Mapping[str, Any]
        for case in cases:
            if case.id in calls.transcripts:  # its own statements, no input beside them
                key, shipped_input = f"#{case.id}", {}
                calls_shipped[key] = calls.transcripts[case.id]
            else:
                key, shipped_input = case.property, _shipped(case, calls)
                calls_shipped[key] = calls.calls[key]
            entries.append({"id": case.id, "property": key, "input": shipped_input})
        spec = {
            "setup": calls.setup,
            "calls": calls_shipped,
            "timeout_s": calls.timeout_s,
            "cases": entries,
        }
        shipped = {
            **implementation_files(self.language, files),
            f"{DRIVER_DIR}/driver.py": self.source.read_bytes(),
            f"{DRIVER_DIR}/calls.json": json.dumps(spec).encode(),
        }
        command = ("python3", "-I", "-B", f"/work/{DRIVER_DIR}/driver.py")
        return Prepared(shipped, command, RESULTS)

    def read(
        self, data: bytes | None, nonce: str, cases: Sequence[Case]
    ) -> tuple[dict[str, Observed], str]:
        """The driver's report file."""
        try:
            document = json.loads(data or b"")
        except ValueError:
            return {}, "the driver wrote no report (the code ended the process)"
        if not isinstance(document, dict):
            return {}, "the driver's report is malformed"
        if document.get("problem"):
            return {}, str(document["problem"])[:1000]
        reports = document.get("cases")
        if not isinstance(reports, dict):
            return {}, "the driver's report is malformed"
        return {str(k): observed_from(v) for k, v in reports.items()}, ""
