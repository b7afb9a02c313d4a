from __future__ import annotations

from dataclasses import replace

from tdd_sandbox.agents.agent import sample
from tdd_sandbox.agents.context import (
    Exchange,
    Situation,
    clip_gate_output,
    kata_for,
    relevant_files,
    user_prompt,
)
from tdd_sandbox.agents.prompts import system_prompt
from tdd_sandbox.languages.registry import LANGUAGES, get_language
from tdd_sandbox.languages.rust.reader import TOOLCHAIN
from tdd_sandbox.llm.formats import Ask, EditFormat
from tdd_sandbox.vocabulary.roles import Role

PYTHON = get_language("python")


def _situation(**extra: object) -> Situation:
    files = {
        "kata.md": b"# K",
        "tdd.yaml": b"x",
        "pyproject.toml": b"[project]",
        "fizz.py": b"def fizz(): ...",
        "tests/test_fizz.py": b"def test_f(): ...",
        "tests/test_other.py": b"def test_o(): ...",
    }
    return Situation(
        kata_text="# K\nDo it.", kata_path="kata.md", files=files, language=PYTHON,
        task="Write the next failing test.", **extra,  # type: ignore[arg-type]
    )  # fmt: skip


def test_gate_output_is_clipped_head_and_tail() -> None:
    text = "a" * 3000 + "b" * 2000
    clipped = clip_gate_output(text)
    assert clipped == "a" * 2500 + "\n...\n" + "b" * 1000
    assert clip_gate_output("short") == "short"


def test_files_are_ordered_by_role_and_focus_first() -> None:
    situation = _situation(focus=["tests/test_other.py"])
    implementer = relevant_files(situation, Role.IMPLEMENTER)
    assert implementer[0] == "tests/test_other.py"
    assert implementer.index("fizz.py") < implementer.index("tests/test_fizz.py")
    assert "kata.md" not in implementer
    assert "tdd.yaml" not in implementer
    tester = relevant_files(_situation(), Role.TESTER)
    assert tester.index("tests/test_fizz.py") < tester.index("fizz.py")


def test_budget_lists_what_does_not_fit() -> None:
    prompt = user_prompt(_situation(), Role.TESTER, budget_chars=60)
    assert "Other files (not shown)" in prompt
    full = user_prompt(_situation(previous_error="boom"), Role.TESTER, budget_chars=10_000)
    assert "## fizz.py" in full
    assert "# Your previous attempt failed\nboom" in full
    assert full.rstrip().endswith("Write the next failing test.")


def test_system_prompts_name_the_protocol_and_rules() -> None:
    prompt = system_prompt(
        Role.IMPLEMENTER, get_language("rust"), EditFormat.JSON, Ask("src/lib.rs")
    )
    assert "Never change test files" in prompt
    assert '"path": "src/lib.rs"' in prompt
    assert "(`kata` in a new repository)" in prompt


def test_each_prompt_names_the_toolchain_its_image_has() -> None:
    # The Rust note said rustc 1.63 after the image moved to Debian 13's 1.85 (#11): the
    # note now lives in the plug-in, beside the image it describes (tests/images holds the
    # version to the built image's rustc).
    dockerfile = (get_language("rust").image / "Dockerfile").read_text()
    assert "trixie-backports" in dockerfile
    rustc = "rustc {}.{}".format(*TOOLCHAIN)
    assert rustc in system_prompt(Role.TESTER, get_language("rust"), EditFormat.WHOLE, Ask())
    assert "Python 3.13" in system_prompt(
        Role.TESTER, get_language("python"), EditFormat.WHOLE, Ask()
    )


def test_a_kata_shows_a_model_only_the_lines_of_its_own_language() -> None:
    kata = (
        "# FizzBuzz\n- Numbers divisible by 3 give Fizz.\n## Constraints\n"
        "- Python: a module `fizzbuzz.py`.\n- Rust: `pub fn fizzbuzz`.\n- C++: `kata.hpp`.\n"
        "- Java: `src/Kata.java`.\n* JavaScript: `kata.js`.\nRust: prose that names Rust stays.\n"
    )
    shown = kata_for(kata, PYTHON, LANGUAGES.values())
    assert "- Python: a module `fizzbuzz.py`." in shown
    assert "divisible by 3" in shown
    assert "Rust: prose that names Rust stays." in shown
    for other in ("pub fn", "kata.hpp", "Kata.java", "kata.js"):
        assert other not in shown
    assert "- C++: `kata.hpp`." in kata_for(kata, get_language("cpp"), LANGUAGES.values())


def test_a_role_working_alone_sees_its_files_and_none_of_the_loops_rules() -> None:
    alone = _situation(focus=["fizz.py", "tests/test_fizz.py"], solo=True)
    assert relevant_files(alone, Role.IMPLEMENTER) == ["fizz.py", "tests/test_fizz.py"]
    prompt = system_prompt(
        Role.IMPLEMENTER, PYTHON, EditFormat.WHOLE, Ask("fizz.py", fence="python"), solo=True
    )
    assert prompt.startswith("You are an expert Python programmer.")
    for loop_rule in ("IMPLEMENTER", "ruff", "mypy", "gate", "commit", "DONE"):
        assert loop_rule not in prompt
    assert "fizz.py\n```python\n" in prompt
    # Nothing to show is not announced to a role working alone ("(no files yet)").
    empty = Situation(
        kata_text="# K", kata_path="kata.md", files={}, language=PYTHON, task="Write f.py.",
        solo=True,
    )  # fmt: skip
    assert "no files yet" not in user_prompt(empty, Role.IMPLEMENTER, budget_chars=1000)


def test_the_example_is_a_worked_answer_in_the_language_a_test_for_the_tester() -> None:
    for language in LANGUAGES.values():
        for role in Role:
            worked = sample(role, language)
            prompt = system_prompt(
                role, language, EditFormat.WHOLE, Ask("target", fence=language.name, sample=worked)
            )
            assert f"{worked.path}\n```{language.name}\n{worked.code.rstrip()}\n```" in prompt
            assert language.is_test_path(worked.path) == (role is Role.TESTER), (language, role)
            assert "<all of" not in prompt  # no hole to fill


def test_only_the_loops_tester_is_told_how_to_finish() -> None:
    ask = Ask("tests/test_fizz.py", fence="python")
    tester = system_prompt(Role.TESTER, PYTHON, EditFormat.WHOLE, replace(ask, may_finish=True))
    assert "DONE" in tester
    for role in (Role.IMPLEMENTER, Role.REFACTORER):
        assert "DONE" not in system_prompt(role, PYTHON, EditFormat.WHOLE, ask)


def test_a_follow_up_says_what_failed_and_shows_the_code_as_it_now_stands() -> None:
    earlier = (Exchange("the first ask", "the first answer"),)
    situation = _situation(
        focus=["fizz.py", "tests/test_fizz.py"], previous_error="1 of 3 tests passed.",
        earlier=earlier,
    )  # fmt: skip
    prompt = user_prompt(situation, Role.IMPLEMENTER, budget_chars=10_000)
    assert prompt.startswith("# Your previous attempt failed\n1 of 3 tests passed.")
    assert "## fizz.py (as it is now)\n```python\ndef fizz(): ...\n```" in prompt
    # The kata and the tests are in the conversation already: not told twice.
    assert "# Kata" not in prompt
    assert "test_fizz" not in prompt
    assert prompt.endswith("# Task\nWrite the next failing test.")


def test_the_first_ask_opens_with_the_task_not_with_the_kata() -> None:
    # Opening with `# Kata` and its title, the 0.5B coder went on with the question inside
    # its code block (issue #44); the task first, then the story, then the task again.
    prompt = user_prompt(_situation(), Role.TESTER, budget_chars=10_000)
    assert prompt.startswith("Write the next failing test.\n\n# Kata\n# K\nDo it.")
    assert prompt.endswith("# Task\nWrite the next failing test.")
