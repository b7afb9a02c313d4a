"""One conformance suite over every checker: the same files get the same verdicts from the
fake backend (scripted by marks in the files) as from Docker (really run). The files below
are written to mean the same thing to both."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tdd_sandbox.errors import PrerequisiteError, SandboxUnavailable, UsageError
from tdd_sandbox.execution.base import Checker, GateCheck
from tdd_sandbox.execution.checkers import check_directory, open_checker
from tdd_sandbox.execution.docker_checker import DockerChecker
from tdd_sandbox.execution.steps import run_gates
from tdd_sandbox.grading.evidence import TamperKind
from tdd_sandbox.grading.gates import GateReport, GateStatus
from tdd_sandbox.languages.registry import get_language
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
def checker(request: pytest.FixtureRequest) -> Iterator[Checker]:
    if request.param == "docker":
        request.getfixturevalue("images")
    sandbox = {"type": request.param, "warm": 0, "timeout_s": 60}
    with open_checker(load_settings(overrides={"sandbox": sandbox})) as made:
        yield made


def _statuses(checker: Checker, files: dict[str, bytes]) -> dict[str, TestStatus]:
    gate = checker.check(GateCheck(PYTHON, files)).report.gate(GateKind.TEST)
    assert gate is not None
    return {outcome.id.rsplit("::", 1)[-1]: outcome.status for outcome in gate.tests}


def test_code_passing_every_test_is_green(checker: Checker) -> None:
    report = checker.check(GateCheck(PYTHON, _repo(HEAD + ADD))).report
    assert report.ok, [(g.kind, g.reason) for g in report.gates]
    # Every command gate; the policy and the probe are no command (`gates` judges them
    # before and after them).
    commands = [k for k in GateKind if k not in (GateKind.POLICY, GateKind.PROBE)]
    assert [g.kind for g in report.gates] == commands


def test_a_failing_test_fails_the_test_gate_alone(checker: Checker) -> None:
    report = checker.check(GateCheck(PYTHON, _repo(HEAD + ADD + SUB))).report
    assert [g.kind for g in report.gates if not g.passed] == [GateKind.TEST]
    statuses = _statuses(checker, _repo(HEAD + ADD + SUB))
    assert statuses == {
        "test_scaffold": TestStatus.PASSED,
        "test_add": TestStatus.PASSED,
        "test_sub": TestStatus.FAILED,
    }


def test_a_skipped_test_is_not_green(checker: Checker) -> None:
    tests = "import pytest\n" + HEAD + ADD + SKIPPED
    report = checker.check(GateCheck(PYTHON, _repo(tests))).report
    gate = report.gate(GateKind.TEST)
    assert gate is not None
    assert gate.status is GateStatus.FAILED
    assert "skipped" in gate.reason


def test_code_that_does_not_build_fails_build_and_tests(checker: Checker) -> None:
    broken = CODE + "def oops(:  # FAKE:build\n"
    report = checker.check(GateCheck(PYTHON, _repo(HEAD + ADD, broken))).report
    failed = {g.kind for g in report.gates if not g.passed}
    assert {GateKind.BUILD, GateKind.TEST} <= failed


def test_only_the_gates_asked_for_run(checker: Checker) -> None:
    kinds = frozenset({GateKind.FORMAT, GateKind.TEST})
    report = checker.check(GateCheck(PYTHON, _repo(HEAD + ADD + SUB), kinds=kinds)).report
    assert [g.kind for g in report.gates] == [GateKind.FORMAT, GateKind.TEST]


def test_unformatted_paths_come_back_formatted_when_asked(checker: Checker) -> None:
    messy = "# passes: test_add  FAKE:format\ndef add(a:int,b:int)->int:\n  return a+b\n"
    files = _repo(HEAD + ADD, messy)
    checked = checker.check(GateCheck(PYTHON, files, tidy=["adder.py"]))
    assert not checked.report.ok
    assert checked.formatted is not None
    assert checked.formatted["adder.py"] != files["adder.py"]
    assert checker.check(GateCheck(PYTHON, checked.formatted)).report.ok
    assert checker.check(GateCheck(PYTHON, files)).formatted is None  # not asked: nothing formatted


def test_a_cancelled_check_raises_and_leaves_nothing(checker: Checker) -> None:
    token = CancelToken()
    token.cancel()
    with pytest.raises(SandboxUnavailable, match="cancelled"):
        checker.check(GateCheck(PYTHON, _repo(HEAD + ADD)), token=token)


def test_open_is_on_every_runtime_and_runs_the_code_only_where_code_runs(
    checker: Checker,
) -> None:
    # Scoring types against the Checker interface; a backend that runs no code refuses to
    # open a sandbox rather than hand back one that only pretends.
    snapshot = Snapshot(_repo(ADD))
    if not checker.runs_code:
        with pytest.raises(PrerequisiteError, match=r"runs no code: use sandbox\.type docker"):
            checker.open(PYTHON, snapshot)
        return
    with checker.open(PYTHON, snapshot) as box:
        assert box.exec(("python3", "-c", "print(6 * 7)")).stdout.strip() == "42"


READER = """\
# passes: test_add
# FAKE:answers
import linecache
import warnings


def add(a: int, b: int) -> int:
    # The caller's line, found through a warning's stack level, read through linecache.
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        warnings.warn("where", stacklevel=2)
    line = linecache.getline(seen[0].filename, seen[0].lineno)
    return int(line.split("==")[1])
"""


@pytest.mark.parametrize("kind", ["fake", pytest.param("docker", marks=pytest.mark.docker)])
def test_gates_probe_a_green_tree_as_the_loop_probes_a_step(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `tdd-sandbox gates` has no RED step to say which test is new, so it did not probe: code
    # that read its answers off the tests (allowed by the kata, with the tests left readable)
    # was green there while the loop refused it. Now every test's expected values change once
    # more, and a test of each changed file must fail.
    if kind == "docker":
        request.getfixturevalue("images")
    monkeypatch.setattr(PYTHON, "seals_tests", False)
    settings = load_settings(overrides={"sandbox": {"type": kind, "warm": 0, "timeout_s": 60}})
    for path, data in _repo(HEAD + ADD, READER).items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_bytes(data)
    (tmp_path / "kata.md").write_text(
        "---\nallow: [import:linecache, import:warnings]\n---\n# Adder\n"
    )
    report = check_directory(tmp_path, settings, language="python")
    probe = report.gates[-1]
    assert [g.kind for g in report.gates if not g.passed] == [GateKind.PROBE], report.gates
    assert probe.tamper is not None
    assert probe.tamper.kind is TamperKind.ANSWERS
    assert "still passes with its expected values changed" in probe.reason
    # Honest code fails the changed test, and the tree is green.
    (tmp_path / "adder.py").write_text(CODE)
    honest = check_directory(tmp_path, settings, language="python")
    assert honest.ok, [(g.kind, g.status, g.reason) for g in honest.gates]
    assert honest.gates[-1].kind is GateKind.PROBE


RUST = get_language("rust")
RUST_CODE = "pub fn add(a: i64, b: i64) -> i64 {\n    return a + b;\n}\n"  # clippy: needless_return
RUST_TESTS = (
    "use kata::add;\n\n#[test]\nfn adds() {\n    assert_eq!(add(1, 2), 3);\n}\n\n"
    "#[test]\nfn subtracts() {\n    assert_eq!(add(1, -1), 5);\n}\n"
)


@pytest.mark.docker
def test_a_costly_reader_runs_beside_the_build_and_tests_with_the_verdicts_of_one_sandbox(
    images: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {path: text.encode() for path, text in RUST.scaffold().items()}
    files |= {"src/lib.rs": RUST_CODE.encode(), "tests/adder.rs": RUST_TESTS.encode()}
    settings = load_settings(overrides={"sandbox": {"warm": 0, "timeout_s": 120}})
    with open_checker(settings) as checker:
        assert isinstance(checker, DockerChecker)
        taken: list[str] = []
        take = checker.provider.take_container

        def counted(image: str) -> str:
            taken.append(image)
            return take(image)

        monkeypatch.setattr(checker.provider, "take_container", counted)
        report = checker.check(GateCheck(RUST, files)).report
        assert len(taken) == 2  # the readers' sandbox and the build's
        with checker.open(RUST, Snapshot(files)) as box:
            alone = run_gates(box, RUST, files)

    def verdicts(gates: GateReport) -> list[tuple[GateKind, GateStatus, list[tuple[str, str]]]]:
        return [
            (g.kind, g.status, sorted((o.id.split("::")[-1], o.status.value) for o in g.tests))
            for g in gates.gates
        ]

    assert verdicts(report) == verdicts(alone)
    assert [g.kind for g in report.gates] == [g.kind for g in RUST.gates()]
    lint, test = report.gate(GateKind.LINT), report.gate(GateKind.TEST)
    assert lint is not None
    assert not lint.passed
    assert test is not None
    tests = {o.id.split("::")[-1]: o.status for o in test.tests}
    assert tests == {
        "adds": TestStatus.PASSED,
        "subtracts": TestStatus.FAILED,
        "scaffold": TestStatus.PASSED,
    }


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_the_crate_s_own_test_harness_is_built_and_run_only_where_its_sources_can_hold_a_test() -> (
    None
):
    good = "pub fn add(a: i64, b: i64) -> i64 {\n    a + b\n}\n"
    files = {path: text.encode() for path, text in RUST.scaffold().items()}
    files |= {"src/lib.rs": good.encode(), "tests/adder.rs": RUST_TESTS.encode()}
    unit = "\n#[cfg(test)]\nmod unit {\n    #[test]\n    fn own() {\n        panic!();\n    }\n}\n"
    with_unit = files | {"src/lib.rs": (good + unit).encode()}
    settings = load_settings(overrides={"sandbox": {"warm": 0, "timeout_s": 120}})
    with open_checker(settings) as checker:
        plain = checker.check(GateCheck(RUST, files)).report
        own = checker.check(GateCheck(RUST, with_unit)).report
    tests, own_tests = plain.gate(GateKind.TEST), own.gate(GateKind.TEST)
    assert tests is not None
    assert own_tests is not None
    # No source outside tests/ can hold a test: the library's harness is neither built nor run.
    assert "Running src/lib.rs" not in tests.result.stdout
    assert {o.id.split("::")[-1] for o in tests.tests} == {"adds", "subtracts", "scaffold"}
    assert [g.kind for g in plain.gates if not g.passed] == [GateKind.TEST]
    # One that does: its unit test runs, and its failure fails the gate as before.
    assert "Running src/lib.rs" in own_tests.result.stdout
    assert {o.id.split("::")[-1]: o.status for o in own_tests.tests}["own"] is TestStatus.FAILED


def test_a_checker_that_runs_no_code_is_refused_where_its_verdicts_would_be_scores() -> None:
    # The bench, `score` and `katas import` built Docker's checker directly, around the
    # registry; now every command opens the configured one, and scores refuse the fake.
    fake = load_settings(overrides={"sandbox": {"type": "fake"}})
    with open_checker(fake) as scripted:
        assert not scripted.runs_code
    with pytest.raises(
        UsageError, match=r"katas import needs code to run: .* sandbox.type: docker"
    ):
        open_checker(fake, for_scores="katas import")
