from __future__ import annotations

from tdd_sandbox.sandbox.batch import Run, batch_results
from tdd_sandbox.sandbox.stream import CappedText, Ending
from tdd_sandbox.settings import SandboxSettings


def _batch(extra_err: str = "") -> Run:
    out, err = CappedText(1 << 20), CappedText(1 << 20)
    out.add(b"\n@@n begin 0\nfirst\n\n@@n begin 1\nsecond\n")
    err.add(
        b"\n@@n begin 0\n\n@@n.0 rc=0 oom=0 cs=10\n\n@@n begin 1\n\n@@n.1 rc=1 oom=0 cs=20\n"
        b"\n@@n done\n" + extra_err.encode()
    )
    return Run(Ending.EOF, out, err, 0, 0.5)


def test_a_batch_is_taken_command_by_command() -> None:
    results = batch_results(_batch(), "n", 2, SandboxSettings())
    assert results is not None
    assert [(r.exit_code, r.stdout.strip()) for r in results] == [(0, "first"), (1, "second")]


def test_a_batch_whose_namespaces_saw_an_oom_kill_is_not_taken() -> None:
    # The count covers the whole exec: only each command run alone says whose it was.
    assert batch_results(_batch("\n@@n ns oom=1\n"), "n", 2, SandboxSettings()) is None
    assert batch_results(_batch("\n@@n ns oom=0\n"), "n", 2, SandboxSettings()) is not None
