"""The engine's rules, phase by phase, on the fake checker: no Docker, a scripted model on a
real socket, real git repositories. The same rules end to end on Docker: test_session.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tdd_sandbox.engine.events import Committed, Event
from tdd_sandbox.engine.journal import latest_run
from tdd_sandbox.engine.phases import RunSummary
from tdd_sandbox.engine.session import run_kata
from tdd_sandbox.errors import Interrupted
from tdd_sandbox.languages.registry import LANGUAGES, get_language
from tdd_sandbox.repo.hardened import HardenedRepo
from tdd_sandbox.repo.scaffolding import init_repo
from tdd_sandbox.repo.worktrees import create_worktree
from tdd_sandbox.vocabulary.cancel import CancelToken
from tests.helpers.fake_llm import Answer, FakeLLM, done, no_change, plan
from tests.helpers.git import git
from tests.helpers.katas import (
    PY_TEST_HEAD,
    PY_TESTS,
    covering,
    fake_fizzbuzz_script,
    python_test_file,
)
from tests.helpers.runs import KATAS, run_scripted, scripted_settings

TEST_FILE = "tests/test_fizzbuzz.py"
GOOD_TEST = plan((TEST_FILE, python_test_file(1)), message="test(fizzbuzz): one")
GOOD_IMPL = plan(("fizzbuzz.py", covering(1)), message="feat(fizzbuzz): one")
WRONG = plan(("fizzbuzz.py", 'def fizzbuzz(n: int) -> str:\n    return "no"\n'))


def _run(
    repo: Path,
    tester: list[Answer],
    implementer: list[Answer],
    refactorer: list[Answer] | None = None,
    **overrides: Any,
) -> tuple[RunSummary, FakeLLM]:
    script = {
        "tester": tester,
        "implementer": implementer,
        "refactorer": refactorer if refactorer is not None else [no_change()] * 8,
    }
    sandbox = {"type": "fake", **overrides.pop("sandbox", {})}
    return run_scripted(repo, "python", script, sandbox=sandbox, **overrides)


def _asked(fake: FakeLLM, role: str) -> list[str]:
    """What each request of `role` said last (the task and the feedback)."""
    return [r["messages"][-1]["content"] for r in fake.requests if r["model"] == role]


def _events(repo: Path, name: str) -> list[dict[str, Any]]:
    run = latest_run(repo)  # run ids of the same second do not sort by time
    assert run is not None
    events = [json.loads(line) for line in (run / "log.jsonl").read_text().splitlines()]
    return [event for event in events if event["event"] == name]


def _kinds(repo: Path) -> list[str]:
    return [str(event.get("kind")) for event in _events(repo, "rejected")]


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_whole_kata_in_each_language(tmp_path: Path, language: str) -> None:
    repo = tmp_path / "kata"
    script = fake_fizzbuzz_script(language)
    summary, _ = run_scripted(repo, language, script, sandbox={"type": "fake"})
    assert (summary.status, summary.cycles, len(summary.commits)) == ("completed", 4, 5)
    assert len(_events(repo, "red")) == 4


def test_a_kata_completes_with_one_green_commit_per_cycle(tmp_path: Path) -> None:
    repo = tmp_path / "kata"
    tester = [plan((TEST_FILE, python_test_file(n))) for n in range(1, 5)] + [done()]
    implementer = [plan(("fizzbuzz.py", covering(n))) for n in range(1, 5)]
    refactor = plan(("fizzbuzz.py", covering(4) + "# tidied\n"), message="refactor(fizzbuzz): x")
    summary, _ = _run(repo, tester, implementer, [no_change()] * 3 + [refactor])
    assert (summary.status, summary.cycles, len(summary.commits)) == ("completed", 4, 5)
    subjects = git(repo, "log", "--format=%s").splitlines()
    assert subjects[0] == "refactor(fizzbuzz): x"
    assert git(repo, "status", "--porcelain") == ""
    # A commit made on scripted verdicts says so.
    assert "scripted by the fake checker" in git(repo, "log", "-1", "--format=%B")
    assert [e["test"] for e in _events(repo, "red")] == [
        f"{TEST_FILE}::test_{name}" for name, _ in PY_TESTS
    ]
    # The journal says what ran the sandboxes: here the fake checker, which runs no code.
    assert [e["versions"] for e in _events(repo, "start")] == [{"sandbox": "fake"}]


# -- red ---------------------------------------------------------------------------------------


def test_done_before_any_kata_test_is_refused(tmp_path: Path) -> None:
    summary, fake = _run(tmp_path / "kata", [done(), GOOD_TEST, done()], [GOOD_IMPL])
    assert (summary.status, summary.cycles) == ("completed", 1)
    assert "done before any test of the kata" in _asked(fake, "tester")[1]
    assert _kinds(tmp_path / "kata") == ["premature_done"]


def test_a_test_that_already_passes_is_an_overshoot(tmp_path: Path) -> None:
    repo = tmp_path / "kata"
    tester = [GOOD_TEST, plan((TEST_FILE, python_test_file(2))), done()]
    # The first implementation already names test_fizz: the second test passes at once.
    eager = plan(("fizzbuzz.py", covering(2)))
    summary, _ = _run(repo, tester, [eager], max_attempts_per_agent=1)
    assert summary.status == "stuck"
    assert "overshoot" in summary.reason
    assert _kinds(repo) == ["overshoot"]


ARGUMENT = PY_TEST_HEAD + '\n\ndef test_one(n: int) -> None:\n    assert fizzbuzz(n) == "1"\n'


@pytest.mark.parametrize(
    ("written", "said", "kind"),
    [
        (PY_TEST_HEAD, "no new test found", "no_new_test"),
        (python_test_file(2), "exactly one new test", "many_new_tests"),
        (ARGUMENT, "argument 'n' that pytest cannot supply", "test_mistake"),
    ],
)
def test_red_needs_exactly_one_new_test_failing_for_the_right_reason(
    tmp_path: Path, written: str, said: str, kind: str
) -> None:
    repo = tmp_path / "kata"
    summary, fake = _run(repo, [plan((TEST_FILE, written)), GOOD_TEST, done()], [GOOD_IMPL])
    assert summary.status == "completed", summary.reason
    assert said in _asked(fake, "tester")[1]
    assert _kinds(repo) == [kind]


def test_a_test_of_the_kata_in_a_module_the_kata_does_not_name_goes_back_to_the_tester(
    tmp_path: Path,
) -> None:
    # The 1.5B's tester imported `roman_numerals`, the kata names `roman`: the loop built a
    # correct converter there, green, and the acceptance suite found no `roman`: 0 of 12.
    repo = tmp_path / "kata"
    elsewhere = python_test_file(1).replace("from fizzbuzz import", "from fizz_buzz import")
    summary, fake = _run(repo, [plan((TEST_FILE, elsewhere)), GOOD_TEST, done()], [GOOD_IMPL])
    assert summary.status == "completed", summary.reason
    said = _asked(fake, "tester")[1]
    assert "the kata's fizzbuzz lives in the module fizzbuzz" in said
    assert "`from fizzbuzz import fizzbuzz`, not from fizz_buzz" in said
    assert _kinds(repo) == ["test_mistake"]


def test_a_red_that_removes_a_passing_test_is_refused(tmp_path: Path) -> None:
    repo = tmp_path / "kata"
    second = PY_TEST_HEAD + "\n\n" + PY_TESTS[1][1]  # test_one dropped, test_fizz added
    tester = [GOOD_TEST, plan((TEST_FILE, second)), plan((TEST_FILE, python_test_file(2)))]
    summary, fake = _run(repo, [*tester, done()], [GOOD_IMPL, plan(("fizzbuzz.py", covering(2)))])
    assert summary.status == "completed", summary.reason
    assert "removed or renamed" in _asked(fake, "tester")[2]
    assert _kinds(repo) == ["removed_test"]


def test_unformatted_code_is_formatted_before_it_lands(tmp_path: Path) -> None:
    repo = tmp_path / "kata"
    messy = plan(("fizzbuzz.py", covering(1) + "# FAKE:format\n"))
    summary, _ = _run(repo, [GOOD_TEST, done()], [messy])
    assert summary.status == "completed", summary.reason
    assert (repo / "fizzbuzz.py").read_text() == covering(1) + "# \n"
    assert [e["paths"] for e in _events(repo, "formatted")] == [["fizzbuzz.py"]]


def test_with_autoformat_off_unformatted_test_code_is_refused(tmp_path: Path) -> None:
    messy = plan((TEST_FILE, python_test_file(1) + "# FAKE:format\n"))
    summary, fake = _run(
        tmp_path / "kata", [messy, GOOD_TEST, done()], [GOOD_IMPL], autoformat=False
    )
    assert summary.status == "completed", summary.reason
    assert "the test code is not formatted" in _asked(fake, "tester")[1]


# -- green -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cheat", "said", "kind"),
    [
        (plan((TEST_FILE, "def test_one() -> None:\n    pass\n")), "may not change test",
         "permission"),
        (plan(("tdd.yaml", "sandbox: {}\n")), "no agent may write it", "protected"),
        (plan(("fizzbuzz.py", covering(1) + "\n\ndef test_x() -> None:\n    pass\n")),
         "holds test code", "test_in_code"),
        (plan(("fizzbuzz.py", covering(1) + "import builtins\nbuiltins.x = 1\n")),
         "refused before running", "policy"),
        (plan(("fizzbuzz.py", covering(1) + "# FAKE:tamper-sentinel\n")),
         "tampering suspected (sentinel)", "sentinel"),
        (plan(("fizzbuzz.py", covering(1) + "# FAKE:skip test_one\n")), "not green", "not_green"),
        (WRONG, "not green", "not_green"),
        (plan(), "changes nothing", "no_change"),
        (plan(("fizzbuzz.py", covering(1) + "# FAKE:answers\n")), "expected values changed",
         "answers"),
    ],
    ids=["edits-tests", "config", "test-in-code", "policy", "sentinel", "skip", "wrong", "nothing",
         "answers"],
)  # fmt: skip
def test_green_refuses_anything_but_the_code_passing_every_test(
    tmp_path: Path, cheat: Answer, said: str, kind: str
) -> None:
    repo = tmp_path / "kata"
    summary, fake = _run(repo, [GOOD_TEST, done()], [cheat, GOOD_IMPL])
    assert summary.status == "completed", summary.reason
    assert said in _asked(fake, "implementer")[1]
    assert _kinds(repo) == [kind]
    assert (repo / "fizzbuzz.py").read_text() == covering(1)
    assert (repo / TEST_FILE).read_text() == python_test_file(1)


def test_a_stuck_implementer_gets_a_smaller_test_then_the_run_stops_stuck(tmp_path: Path) -> None:
    repo = tmp_path / "kata"
    summary, fake = _run(repo, [GOOD_TEST, GOOD_TEST], [WRONG] * 4, max_attempts_per_agent=2)
    assert summary.status == "stuck"
    assert "implementer is stuck" in summary.reason
    assert "Write a smaller, simpler test" in _asked(fake, "tester")[1]
    assert len(_events(repo, "smaller-step")) == 1
    assert summary.commits == []
    assert git(repo, "status", "--porcelain") == ""


# -- refactor ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "broken",
    [
        WRONG,
        plan(("fizzbuzz.py", covering(1) + "# FAKE:lint\n")),
        plan(("fizzbuzz.py", covering(1) + "# FAKE:answers\n")),
    ],
    ids=["breaks-a-test", "breaks-a-gate", "answers-from-tests"],
)
def test_a_refactoring_that_breaks_anything_is_reverted(tmp_path: Path, broken: Answer) -> None:
    repo = tmp_path / "kata"
    summary, _ = _run(repo, [GOOD_TEST, done()], [GOOD_IMPL], [broken] * 3)
    assert summary.status == "completed", summary.reason
    assert len(summary.commits) == 1
    assert (repo / "fizzbuzz.py").read_text() == covering(1)
    assert len(_events(repo, "reverted")) == 1


def test_a_refactoring_that_changes_nothing_lands_nothing(tmp_path: Path) -> None:
    repo = tmp_path / "kata"
    summary, _ = _run(repo, [GOOD_TEST, done()], [GOOD_IMPL], [plan(("fizzbuzz.py", covering(1)))])
    assert (summary.status, len(summary.commits)) == ("completed", 1)
    assert _events(repo, "reverted") == []


@pytest.mark.parametrize("edit_format", ["whole", "diff"])
def test_a_refactorer_saying_in_prose_there_is_nothing_to_change_ends_the_phase_quietly(
    tmp_path: Path, edit_format: str
) -> None:
    # The 0.5B coder's own words as the refactorer, recorded in the loop: refused as "no file
    # found" on each of its three tries, every cycle, before the text formats knew a role may
    # leave the code as it is.
    repo = tmp_path / "kata"
    said = Answer(text="No changes are needed to the implementation of the `fizzbuzz` function.")
    roles = {role: {"model": f"custom:{role}", "edit_format": edit_format} for role in
             ("tester", "implementer", "refactorer")}  # fmt: skip
    summary, fake = _run(repo, [GOOD_TEST, done()], [GOOD_IMPL], [said] * 3, roles=roles)
    assert (summary.status, len(summary.commits)) == ("completed", 1)
    assert _kinds(repo) == []
    assert len([r for r in fake.requests if r["model"] == "refactorer"]) == 1
    system = next(r for r in fake.requests if r["model"] == "refactorer")["messages"][0]
    assert "answer only: NO CHANGES" in system["content"]


# -- waves, cancellation, interruption, resumption -----------------------------------------------


def _slow(answer: Answer, seconds: float) -> Answer:
    answer.delay_s = seconds
    return answer


def test_the_first_green_attempt_wins_and_the_others_are_cancelled(tmp_path: Path) -> None:
    repo = tmp_path / "kata"
    # Whichever attempt gets which: a slow green, a wrong one, a fast green.
    slow_green = _slow(plan(("fizzbuzz.py", covering(1) + "# slow\n")), 2.0)
    summary, _ = _run(
        repo, [GOOD_TEST, done()], [slow_green, WRONG, GOOD_IMPL], parallel=3,
        sandbox={"fake_gate_s": 0.1},
    )  # fmt: skip
    assert summary.status == "completed", summary.reason
    race = next(e for e in _events(repo, "race") if e["phase"] == "green")
    # The wrong attempt fails at its gate, or is cancelled first when the fast green's gate
    # ends before its own (both take 0.1 s: on a loaded machine either comes first).
    statuses = sorted(status for _, status, _ in race["results"])
    assert statuses in (["failed", "green", "lost"], ["green", "lost", "lost"])
    assert (repo / "fizzbuzz.py").read_text() == covering(1)  # the fast green's, not the slow
    assert git(repo, "worktree", "list").count("\n") == 1
    assert git(repo, "branch", "--list", "tdd/*") == ""


def test_a_wave_that_all_fails_starts_another_with_each_failure_fed_back(tmp_path: Path) -> None:
    summary, fake = _run(
        tmp_path / "kata", [GOOD_TEST, done()], [WRONG, WRONG, WRONG, GOOD_IMPL], parallel=2
    )
    assert summary.status == "completed", summary.reason
    asked = _asked(fake, "implementer")
    assert len(asked) == 4
    assert all("Your previous attempt failed" in text for text in asked[2:])
    # Each lane asks its own first ask again (whole files: `auto` on a short file), with its
    # own failure before the task and not its wrong answer.
    first, second = (
        [r["messages"] for r in fake.requests if r["model"] == "implementer"][i] for i in (0, 2)
    )
    assert [m["role"] for m in second] == ["system", "user"]
    story = first[1]["content"].rpartition("\n\n# Task\n")[0]
    assert second[1]["content"].startswith(story + "\n\n# Your previous attempt failed\n")
    assert json.dumps(WRONG.plan) not in second[1]["content"]


def test_head_that_is_not_green_is_refused_before_any_model_is_asked(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "kata", get_language("python"))
    (repo / "fizzbuzz.py").write_text("# FAKE:lint\n")
    git(repo, "add", "fizzbuzz.py")
    git(repo, "-c", "user.name=u", "-c", "user.email=u@x", "commit", "-qm", "chore: red")
    with pytest.raises(Exception, match="HEAD does not pass its own gates"):
        _run(repo, [GOOD_TEST], [GOOD_IMPL])


def test_a_run_after_a_crash_resumes_from_head(tmp_path: Path) -> None:
    repo = tmp_path / "kata"
    first, _ = _run(repo, [GOOD_TEST], [GOOD_IMPL], cycles=1)
    assert first.status == "max_cycles"
    # A crash leaves the state file saying "running" and a worktree of a racing attempt.
    state = repo / ".tdd" / "state.json"
    state.write_text(json.dumps({**json.loads(state.read_text()), "state": "running"}))
    hardened = HardenedRepo(repo)
    create_worktree(hardened, "20260101-000000-dead00", 1, "green", 1)
    hardened.close()
    second_test = plan((TEST_FILE, python_test_file(2)))
    second, _ = _run(repo, [second_test, done()], [plan(("fizzbuzz.py", covering(2)))])
    assert second.status == "completed", second.reason
    assert len(_events(repo, "resumed")) == 1
    assert git(repo, "worktree", "list").count("\n") == 1
    assert "TDD-Cycle: 2" in git(repo, "log", "-1", "--format=%B")


def test_a_stop_asked_for_between_phases_ends_the_run_interrupted_with_its_commits(
    tmp_path: Path,
) -> None:
    repo = tmp_path / "kata"
    script = {
        "tester": [GOOD_TEST, plan((TEST_FILE, python_test_file(2)))],
        "implementer": [GOOD_IMPL],
        "refactorer": [no_change()],
    }
    with FakeLLM(script) as fake:
        settings = scripted_settings(fake.base_url, "python", sandbox={"type": "fake"})
        # Cancelled once the first cycle's commit has landed: the run ends before its next phase.
        stop = CancelToken()

        def observe(event: Event) -> None:
            if isinstance(event, Committed):
                stop.cancel()

        with pytest.raises(Interrupted):
            run_kata(KATAS / "fizzbuzz" / "kata.md", settings, repo_dir=repo, stop=stop,
                     observer=observe)  # fmt: skip
    run = latest_run(repo)
    assert run is not None
    summary = json.loads((run / "summary.json").read_text())
    assert (summary["status"], len(summary["commits"])) == ("interrupted", 1)
    assert git(repo, "status", "--porcelain") == ""


def test_a_test_whose_own_lint_shows_only_in_green_goes_back_to_the_tester(
    tmp_path: Path,
) -> None:
    # Go's vet reads nothing past a name the code has not defined: the test's own finding
    # showed first in GREEN, where no implementer may touch a test; three waves, then stuck.
    repo = tmp_path / "kata"
    late = plan((TEST_FILE, python_test_file(1) + "# FAKE:late-lint\n"))
    summary, fake = _run(
        repo, [late, GOOD_TEST, done()], [GOOD_IMPL, GOOD_IMPL], max_attempts_per_agent=3
    )
    assert summary.status == "completed", summary.reason
    assert len(_asked(fake, "implementer")) == 2  # one wave each: another could not help
    again = _asked(fake, "tester")[1]
    assert "cannot pass as written" in again
    assert "FAKE001 a finding in the test itself" in again
    assert _kinds(repo) == ["test_mistake"]
    assert "late-lint" not in (repo / TEST_FILE).read_text()


def test_code_that_answers_from_its_caller_s_name_never_lands(tmp_path: Path) -> None:
    # A test's name can say its answer, and code can read its caller's name by routes no
    # list closes; a changed expected value fails it as it fails honest code. Run under
    # names that say nothing, it fails what it passed under its own.
    repo = tmp_path / "kata"
    reader = plan(("fizzbuzz.py", covering(1) + "# FAKE:reads-names\n"))
    summary, fake = _run(repo, [GOOD_TEST, done()], [reader, GOOD_IMPL])
    assert summary.status == "completed", summary.reason
    assert _kinds(repo) == ["answers"]
    assert "answers from the test's name" in _asked(fake, "implementer")[1]
    assert "reads-names" not in (repo / "fizzbuzz.py").read_text()
