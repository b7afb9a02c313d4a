"""A long board's sittings: stopped as Ctrl-C stops it, whatever sends the signal, with
the bench it runs given time to record its running job; and begun again from the board
published last, on any machine.

A board of real models runs for hours on a small machine, over several sittings; each
sitting publishes what finished, and the next goes on from there.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from tdd_sandbox.vocabulary.files import write_atomic


def stopped(signum: int, frame: object) -> None:
    """SIGTERM (and SIGHUP) unwind as Ctrl-C does: the bench running is stopped as a signal
    stops it (its running job recorded, to resume), and the models' servers go with the
    board's `ExitStack`. Killed outright, the board left three servers holding their ports."""
    raise KeyboardInterrupt


def run_stoppably(command: list[str]) -> int:
    """`command` run to its end; stopped with the board, it gets SIGTERM and time to end."""
    with subprocess.Popen(command) as child:
        try:
            return child.wait()
        except BaseException:
            child.terminate()
            try:
                child.wait(timeout=120)
            except subprocess.TimeoutExpired:
                child.kill()
            raise


def seed(published: Path, work: Path) -> int:
    """The jobs of the board published at `published` put back, each into its language's
    run under `work`, where none is there, so that `--resume` reuses them: a sitting on a
    fresh machine (or a fresh clone) goes on from the committed board rather than from
    nothing. Returns how many were put back. `--resume` still checks each against the kata
    and settings of now, and reruns the interrupted."""
    results = published / "results.jsonl"
    if not results.is_file():
        return 0
    count = 0
    for line in results.read_text(encoding="utf-8").splitlines():
        result = json.loads(line)
        job = work / "runs" / result["language"] / "jobs" / result["id"]
        if (job / "result.json").exists():
            continue  # this machine's own run is newer than the published one
        write_atomic(job / "result.json", json.dumps(result, indent=2, sort_keys=True))
        transcript = published / "jobs" / result["id"] / "transcript.jsonl"
        if transcript.is_file():
            shutil.copy2(transcript, job / transcript.name)
        count += 1
    return count
