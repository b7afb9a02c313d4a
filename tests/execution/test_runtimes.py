"""One conformance suite over every runtime: the same files get the same verdicts from the
fake backend (scripted by marks in the files) as from Docker (really run). The files below
are written to mean the same thing to both."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tdd_sandbox.errors import PrerequisiteError, SandboxUnavailable
from tdd_sandbox.execution.base import GateCheck, Runtime
from tdd_sandbox.execution.runtimes import make_runtime
from tdd_sandbox.grading.gates import GateStatus
from tdd_sandbox.languages import get_language
from tdd_sandbox.sandbox.snapshot import Snapshot
from tdd_sandbox.settings import load_settings
from tdd_sandbox.vocabulary.cancel import CancelToken
from tdd_sandbox.vocabulary.results import GateKind, TestStatus

PYTHON = get_language("python")
TESTS = "tests/test_adder.py"
HEAD = "from adder import add\n"
ADD = "\n\ndef test_add() -> None:\n    assert add(1, 2) == 3\n"
SUB = "\n\ndef test_sub() -> None:\n    assert add(1, -1) == 5\n"
SKIPPED = "\n\n@pytest.mark.skip  # FAKE:skip test_sub\ndef test_sub() -> None:\n    pass\n"
CODE = "# passes: test_add\ndef add(a: int, b: int) -> int:\n    return a + b\n"


def _repo(tests: str, code: str = CODE) -> dict[str, bytes]:
    files = {path: text.encode() for path, text in PYTHON.scaffold().items()}
    files[TESTS] = tests.encode()
    files["adder.py"] = code.encode()
    return files


@pytest.fixture(params=["fake", pytest.param("docker", marks=pytest.mark.docker)])
def runtime(request: pytest.FixtureRequest) -> Iterator[Runtime]:
    if request.param == "docker":
        request.getfixturevalue("images")
    sandbox = {"type": request.param, "warm": 0, "timeout_s": 60}
    with make_runtime(load_settings(overrides={"sandbox": sandbox})) as made:
        yield made


def _statuses(runtime: Runtime, files: dict[str, bytes]) -> dict[str, TestStatus]:
    gate = runtime.check(GateCheck(PYTHON, files)).report.gate(GateKind.TEST)
    assert gate is not None
    return {outcome.id.rsplit("::", 1)[-1]: outcome.status for outcome in gate.tests}


def test_code_passing_every_test_is_green(runtime: Runtime) -> None:
    report = runtime.check(GateCheck(PYTHON, _repo(HEAD + ADD))).report
    assert report.ok, [(g.kind, g.reason) for g in report.gates]
    # Every command gate; the policy is no command (`gates` judges it before them).
    assert [g.kind for g in report.gates] == [k for k in GateKind if k is not GateKind.POLICY]


def test_a_failing_test_fails_the_test_gate_alone(runtime: Runtime) -> None:
    report = runtime.check(GateCheck(PYTHON, _repo(HEAD + ADD + SUB))).report
    assert [g.kind for g in report.gates if not g.passed] == [GateKind.TEST]
    statuses = _statuses(runtime, _repo(HEAD + ADD + SUB))
    assert statuses == {
        "test_scaffold": TestStatus.PASSED,
        "test_add": TestStatus.PASSED,
        "test_sub": TestStatus.FAILED,
    }


def test_a_skipped_test_is_not_green(runtime: Runtime) -> None:
    tests = "import pytest\n" + HEAD + ADD + SKIPPED
    report = runtime.check(GateCheck(PYTHON, _repo(tests))).report
    gate = report.gate(GateKind.TEST)
    assert gate is not None
    assert gate.status is GateStatus.FAILED
    assert "skipped" in gate.reason


def test_code_that_does_not_build_fails_build_and_tests(runtime: Runtime) -> None:
    broken = CODE + "def oops(:  # FAKE:build\n"
    report = runtime.check(GateCheck(PYTHON, _repo(HEAD + ADD, broken))).report
    failed = {g.kind for g in report.gates if not g.passed}
    assert {GateKind.BUILD, GateKind.TEST} <= failed


def test_only_the_gates_asked_for_run(runtime: Runtime) -> None:
    kinds = frozenset({GateKind.FORMAT, GateKind.TEST})
    report = runtime.check(GateCheck(PYTHON, _repo(HEAD + ADD + SUB), kinds=kinds)).report
    assert [g.kind for g in report.gates] == [GateKind.FORMAT, GateKind.TEST]


def test_unformatted_paths_come_back_formatted_when_asked(runtime: Runtime) -> None:
    messy = "# passes: test_add  FAKE:format\ndef add(a:int,b:int)->int:\n  return a+b\n"
    files = _repo(HEAD + ADD, messy)
    checked = runtime.check(GateCheck(PYTHON, files, tidy=["adder.py"]))
    assert not checked.report.ok
    assert checked.formatted is not None
    assert checked.formatted["adder.py"] != files["adder.py"]
    assert runtime.check(GateCheck(PYTHON, checked.formatted)).report.ok
    assert runtime.check(GateCheck(PYTHON, files)).formatted is None  # not asked: nothing formatted


def test_a_cancelled_check_raises_and_leaves_nothing(runtime: Runtime) -> None:
    token = CancelToken()
    token.cancel()
    with pytest.raises(SandboxUnavailable, match="cancelled"):
        runtime.check(GateCheck(PYTHON, _repo(HEAD + ADD)), token=token)


def test_open_is_on_every_runtime_and_runs_the_code_only_where_code_runs(
    runtime: Runtime,
) -> None:
    # Scoring types against the Runtime interface; a backend that runs no code refuses to
    # open a sandbox rather than hand back one that only pretends.
    snapshot = Snapshot(_repo(ADD))
    if not runtime.runs_code:
        with pytest.raises(PrerequisiteError, match=r"runs no code: use sandbox\.type docker"):
            runtime.open(PYTHON, snapshot)
        return
    with runtime.open(PYTHON, snapshot) as box:
        assert box.exec(("python3", "-c", "print(6 * 7)")).stdout.strip() == "42"
