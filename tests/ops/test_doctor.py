"""`doctor`'s runtime line: a runc that predates the 2025 breakout fixes is a warning with
its fix, never a failure of the doctor."""

from __future__ import annotations

from typing import Any

from tdd_sandbox.ops import doctor


class _Engine:
    def __init__(self, runtime: str, version: str) -> None:
        self.runtime, self.runtime_version = runtime, version

    def info(self) -> dict[str, Any]:
        return {"DefaultRuntime": self.runtime, "KernelVersion": "6.1.0"}

    def version(self) -> dict[str, Any]:
        parts = [{"Name": self.runtime, "Version": self.runtime_version}]
        return {"Version": "27.5.1", "Components": parts}


def test_an_old_runc_is_a_warning_that_names_the_fix() -> None:
    check = doctor._runtime(_Engine("runc", "1.1.5+ds1"))  # type: ignore[arg-type]
    assert (check.ok, check.warn) == (True, True)
    assert "CVE-2025-31133" in check.detail
    assert "1.2.8" in check.fix


def test_a_fixed_runc_and_another_runtime_are_plain_ok() -> None:
    for engine in (_Engine("runc", "1.3.3"), _Engine("runsc", "release-20250512.0")):
        check = doctor._runtime(engine)  # type: ignore[arg-type]
        assert (check.ok, check.warn, check.fix) == (True, False, "")
