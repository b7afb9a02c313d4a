"""The `diff` format (aider's SEARCH/REPLACE): exact matches first, then white space ignored
around each line; a block that matches nowhere or twice is a classified failure."""

from __future__ import annotations

import pytest

from tdd_sandbox.agents.agent import sample
from tdd_sandbox.languages.registry import LANGUAGES
from tdd_sandbox.llm.chat import ChatReply
from tdd_sandbox.llm.formats import Ask, EditFormat, PlanError, Sample, get_format
from tdd_sandbox.llm.stream import REPEATING
from tdd_sandbox.protocol import EditPlan
from tdd_sandbox.vocabulary.roles import Role

SOURCE = """def fizzbuzz(n: int) -> str:
    if n % 3 == 0:
        return "Fizz"
    return str(n)
"""


def _parse(text: str, files: dict[str, str] | None = None, target: str = "fizzbuzz.py") -> EditPlan:
    given = {
        p: c.encode() for p, c in (files if files is not None else {"fizzbuzz.py": SOURCE}).items()
    }
    return get_format(EditFormat.DIFF).parse(
        ChatReply(text=text), Ask(target, given, fence="python")
    )


def _block(search: str, replace: str, path: str = "fizzbuzz.py") -> str:
    return f"{path}\n```python\n<<<<<<< SEARCH\n{search}=======\n{replace}>>>>>>> REPLACE\n```\n"


def test_an_exact_block_replaces_its_lines() -> None:
    text = _block(
        "    return str(n)\n", '    if n % 5 == 0:\n        return "Buzz"\n    return str(n)\n'
    )
    [edit] = _parse("Here you go:\n" + text).edits
    assert edit.path == "fizzbuzz.py"
    assert edit.content == SOURCE.replace(
        "    return str(n)\n", '    if n % 5 == 0:\n        return "Buzz"\n    return str(n)\n'
    )


def test_blocks_apply_in_order_each_to_what_the_last_left() -> None:
    text = _block("    return str(n)\n", "    return f'{n}'\n") + _block(
        "    return f'{n}'\n", "    return repr(n)\n"
    )
    [edit] = _parse(text).edits
    assert edit.content.endswith("    return repr(n)\n")


def test_white_space_is_forgiven_and_the_file_keeps_its_indentation() -> None:
    # The model dropped the body's indentation and left trailing spaces.
    text = _block(
        'if n % 3 == 0:  \n    return "Fizz"\n', 'if n % 15 == 0:\n    return "FizzBuzz"\n'
    )
    [edit] = _parse(text).edits
    assert '    if n % 15 == 0:\n        return "FizzBuzz"\n' in edit.content
    assert "return str(n)" in edit.content


def test_an_empty_search_creates_a_file_and_a_missing_path_goes_to_the_target() -> None:
    created = _parse(_block("", "def f() -> int:\n    return 1\n", path="other.py"))
    assert [(e.path, e.content) for e in created.edits] == [
        ("other.py", "def f() -> int:\n    return 1\n")
    ]
    anonymous = (
        "```\n<<<<<<< SEARCH\n    return str(n)\n=======\n    return 'x'\n>>>>>>> REPLACE\n```"
    )
    assert _parse(anonymous).edits[0].path == "fizzbuzz.py"
    # An empty file (a stub) is filled by an empty SEARCH too.
    assert _parse(_block("", "x = 1\n"), {"fizzbuzz.py": "\n"}).edits[0].content == "x = 1\n"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        (_block("    return 42\n", "    return 0\n"), "no_match"),
        (_block("", "x = 1\n"), "no_match"),  # an empty SEARCH on a file with code in it
        (_block("x\n", "y\n", path="missing.py"), "no_match"),
        ("```\n<<<<<<< SEARCH\n    return str(n)\n=======\n    return 'x'\n", "invalid"),
        ("```\n<<<<<<< SEARCH\n    return str(n)\n    return 'x'\n>>>>>>> REPLACE\n```", "invalid"),
        ("I would add a Buzz branch.", "no_files"),
        ("", "empty"),
    ],
)
def test_failures_are_classified_with_a_reason(text: str, kind: str) -> None:
    with pytest.raises(PlanError) as failed:
        _parse(text)
    assert failed.value.kind == kind
    assert str(failed.value)


def test_a_block_that_matches_twice_is_refused_exactly_or_loosely() -> None:
    twice = "def a() -> int:\n    return 1\n\n\ndef b() -> int:\n    return 1\n"
    for search in ("    return 1\n", "return 1\n"):
        with pytest.raises(PlanError, match="more than one place") as failed:
            _parse(_block(search, "    return 2\n"), {"fizzbuzz.py": twice})
        assert failed.value.kind == "many_matches"


def test_a_block_cut_off_at_the_token_limit_is_truncated() -> None:
    cut = "```\n<<<<<<< SEARCH\n    return str(n)\n=======\n    return 'x'\n"
    ask = Ask("fizzbuzz.py", {"fizzbuzz.py": SOURCE.encode()})
    with pytest.raises(PlanError) as failed:
        get_format(EditFormat.DIFF).parse(ChatReply(text=cut, finish_reason="length"), ask)
    assert failed.value.kind == "truncated"


def test_a_block_stopped_for_repeating_itself_is_refused_as_a_loop_not_as_cut() -> None:
    # Refused as cut by the token limit, it would count towards the bench's advice to raise
    # llm.max_tokens, which would only have bought more of the loop.
    loop = "```\n<<<<<<< SEARCH\n" + "    return str(n)\n    # the number\n    pass\n" * 40
    ask = Ask("fizzbuzz.py", {"fizzbuzz.py": SOURCE.encode()})
    with pytest.raises(PlanError, match="repeated itself until it was stopped") as failed:
        get_format(EditFormat.DIFF).parse(ChatReply(text=loop, finish_reason=REPEATING), ask)
    assert failed.value.kind == "repetition"


SAMPLE = Sample("`twice(n)`, which doubles a number", "twice.py",
                "def twice(n: int) -> int:\n    return 2 * n\n")  # fmt: skip
STUB = {"acronym.py": b"def abbreviate(words):\n    pass\n"}


def test_the_example_is_a_worked_block_with_no_hole_to_copy() -> None:
    # The example left a hole (`<the new lines>`) under the file's own first lines: the 0.5B
    # coder answered 21 of 32 tries with it copied as it stood (the reach board in `diff`),
    # as it had copied `whole`'s hole before that example became a worked answer.
    ask = Ask("acronym.py", STUB, fence="python", sample=SAMPLE)
    shown = get_format(EditFormat.DIFF).instructions(ask)
    assert "<" + "the new lines>" not in shown
    assert (
        "twice.py\n```python\n<<<<<<< SEARCH\ndef twice(n: int) -> int:\n    return 2 * n\n"
        in shown
    )
    assert (
        "=======\ndef twice(number: int) -> int:\n    return 2 * number\n>>>>>>> REPLACE" in shown
    )
    assert "acronym.py" in shown  # the file to edit is still named
    # The worked block answered back as it stands is the example copied, not an edit.
    echoed = shown[shown.index("twice.py\n```") :].split("```\n", 2)
    with pytest.raises(PlanError) as copied:
        get_format(EditFormat.DIFF).parse(ChatReply(text="```\n".join(echoed[:2]) + "```\n"), ask)
    assert copied.value.kind == "echo"


@pytest.mark.parametrize("name", sorted(LANGUAGES))
def test_every_pack_s_sample_makes_a_worked_example(name: str) -> None:
    language = LANGUAGES[name]
    ask = Ask("kata", {"kata": b"stub\n"}, fence=name, sample=sample(Role.IMPLEMENTER, language))
    shown = get_format(EditFormat.DIFF).instructions(ask)
    assert "<" + "the new lines>" not in shown
    assert f"{language.sample[0]}\n```{name}\n<<<<<<< SEARCH\n" in shown
