"""System prompts: short, because small local models have small context windows and follow
whatever they are shown, rules they cannot act on included.

The loop's roles are told the rules the loop enforces (one failing test; tests untouched; the
language's gates). A role working alone (bench implement and test modes) is judged by tests
only, so it is told only what it is to write. How to answer is the edit format's, shown as an
example the model fills in (`llm.formats`).
"""

from __future__ import annotations

from tdd_sandbox.languages.parts import Layout
from tdd_sandbox.llm.formats import Ask, EditFormat, get_format
from tdd_sandbox.vocabulary.roles import Role

ROLE_RULES = {
    Role.TESTER: """\
You are the TESTER in a strict test-driven development loop.
Write exactly ONE new test for the next small behaviour of the kata that no test covers yet.
- Change test files only. Never write implementation code.
- The new test must FAIL against the current code (a missing function failing to import or
  compile counts as failing).
- Keep every existing test as it is.""",
    Role.IMPLEMENTER: """\
You are the IMPLEMENTER in a strict test-driven development loop.
Make the failing test pass with the simplest code that could work.
- Never change test files or test-runner configuration.
- Every other test must still pass, and the code must pass every gate (format, lint, types).""",
    Role.REFACTORER: """\
You are the REFACTORER in a strict test-driven development loop.
Improve the structure of the implementation (names, duplication, clarity) without changing
what it does.
- Never change test files or test-runner configuration. Every test must still pass.""",
}

SOLO_RULES = {
    Role.TESTER: "You are an expert {title} programmer. Write thorough tests for the kata.",
    Role.IMPLEMENTER: (
        "You are an expert {title} programmer. Write the code that makes the kata's tests pass."
    ),
}


def system_prompt(
    role: Role, language: Layout, edit_format: EditFormat, ask: Ask, *, solo: bool = False
) -> str:
    """The system message for `role` working in `language`, answering in `edit_format` what
    `ask` asks for; `solo`: the role works alone on the kata (no loop, judged by tests)."""
    answer = get_format(edit_format).instructions(ask)
    if solo:
        return f"{SOLO_RULES[role].format(title=language.title)}\n\n{answer}"
    return f"{ROLE_RULES[role]}\n\n{language.prompt_note}\n\n{answer}"
