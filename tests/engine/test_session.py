"""End to end: a scripted model on a real socket, real git repos, the real Docker sandbox."""

from __future__ import annotations

import json
from pathlib import Path

import docker
import pytest

from tdd_sandbox.execution.steps import run_gates, with_sealable_tests
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.repo.scaffolding import init_repo
from tdd_sandbox.sandbox.docker_provider import DockerSandboxProvider
from tdd_sandbox.sandbox.snapshot import Snapshot
from tdd_sandbox.settings import SandboxSettings
from tests.conftest import assert_no_containers
from tests.helpers.cheats import CHEATS
from tests.helpers.fake_llm import Answer, done, no_change, plan
from tests.helpers.git import git
from tests.helpers.katas import PY_IMPLS, PY_TEST_HEAD, fizzbuzz_script, python_test_file
from tests.helpers.runs import run_scripted

pytestmark = [pytest.mark.docker, pytest.mark.usefixtures("images")]

TEST_FILE = "tests/test_fizzbuzz.py"


def _first_cycle(
    tester: list[Answer], implementer: list[Answer], refactorer: list[Answer] | None = None
) -> dict[str, list[Answer]]:
    return {
        "tester": tester,
        "implementer": implementer,
        "refactorer": refactorer if refactorer is not None else [no_change()],
    }


GOOD_TEST = plan((TEST_FILE, python_test_file(1)), message="test(fizzbuzz): one")
GOOD_IMPL = plan(("fizzbuzz.py", PY_IMPLS[0]), message="feat(fizzbuzz): one")


def test_python_kata_completes_and_every_commit_on_main_is_green(
    tmp_path: Path, docker_client: docker.DockerClient, images: dict[str, str]
) -> None:
    repo = tmp_path / "kata"
    summary, fake = run_scripted(repo, "python", fizzbuzz_script("python"))
    assert summary.status == "completed"
    assert summary.cycles == 4
    assert len(summary.commits) == 5
    assert summary.tokens["total"] > 0
    log = git(repo, "log", "--format=%s").splitlines()
    assert log[0] == "refactor(fizzbuzz): one expression"
    assert log[-1].startswith("chore(kata): scaffold")
    assert git(repo, "status", "--porcelain") == ""
    # Every request names the role's model and carries the kata and the failing test.
    implementer = [r for r in fake.requests if r["model"] == "implementer"]
    assert "FizzBuzz" in implementer[0]["messages"][1]["content"]
    assert "test_one" in implementer[0]["messages"][1]["content"]
    # Check out every commit of main and run all its gates: each one is green.
    python = get_language("python")
    settings = SandboxSettings(warm=0)
    with DockerSandboxProvider(settings, run_id="pytest-main", client=docker_client) as provider:
        for sha in git(repo, "rev-list", "HEAD").split():
            git(repo, "checkout", "-q", sha)
            snapshot = Snapshot.from_directory(repo)
            with provider.open(images["python"], with_sealable_tests(python, snapshot)) as box:
                report = run_gates(box, python, snapshot.files)
            assert report.ok, (sha, [(g.kind, g.reason) for g in report.gates])
    assert_no_containers(docker_client, "pytest-main")
    records = list((repo / ".tdd" / "runs").glob("*/steps/*.json"))
    assert len(records) >= 12
    assert (repo / ".tdd" / "latest.json").exists()
    assert ".tdd" not in git(repo, "ls-files")


@pytest.mark.parametrize(("name", "code", "refactored"), [
    ("go", "kata.go", 'word += "Fizz"'),
    ("javascript", "kata.js", "return word || String(n);"),
    ("typescript", "kata.ts", "return word || String(n);"),
    ("cpp", "kata.hpp", "return word.empty() ? std::to_string(n) : word;"),
    ("java", "src/Kata.java", "return word.isEmpty() ? Integer.toString(n) : word;"),
])  # fmt: skip
def test_a_kata_completes_and_every_commit_on_main_is_green(
    docker_client: docker.DockerClient,
    images: dict[str, str],
    tmp_path: Path,
    name: str,
    code: str,
    refactored: str,
) -> None:
    repo = tmp_path / "kata"
    summary, _ = run_scripted(repo, name, fizzbuzz_script(name))
    assert summary.status == "completed", summary.reason
    assert len(summary.commits) == 5
    assert refactored in (repo / code).read_text()
    language = get_language(name)
    with DockerSandboxProvider(SandboxSettings(warm=0), run_id="pytest-every-commit",
                               client=docker_client) as provider:  # fmt: skip
        for sha in git(repo, "rev-list", "HEAD").split():
            git(repo, "checkout", "-q", sha)
            snapshot = Snapshot.from_directory(repo)
            with provider.open(images[name], with_sealable_tests(language, snapshot)) as box:
                report = run_gates(box, language, snapshot.files)
            assert report.ok, (sha, [(g.kind, g.reason) for g in report.gates])
    assert_no_containers(docker_client, "pytest-every-commit")


def test_rust_kata_completes(tmp_path: Path) -> None:
    repo = tmp_path / "kata"
    summary, _ = run_scripted(repo, "rust", fizzbuzz_script("rust"))
    assert summary.status == "completed", summary.reason
    assert len(summary.commits) == 5
    lib = (repo / "src" / "lib.rs").read_text()
    assert "match (n % 3, n % 5)" in lib


def test_a_run_continues_from_the_repository_state(tmp_path: Path) -> None:
    repo = tmp_path / "kata"
    script = fizzbuzz_script("python")
    first, _ = run_scripted(repo, "python", script, cycles=2)
    assert first.status == "max_cycles"
    assert len(first.commits) == 2
    rest = {role: answers[2:] for role, answers in fizzbuzz_script("python").items()}
    second, _ = run_scripted(repo, "python", rest)
    assert second.status == "completed", second.reason
    assert "TDD-Cycle: 4" in git(repo, "log", "-1", "--format=%B", "HEAD~1")


def test_bad_model_output_is_retried_with_feedback(tmp_path: Path) -> None:
    script = _first_cycle(
        tester=[
            Answer(text="I think we should test one"),
            Answer(text='{"plan": 1}'),
            GOOD_TEST,
            done(),
        ],
        implementer=[GOOD_IMPL],
    )
    summary, fake = run_scripted(tmp_path / "kata", "python", script)
    assert summary.status == "completed", summary.reason
    tester = [r for r in fake.requests if r["model"] == "tester"]
    # `auto` asks for whole files: prose holds none, and JSON of the wrong shape is read as
    # JSON and refused by the schema.
    assert "no file found: write tests/test_fizzbuzz.py" in tester[1]["messages"][-1]["content"]
    assert "EditPlan schema" in tester[2]["messages"][-1]["content"]


def test_path_attacks_are_refused_and_nothing_is_written(tmp_path: Path) -> None:
    repo = tmp_path / "kata"
    attacks = [
        plan(("../escaped.py", "x = 1\n"), (TEST_FILE, python_test_file(1))),
        plan((".git/hooks/pre-commit", "#!/bin/sh\ntouch /tmp/pwned\n")),
        plan(("/tmp/absolute.py", "x = 1\n")),
    ]
    script = _first_cycle(
        tester=[*attacks[:2], GOOD_TEST, done()], implementer=[attacks[2], GOOD_IMPL]
    )
    summary, fake = run_scripted(repo, "python", script, max_attempts_per_agent=3)
    assert summary.status == "completed", summary.reason
    assert not (tmp_path / "escaped.py").exists()
    assert not (repo / ".git" / "hooks" / "pre-commit").exists()
    assert not Path("/tmp/absolute.py").exists()
    implementer = [r for r in fake.requests if r["model"] == "implementer"]
    assert "is absolute" in implementer[1]["messages"][-1]["content"]


def test_an_overshooting_tester_is_told_and_retries(tmp_path: Path) -> None:
    trivial = 'def test_trivial() -> None:\n    assert str(1) == "1"\n'
    script = _first_cycle(
        tester=[plan((TEST_FILE, trivial)), GOOD_TEST, done()], implementer=[GOOD_IMPL]
    )
    summary, fake = run_scripted(tmp_path / "kata", "python", script)
    assert summary.status == "completed", summary.reason
    tester = [r for r in fake.requests if r["model"] == "tester"]
    assert "overshoot" in tester[1]["messages"][-1]["content"]


def test_an_implementer_that_edits_tests_is_refused(tmp_path: Path) -> None:
    cheat = plan((TEST_FILE, "def test_one() -> None:\n    pass\n"), ("fizzbuzz.py", PY_IMPLS[0]))
    script = _first_cycle(tester=[GOOD_TEST, done()], implementer=[cheat, GOOD_IMPL])
    repo = tmp_path / "kata"
    summary, fake = run_scripted(repo, "python", script)
    assert summary.status == "completed", summary.reason
    assert (repo / TEST_FILE).read_text() == python_test_file(1)
    implementer = [r for r in fake.requests if r["model"] == "implementer"]
    assert "may not change test files" in implementer[1]["messages"][-1]["content"]


def test_a_refactor_that_breaks_tests_is_reverted(tmp_path: Path) -> None:
    broken = plan(("fizzbuzz.py", 'def fizzbuzz(n: int) -> str:\n    return "?"\n'))
    script = _first_cycle(
        tester=[GOOD_TEST, done()], implementer=[GOOD_IMPL], refactorer=[broken, broken, broken]
    )
    repo = tmp_path / "kata"
    summary, _ = run_scripted(repo, "python", script)
    assert summary.status == "completed", summary.reason
    assert len(summary.commits) == 1  # the feature landed, the refactor did not
    assert (repo / "fizzbuzz.py").read_text() == PY_IMPLS[0]


def test_a_429_storm_is_ridden_out(tmp_path: Path) -> None:
    storm = [Answer(status=429, headers={"retry-after": "0"}) for _ in range(2)]
    script = _first_cycle(tester=[*storm, GOOD_TEST, done()], implementer=[*storm, GOOD_IMPL])
    summary, _ = run_scripted(tmp_path / "kata", "python", script)
    assert summary.status == "completed", summary.reason


def test_an_endpoint_that_is_down_ends_the_run_as_an_error(tmp_path: Path) -> None:
    script = _first_cycle(tester=[GOOD_TEST], implementer=[Answer(status=503)] * 5)
    repo = tmp_path / "kata"
    summary, _ = run_scripted(repo, "python", script)
    assert summary.status == "error"
    assert "HTTP 503" in summary.reason
    assert git(repo, "status", "--porcelain") == ""  # nothing half-written


def test_a_stuck_implementer_gets_a_smaller_test_then_the_run_stops_stuck(tmp_path: Path) -> None:
    wrong = plan(("fizzbuzz.py", 'def fizzbuzz(n: int) -> str:\n    return "no"\n'))
    script = _first_cycle(tester=[GOOD_TEST, GOOD_TEST], implementer=[wrong] * 4)
    summary, fake = run_scripted(tmp_path / "kata", "python", script, max_attempts_per_agent=2)
    assert summary.status == "stuck"
    assert "implementer is stuck" in summary.reason
    tester = [r for r in fake.requests if r["model"] == "tester"]
    assert "Write a smaller, simpler test" in tester[1]["messages"][-1]["content"]


def test_a_test_copied_into_the_implementation_is_refused(tmp_path: Path) -> None:
    copied = plan(
        (
            "fizzbuzz.py",
            PY_IMPLS[0] + '\n\ndef test_one() -> None:\n    assert fizzbuzz(1) == "1"\n',
        )
    )
    script = _first_cycle(tester=[GOOD_TEST, done()], implementer=[copied, GOOD_IMPL])
    summary, fake = run_scripted(tmp_path / "kata", "python", script)
    assert summary.status == "completed", summary.reason
    implementer = [r for r in fake.requests if r["model"] == "implementer"]
    assert "holds test code" in implementer[1]["messages"][-1]["content"]
    kinds = [e.get("kind") for e in _events(tmp_path / "kata") if e["event"] == "rejected"]
    assert kinds == ["test_in_code"]


def test_done_before_any_kata_test_is_refused(tmp_path: Path) -> None:
    script = _first_cycle(tester=[done(), GOOD_TEST, done()], implementer=[GOOD_IMPL])
    summary, fake = run_scripted(tmp_path / "kata", "python", script)
    assert summary.status == "completed", summary.reason
    assert summary.cycles == 1
    tester = [r for r in fake.requests if r["model"] == "tester"]
    assert "done before any test of the kata" in tester[1]["messages"][-1]["content"]


MESSY_TEST = "from fizzbuzz import fizzbuzz\ndef test_one()->None:\n  assert fizzbuzz(1)=='1'\n"
MESSY_IMPL = "def fizzbuzz(n:int)->str:\n  return '1'\n"


def test_unformatted_files_are_formatted_in_the_sandbox_and_land_formatted(
    tmp_path: Path,
) -> None:
    script = _first_cycle(
        tester=[plan((TEST_FILE, MESSY_TEST)), done()],
        implementer=[plan(("fizzbuzz.py", MESSY_IMPL))],
    )
    repo = tmp_path / "kata"
    summary, _ = run_scripted(repo, "python", script)
    assert summary.status == "completed", summary.reason
    assert (repo / TEST_FILE).read_text() == python_test_file(1)
    assert (repo / "fizzbuzz.py").read_text() == 'def fizzbuzz(n: int) -> str:\n    return "1"\n'
    formatted = [e["paths"] for e in _events(repo) if e["event"] == "formatted"]
    assert formatted == [[TEST_FILE], ["fizzbuzz.py"]]


def test_a_refactoring_that_only_changes_layout_lands_nothing(tmp_path: Path) -> None:
    relaid = PY_IMPLS[0].replace(": int", ":int").replace("    ", "  ")
    assert relaid != PY_IMPLS[0]
    script = _first_cycle(
        tester=[GOOD_TEST, done()], implementer=[GOOD_IMPL],
        refactorer=[plan(("fizzbuzz.py", relaid))],
    )  # fmt: skip
    repo = tmp_path / "kata"
    summary, _ = run_scripted(repo, "python", script)
    assert summary.status == "completed", summary.reason
    assert len(summary.commits) == 1  # the cycle's: no empty refactor commit
    assert (repo / "fizzbuzz.py").read_text() == PY_IMPLS[0]


def test_with_autoformat_off_unformatted_test_code_is_refused(tmp_path: Path) -> None:
    script = _first_cycle(tester=[plan((TEST_FILE, MESSY_TEST)), GOOD_TEST, done()],
                          implementer=[GOOD_IMPL])  # fmt: skip
    summary, fake = run_scripted(tmp_path / "kata", "python", script, autoformat=False)
    assert summary.status == "completed", summary.reason
    tester = [r for r in fake.requests if r["model"] == "tester"]
    assert "the test code is not formatted" in tester[1]["messages"][-1]["content"]


def test_tests_red_for_their_own_fault_are_refused_with_the_cause(tmp_path: Path) -> None:
    no_import = plan((TEST_FILE, python_test_file(1).removeprefix(PY_TEST_HEAD).lstrip()))
    with_argument = plan(
        (
            TEST_FILE,
            PY_TEST_HEAD + '\n\ndef test_one(n: int) -> None:\n    assert fizzbuzz(n) == "1"\n',
        )
    )
    prose = plan((TEST_FILE, "The test should check that 1 gives 1.\n"))
    script = _first_cycle(
        tester=[no_import, with_argument, prose, GOOD_TEST, done()], implementer=[GOOD_IMPL]
    )
    summary, fake = run_scripted(tmp_path / "kata", "python", script, max_attempts_per_agent=4)
    assert summary.status == "completed", summary.reason
    tester = [r["messages"][-1]["content"] for r in fake.requests if r["model"] == "tester"]
    assert "'fizzbuzz' is never imported" in tester[1]
    assert "argument 'n' that pytest cannot supply" in tester[2]
    # Prose does not parse: the judge reads every file before it runs and says why, in its
    # parser's words (a file it cannot read is never skipped: see grading/policy.py).
    assert "cannot read this: invalid syntax" in tester[3]
    kinds = [e.get("kind") for e in _events(tmp_path / "kata") if e["event"] == "rejected"]
    assert kinds == ["test_mistake", "test_mistake", "unreadable"]


def _events(repo: Path) -> list[dict[str, object]]:
    logs = sorted((repo / ".tdd" / "runs").glob("*/log.jsonl"))
    return [json.loads(line) for line in logs[-1].read_text().splitlines()]


IN_LOOP_CHEATS = {c.name: c for c in CHEATS if c.language == "python" and "driver" not in c.name}


@pytest.mark.parametrize(
    "name", ["patch pytest at import", "always-equal str", "atexit rewrites the results"]
)
def test_an_implementer_that_forges_green_is_refused(tmp_path: Path, name: str) -> None:
    # Attack (#10): code that makes the red test pass without implementing anything: it
    # patches the runner at import, returns a value equal to anything, or rewrites the results
    # after the run. Before the policy, each of these landed as the cycle's green commit.
    cheat = plan(("fizzbuzz.py", IN_LOOP_CHEATS[name].files["fizzbuzz.py"]))
    script = _first_cycle(tester=[GOOD_TEST, done()], implementer=[cheat, GOOD_IMPL])
    repo = tmp_path / "kata"
    summary, fake = run_scripted(repo, "python", script)
    assert summary.status == "completed", summary.reason
    assert (repo / "fizzbuzz.py").read_text() == PY_IMPLS[0]
    implementer = [r for r in fake.requests if r["model"] == "implementer"]
    assert "refused before running" in implementer[1]["messages"][-1]["content"]
    steps = [json.loads(p.read_text()) for p in (repo / ".tdd" / "runs").rglob("*green*.json")]
    assert "policy" in {step.get("kind") for step in steps}


def test_an_edit_through_a_committed_symlink_is_a_rejected_attempt(tmp_path: Path) -> None:
    # The user's repository holds a symlink; a model's edit of that path must come back as
    # feedback (and write nothing outside), never end the run as an error.
    outside = tmp_path / "outside.py"
    outside.write_text("kept = True\n")
    repo = init_repo(tmp_path / "kata", get_language("python"))
    (repo / "fizzbuzz.py").symlink_to(outside)
    git(repo, "add", "fizzbuzz.py")
    git(repo, "-c", "user.name=u", "-c", "user.email=u@x", "commit", "-qm", "chore: link")
    summary, fake = run_scripted(
        repo, "python", _first_cycle(tester=[GOOD_TEST, GOOD_TEST], implementer=[GOOD_IMPL] * 6)
    )
    assert summary.status == "stuck", summary.reason
    assert outside.read_text() == "kept = True\n"
    implementer = [r for r in fake.requests if r["model"] == "implementer"]
    assert "symlink" in implementer[1]["messages"][-1]["content"]


def test_a_go_test_whose_own_vet_finding_shows_in_green_goes_back_to_the_tester(
    tmp_path: Path,
) -> None:
    # `%d` of a string: go vet says so only once FizzBuzz exists, as a type-check error
    # stops its analysers before. GREEN was then a lint gate no implementer could clear.
    from tests.helpers.katas import GO_IMPLS, STEPS

    steps = STEPS["go"]
    good = steps.test_file(1)
    wrong_verb = good.replace("= %q, want %q", "= %d, want %q")
    assert wrong_verb != good
    script = _first_cycle(
        tester=[plan((steps.test_path, wrong_verb)), plan((steps.test_path, good)), done()],
        implementer=[plan((steps.code_path, GO_IMPLS[0]))] * 2,
    )
    summary, fake = run_scripted(tmp_path / "kata", "go", script, max_attempts_per_agent=3)
    assert summary.status == "completed", summary.reason
    implementer = [r for r in fake.requests if r["model"] == "implementer"]
    assert len(implementer) == 2
    tester = [r["messages"][-1]["content"] for r in fake.requests if r["model"] == "tester"]
    assert "cannot pass as written" in tester[1]
    assert "fizzbuzz_test.go" in tester[1]
    kinds = [e.get("kind") for e in _events(tmp_path / "kata") if e["event"] == "rejected"]
    assert kinds == ["test_mistake"]
