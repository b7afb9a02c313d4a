"""`status` reads a run back, and the repository's last commit through git that runs nothing
the repository configures."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tdd_sandbox.errors import UsageError
from tdd_sandbox.ops.status import read_status
from tdd_sandbox.vocabulary.files import TDD_DIR
from tests.helpers.git import git


def with_run(repo: Path, run_id: str = "20261126-000000-abcdef") -> Path:
    """`repo` holding a run that has started one cycle (as the journal writes it)."""
    run = repo / TDD_DIR / "runs" / run_id
    run.mkdir(parents=True)
    (run / "log.jsonl").write_text(json.dumps({"event": "cycle", "cycle": 1}) + "\n")
    (repo / TDD_DIR / "latest.json").write_text(json.dumps({"run_id": run_id}))
    return repo


def commit(repo: Path, message: str) -> None:
    (repo / "a.py").write_text(message)
    git(repo, "add", "a.py")
    git(repo, "-c", "user.name=u", "-c", "user.email=u@x", "commit", "-q", "-m", message)


def signed(repo: Path) -> None:
    """HEAD replaced by a copy carrying a signature: reading its log with `showSignature`
    would run the configured signature program on it."""
    raw = git(repo, "cat-file", "commit", "HEAD")
    headers, _, message = raw.partition("\n\n")
    forged = f"{headers}\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n -----END PGP SIGNATURE-----"
    made = subprocess.run(
        ["git", "-C", str(repo), "hash-object", "-t", "commit", "-w", "--stdin"],
        input=f"{forged}\n\n{message}", capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    git(repo, "update-ref", "HEAD", made)


def test_the_last_commit_is_the_first_line_of_head_s_message(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q")
    commit(tmp_path, "feat: first\n\nbody")
    commit(tmp_path, "feat: second line one\nline two of the subject\n\nTDD-Run: x")
    info = read_status(with_run(tmp_path))
    assert info["last_commit"] == "feat: second line one"
    assert info["cycle"] == 1


HOLDER = """
import sys, time
from pathlib import Path
from tdd_sandbox.repo.hardened import HardenedRepo
from tdd_sandbox.repo.lock import hold_lock
with hold_lock(HardenedRepo(Path(sys.argv[1])), sys.argv[2]):
    print("held", flush=True)
    time.sleep(60)
"""


def test_a_run_is_running_while_its_process_lives_and_stopped_once_killed(
    tmp_path: Path,
) -> None:
    # A run killed with -9 (or whose process died with the machine) writes no end: status
    # said `running` for ever. Its process held the repository's lock, which the kernel
    # releases as it dies.
    git(tmp_path, "init", "-q")
    run_id = "20261206-000000-abcdef"
    with_run(tmp_path, run_id)
    owner = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(tmp_path), run_id], stdout=subprocess.PIPE, text=True
    )
    try:
        assert owner.stdout is not None
        assert owner.stdout.readline().strip() == "held"
        assert read_status(tmp_path)["state"] == "running"
        os.kill(owner.pid, signal.SIGKILL)
        owner.wait(timeout=10)
        info = read_status(tmp_path)
        assert info["state"] == "stopped"
        assert "ended without finishing" in info["reason"]
        assert "phase" not in info
    finally:
        owner.kill()


def test_a_run_that_failed_before_its_end_says_so_and_why(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q")
    run_id = "20261206-000000-fedcba"
    with_run(tmp_path, run_id)
    (tmp_path / TDD_DIR / "state.json").write_text(json.dumps(
        {"run_id": run_id, "state": "failed", "reason": "Docker is not reachable: start it"}
    ))  # fmt: skip
    info = read_status(tmp_path)
    assert (info["state"], info["reason"]) == ("failed", "Docker is not reachable: start it")


def test_an_ended_run_counts_the_cycles_it_did_as_the_run_said_them(tmp_path: Path) -> None:
    # The run said "4 cycles"; status said "cycle 5", the one it had started.
    git(tmp_path, "init", "-q")
    run = with_run(tmp_path) / TDD_DIR / "runs" / "20261126-000000-abcdef"
    (run / "log.jsonl").write_text(
        "".join(json.dumps({"event": "cycle", "cycle": n}) + "\n" for n in range(1, 6))
    )
    (run / "summary.json").write_text(json.dumps({
        "status": "max_cycles", "cycles": 4, "commits": [], "tokens": {"total": 0}, "cost": 0,
    }))  # fmt: skip
    info = read_status(tmp_path)
    assert (info["state"], info["cycle"]) == ("max_cycles", 4)


def test_a_repository_without_a_commit_has_no_last_commit(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q")
    assert "last_commit" not in read_status(with_run(tmp_path))


def test_what_the_repository_configures_never_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Attack: config that makes git run a program when it reads history (a signature check,
    # fsmonitor, hooks), and host variables that point git at another repository.
    repo = tmp_path / "k"
    repo.mkdir()
    git(repo, "init", "-q")
    commit(repo, "feat: real")
    signed(repo)
    marker = tmp_path / "pwned"
    program = tmp_path / "program"
    program.write_text(f"#!/bin/sh\ntouch {marker}\n")
    program.chmod(0o755)
    for key, value in (
        ("log.showSignature", "true"),
        ("gpg.program", str(program)),
        ("core.fsmonitor", str(program)),
        ("core.hooksPath", str(tmp_path)),
    ):
        git(repo, "config", key, value)
    other = tmp_path / "other"
    other.mkdir()
    git(other, "init", "-q")
    commit(other, "feat: elsewhere")
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    info = read_status(with_run(repo))
    assert info["last_commit"] == "feat: real"
    assert not marker.exists()


def test_a_folder_inside_another_repository_is_not_read_as_it(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q")
    commit(tmp_path, "feat: the outer repository")
    inner = tmp_path / "inner"
    inner.mkdir()
    with pytest.raises(UsageError, match=r"inner is not a git repository: run `tdd-sandbox init"):
        read_status(with_run(inner))


def test_a_broken_git_folder_inside_another_repository_never_reads_that_one(
    tmp_path: Path,
) -> None:
    git(tmp_path, "init", "-q")
    commit(tmp_path, "feat: the outer repository")
    inner = tmp_path / "inner"
    (inner / ".git").mkdir(parents=True)  # not a repository git can use
    assert "last_commit" not in read_status(with_run(inner))


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to give the repository away")
def test_a_repository_git_will_not_read_still_shows_its_run(tmp_path: Path) -> None:
    # Another user's repository: git refuses it ("dubious ownership"). The run is still
    # there to read; the repository is not "not a git repository".
    repo = tmp_path / "k"
    repo.mkdir()
    git(repo, "init", "-q")
    commit(repo, "feat: theirs")
    with_run(repo)
    subprocess.run(["chown", "-R", "12345:12345", str(repo)], check=True)
    info = read_status(repo)
    assert info["cycle"] == 1
    assert "last_commit" not in info


def test_a_folder_without_a_run_says_how_to_start_one(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    with pytest.raises(UsageError, match="no run found"):
        read_status(tmp_path)
