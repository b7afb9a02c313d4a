"""Edit formats and what real small models get wrong: each is a classified failure."""

from __future__ import annotations

import json

import pytest

from tdd_sandbox.languages.registry import LANGUAGES
from tdd_sandbox.llm.chat import ChatReply, ChatRequest
from tdd_sandbox.llm.client import OpenAIBackend
from tdd_sandbox.llm.endpoint import Endpoint
from tdd_sandbox.llm.formats import Ask, EditFormat, PlanError, Sample, get_format, repetitive
from tdd_sandbox.llm.structured import PlanAsker
from tdd_sandbox.protocol import EditPlan
from tests.helpers.fake_llm import Answer, FakeLLM, plan

FINISHER = Ask(may_finish=True)


def parse_whole(reply: ChatReply, target: str = "", *, may_finish: bool = True) -> EditPlan:
    return get_format(EditFormat.WHOLE).parse(reply, Ask(target=target, may_finish=may_finish))


def parse_json(reply: ChatReply, ask: Ask = FINISHER) -> EditPlan:
    return get_format(EditFormat.JSON).parse(reply, ask)


WHOLE = """PLAN: make one pass
fizzbuzz.py
```python
def fizzbuzz(n: int) -> str:
    return str(n)
```
**tests/helper.txt**
```
x
```
DELETE old.py
COMMIT: feat(fizzbuzz): one
"""


def test_whole_format_with_files_and_deletes() -> None:
    parsed = parse_whole(ChatReply(text=WHOLE))
    assert [(e.path, e.action) for e in parsed.edits] == [
        ("fizzbuzz.py", "upsert"), ("tests/helper.txt", "upsert"), ("old.py", "delete"),
    ]  # fmt: skip
    assert parsed.edits[0].content == "def fizzbuzz(n: int) -> str:\n    return str(n)\n"
    # The harness writes commit messages from what it verified: none is read from the model.
    assert parsed.commit_message == ""
    assert parsed.plan == "PLAN: make one pass"
    assert parse_whole(ChatReply(text="DONE")).done


def test_done_is_shown_and_taken_from_the_tester_alone() -> None:
    for fmt in (EditFormat.WHOLE, EditFormat.JSON, EditFormat.TOOL):
        shown = get_format(fmt).instructions(Ask("tests/test_f.py", may_finish=True))
        hidden = get_format(fmt).instructions(Ask("f.py"))
        assert "DONE" in shown or '"done": true' in shown
        assert "DONE" not in hidden
        assert '"done": true' not in hidden
    # An implementer that says done and writes nothing is told what to write (issue #44).
    said_done = '{"plan": "p", "edits": [], "commit_message": "", "done": true}'
    for fmt, text in ((EditFormat.WHOLE, "DONE"), (EditFormat.JSON, said_done)):
        with pytest.raises(PlanError, match=r"write f\.py") as refused:
            get_format(fmt).parse(ChatReply(text=text), Ask("f.py"))
        assert refused.value.kind == "no_change"
    # With edits, its "done" is dropped: the edits are what was asked.
    edit = {"path": "f.py", "action": "upsert", "content": "x = 1\n"}
    text = json.dumps({"plan": "p", "edits": [edit], "commit_message": "", "done": True})
    assert not parse_json(ChatReply(text=text), Ask("f.py")).done


def test_each_format_names_the_target_in_its_example() -> None:
    for fmt in (EditFormat.WHOLE, EditFormat.DIFF, EditFormat.JSON, EditFormat.TOOL):
        assert "roman.py" in get_format(fmt).instructions(Ask("roman.py", fence="python"))
    with pytest.raises(ValueError, match="no edit format"):
        get_format(EditFormat.AUTO)


def test_each_format_asks_for_every_file_to_write_as_its_instructions_do() -> None:
    files = {"roman.py": b"def roman(number):\n    pass\n", "numerals.py": b"\n"}
    for fmt in (EditFormat.WHOLE, EditFormat.DIFF, EditFormat.JSON, EditFormat.TOOL):
        asked = get_format(fmt).asks(["roman.py", "numerals.py"], files)
        assert "roman.py and numerals.py" in asked
        edits = "SEARCH" in get_format(fmt).instructions(Ask("roman.py", files, fence="python"))
        assert asked.startswith("Edit" if edits else "Write the complete files")
    # Nothing to quote yet: every format asks for the files whole.
    assert get_format(EditFormat.DIFF).asks(["roman.py"], {}) == (
        "Write the complete file roman.py."
    )


def test_an_echoed_example_is_classified() -> None:
    ask = Ask("fizzbuzz.py", fence="python")
    for fmt in (EditFormat.WHOLE, EditFormat.JSON, EditFormat.DIFF):
        example = get_format(fmt).instructions(ask)
        echoed = (
            example[example.index("fizzbuzz.py") :]
            if fmt is not EditFormat.JSON
            else (example.splitlines()[1])
        )
        with pytest.raises(PlanError) as copied:
            get_format(fmt).parse(ChatReply(text=echoed), ask)
        assert copied.value.kind == "echo", fmt


QUESTION = """# Kata
# Word Count

## Instructions

Count how often each word occurs in a phrase.
For example:

```python
def count(phrase):
    return {}
```

# Repository files
## word_count.py
```python
def count(phrase):
    pass
```

# Task
Write the complete file word_count.py."""


STUB = {"word_count.py": b"def count(phrase):\n    pass\n"}


def _file(content: str) -> str:
    return f"word_count.py\n```python\n{content}```\n"


def test_a_file_that_goes_on_with_the_question_is_an_echo_in_every_format() -> None:
    ask = Ask("word_count.py", STUB, question=QUESTION)
    copied = "# Kata\n# Word Count\n\n## Instructions\n\nCount how often each word occurs.\n"
    answers = {
        EditFormat.WHOLE: _file(copied),
        EditFormat.DIFF: _file(copied),
        EditFormat.JSON: json.dumps(
            {"plan": "", "edits": [{"path": "word_count.py", "action": "upsert",
             "content": copied}], "commit_message": "", "done": False}
        ),
    }  # fmt: skip
    for fmt, text in answers.items():
        with pytest.raises(PlanError, match="question's own text") as echoed:
            get_format(fmt).parse(ChatReply(text=text), ask)
        assert echoed.value.kind == "echo", fmt


@pytest.mark.parametrize(
    "opening",
    [
        "def count(phrase):\n    return {}\n\n\n# Word Count\n",  # the kata's own example
        "# Word Count\n# Count how often each word occurs in a phrase.\ndef count(phrase):\n",
        '"""Word Count\n\nCount how often each word occurs in a phrase.\nFor example:\n"""\n',
    ],
)
def test_a_file_that_quotes_the_kata_but_holds_code_is_judged(opening: str) -> None:
    ask = Ask("word_count.py", STUB, question=QUESTION)
    written = get_format(EditFormat.WHOLE).parse(ChatReply(text=_file(opening)), ask)
    assert written.edits[0].content == opening


SAMPLE = Sample("`twice(n)`", "twice.py", "def twice(n: int) -> int:\n    return 2 * n\n")


def test_the_whole_example_is_a_worked_answer_in_the_language() -> None:
    # A hole to fill (`<all of f.py>`) came back verbatim from the 0.5B coder on 6 of 12
    # imported exercises; a worked answer for another file, on none (issue #44).
    ask = Ask("roman.py", fence="python", sample=SAMPLE)
    for fmt in (EditFormat.WHOLE, EditFormat.DIFF):  # diff asks for a new file whole
        shown = get_format(fmt).instructions(ask)
        assert "twice.py\n```python\ndef twice(n: int) -> int:\n    return 2 * n\n```" in shown
        assert "<" not in shown
        assert "Write roman.py that way" in shown
        with pytest.raises(PlanError) as copied:
            get_format(fmt).parse(ChatReply(text=shown[shown.index("twice.py\n") :]), ask)
        assert copied.value.kind == "echo"
    # The worked file named for the target is the model's copying too.
    copied_code = f"roman.py\n```python\n{SAMPLE.code}```\n"
    with pytest.raises(PlanError, match="copied the example"):
        get_format(EditFormat.WHOLE).parse(ChatReply(text=copied_code), ask)


@pytest.mark.parametrize(
    ("first", "taken"),
    [
        ("list_ops.py", "list_ops.py"),  # the target
        ("**helpers.py**", "helpers.py"),  # named like the target
        ("tests/test_list_ops.py", "tests/test_list_ops.py"),  # a file there is
        ("list_ops.append", None),  # code: not a path the answer may mean
    ],
)
def test_a_path_on_the_first_line_inside_the_block_names_the_file(
    first: str, taken: str | None
) -> None:
    text = f"```python\n{first}\ndef append(a, b):\n    return a + b\n```\n"
    ask = Ask("list_ops.py", {"tests/test_list_ops.py": b""}, fence="python")
    edits = get_format(EditFormat.WHOLE).parse(ChatReply(text=text), ask).edits
    if taken is None:  # the lone block goes to the target, its first line kept
        assert [(e.path, e.content.split("\n", 1)[0]) for e in edits] == [("list_ops.py", first)]
    else:
        assert [(e.path, e.content) for e in edits] == [
            (taken, "def append(a, b):\n    return a + b\n")
        ]


def test_unfenced_code_after_the_target_path_is_the_file() -> None:
    text = "fizzbuzz.py\ndef fizzbuzz(n: int) -> str:\n    return str(n)\n"
    parsed = parse_whole(ChatReply(text=text), "fizzbuzz.py")
    assert parsed.edits[0].content == "def fizzbuzz(n: int) -> str:\n    return str(n)\n"


def test_whole_format_accepts_json_and_classifies_failures() -> None:
    as_json = json.dumps({"plan": "p", "edits": [], "commit_message": "c", "done": True})
    assert parse_whole(ChatReply(text=as_json)).done
    for cut_early in ("a.py\n```python\ndef f", "I would first write a test for"):
        with pytest.raises(PlanError) as cut:
            parse_whole(ChatReply(text=cut_early, finish_reason="length"))
        assert cut.value.kind == "truncated"
    with pytest.raises(PlanError) as nothing:
        parse_whole(ChatReply(text="I would add a test for three."))
    assert nothing.value.kind == "no_files"


def test_code_cut_off_by_the_token_limit_is_judged_up_to_its_last_whole_line() -> None:
    runaway = "a.py\n```python\ndef f() -> int:\n    return 1\n\nprint(f())\nprint(f("
    parsed = parse_whole(ChatReply(text=runaway, finish_reason="length"), "a.py")
    assert [(e.path, e.content) for e in parsed.edits] == [
        ("a.py", "def f() -> int:\n    return 1\n\nprint(f())\n")
    ]
    lone = "```python\ndef f() -> int:\n    return 1\nprint("
    parsed = parse_whole(ChatReply(text=lone, finish_reason="length"), "a.py")
    assert parsed.edits[0].content == "def f() -> int:\n    return 1\n"
    # Not cut off, an open block is no file: the model chose to stop there.
    with pytest.raises(PlanError):
        parse_whole(ChatReply(text=runaway), "a.py")


def test_a_lone_block_without_a_path_goes_to_the_requested_file() -> None:
    lone = 'Here is the test:\n```python\ndef test_one() -> None:\n    assert f(1) == "1"\n```\n'
    parsed = parse_whole(ChatReply(text=lone), "tests/test_f.py")
    assert [(e.path, e.content) for e in parsed.edits] == [
        ("tests/test_f.py", 'def test_one() -> None:\n    assert f(1) == "1"\n')
    ]
    # Without a target, or with two anonymous blocks, where they go is a guess: refused.
    for reply, target in ((ChatReply(text=lone), ""), (ChatReply(text=lone * 2), "t.py")):
        with pytest.raises(PlanError) as error:
            parse_whole(reply, target)
        assert error.value.kind == "no_files"


@pytest.mark.parametrize(
    ("text", "finish", "kind"),
    [
        (
            '{"plan": "say "hi"", "edits": [], "commit_message": "c", "done": false}',
            "stop",
            "not_json",
        ),
        (
            '{"plan": "p", "edits": [{"path": "a.py", "action": "upsert", "content": "x',
            "length",
            "truncated",
        ),
        ("", "stop", "empty"),
        ("edits edits edits\n" * 200, "length", "repetition"),
        ('{"plan": "p", "edits": [], "done": false}', "stop", "schema"),
    ],
)
def test_json_failures_are_classified(text: str, finish: str, kind: str) -> None:
    with pytest.raises(PlanError) as failure:
        parse_json(ChatReply(text=text, finish_reason=finish))
    assert failure.value.kind == kind


def test_unescaped_quotes_get_a_pointed_hint() -> None:
    with pytest.raises(PlanError, match="line 1 column"):
        parse_json(ChatReply(text='{"plan": "say "hi"", "edits": []}'))


def test_code_fences_inside_json_strings_are_content() -> None:
    content = "```python\nprint(1)\n```\n"
    edit = {"path": "a.md", "action": "upsert", "content": content}
    text = json.dumps({"plan": "p", "edits": [edit], "commit_message": "c", "done": False})
    assert parse_json(ChatReply(text=f"```json\n{text}\n```")).edits[0].content == content


def test_repetition_detector_spares_normal_code() -> None:
    normal = "\n".join(f"def f{i}(x: int) -> int:\n    return x + {i}\n" for i in range(100))
    assert not repetitive(normal)
    assert repetitive("assert fizzbuzz(3) == 'Fizz'\n" * 100)


def _request(fmt: EditFormat) -> ChatRequest:
    system = fmt.value
    return ChatRequest(
        role="implementer", model="m", messages=[{"role": "system", "content": system}],
        temperature=0.0, max_tokens=100,
    )  # fmt: skip


def _asker(fake: FakeLLM, fmt: EditFormat) -> PlanAsker:
    endpoint = Endpoint("custom", fake.base_url, "m", None, "")
    return PlanAsker(OpenAIBackend(endpoint, timeout_s=5, max_retries=0), fmt)


def test_tool_format_reads_the_function_arguments() -> None:
    answer = plan(("a.py", "x = 1\n"))
    answer.tool_call = True
    with FakeLLM({"m": [answer]}) as fake:
        result = _asker(fake, EditFormat.TOOL).ask(_request, FINISHER)
        assert result.plan is not None
        assert result.plan.edits[0].path == "a.py"
        assert fake.requests[0]["tool_choice"]["function"]["name"] == "submit_edit_plan"


def test_tool_format_falls_back_to_json_where_tools_are_refused() -> None:
    answer = plan(("a.py", "x = 1\n"))
    answer.reject = frozenset({"tools"})
    with FakeLLM({"m": [answer]}) as fake:
        result = _asker(fake, EditFormat.TOOL).ask(_request, FINISHER)
        assert result.plan is not None
        assert result.mode == "json_schema"


def test_auto_writes_whole_files_and_blocks_for_long_ones_never_structured_output() -> None:
    long_file = "".join(f"X{i} = {i}\n" for i in range(250)).encode()
    block = "big.py\n```\n<<<<<<< SEARCH\nX7 = 7\n=======\nX7 = 8\n>>>>>>> REPLACE\n```"
    with FakeLLM({"m": [Answer(text=WHOLE), Answer(text=block)]}) as fake:
        asker = _asker(fake, EditFormat.AUTO)
        small = asker.ask(_request, FINISHER)
        assert small.plan is not None
        assert small.mode == "whole"
        big = asker.ask(_request, Ask("big.py", {"big.py": long_file}))
        assert big.mode == "diff"
        assert big.plan is not None
        assert "X7 = 8\n" in big.plan.edits[0].content
        assert [r["messages"][0]["content"] for r in fake.requests] == ["whole", "diff"]
        assert all("response_format" not in r for r in fake.requests)


def test_the_asker_sends_a_lone_block_to_the_target_it_is_given() -> None:
    lone = Answer(text="```python\nx = 1\n```")
    with FakeLLM({"m": [lone, lone]}) as fake:
        asker = _asker(fake, EditFormat.WHOLE)
        result = asker.ask(_request, Ask("pkg/x.py"))
        assert result.plan is not None
        assert result.plan.edits[0].path == "pkg/x.py"
        assert asker.ask(_request, Ask()).kind == "no_files"


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_tester_s_worked_example_with_other_inputs_is_no_test_of_the_kata(
    language: str,
) -> None:
    # The worked test of `count_vowels`, its word changed: red until code counts vowels,
    # so it passed the RED checks, and the implementer was made to write code no kata asked
    # for (issue #75). Copied exactly, it was refused as an echo already.
    from tdd_sandbox.agents.agent import sample
    from tdd_sandbox.languages.registry import get_language
    from tdd_sandbox.vocabulary.roles import Role

    worked = sample(Role.TESTER, get_language(language))
    test = worked.code.replace("banana", "strawberry").replace("3", "2")
    answer = f"{worked.path}\n```{language}\n{test}```\n"
    ask = Ask(worked.path, fence=language, sample=worked, question=QUESTION)
    for fmt in (EditFormat.WHOLE, EditFormat.DIFF):
        with pytest.raises(PlanError, match="worked example's function") as copied:
            get_format(fmt).parse(ChatReply(text=answer), ask)
        assert copied.value.kind == "echo"
    # A kata that asks for it, in its own words, may have it tested.
    vowels = Ask(worked.path, fence=language, sample=worked, question="Count the vowels.")
    assert get_format(EditFormat.WHOLE).parse(ChatReply(text=answer), vowels).edits
    # What the model is told names none of it: a retry's question holds it.
    assert "vowel" not in str(copied.value).lower()


def test_a_block_after_prose_naming_two_files_is_not_guessed_into_one() -> None:
    ask = Ask("a.py", {"a.py": b"", "b.py": b""})
    named = "The `b.py` file:\n\n```python\nb = 2\n```\n\nAnd `a.py`:\n```python\na = 1\n```\n"
    edits = get_format(EditFormat.WHOLE).parse(ChatReply(text=named), ask).edits
    assert [(e.path, e.content) for e in edits] == [("b.py", "b = 2\n"), ("a.py", "a = 1\n")]
    both = "Both `a.py` and `b.py`:\n```python\na = 1\n```\n\nAnd `b.py`:\n```python\nb = 2\n```\n"
    with pytest.raises(PlanError) as refused:
        get_format(EditFormat.WHOLE).parse(ChatReply(text=both), ask)
    assert refused.value.kind == "no_files"


def test_a_file_is_placed_by_its_name_or_its_type_only_where_one_file_fits() -> None:
    files = {"src/main/java/Plant.java": b"", "src/main/java/Garden.java": b""}
    ask = Ask("src/main/java/Garden.java", files)
    parse = get_format(EditFormat.WHOLE).parse
    # A name that is no file there, and one file by that name: that file.
    named = (
        "Garden.java\n```java\nclass Garden {}\n```\nHelper.java\n```java\nclass Helper {}\n```\n"
    )
    assert [e.path for e in parse(ChatReply(text=named), ask).edits] == [
        "src/main/java/Garden.java", "Helper.java",  # a new file stays new
    ]  # fmt: skip
    # Unnamed blocks go by the type each declares first, where one file has its name.
    typed = "```java\nenum Plant { A }\n```\n\n```java\npublic final class Garden {}\n```\n"
    assert [e.path for e in parse(ChatReply(text=typed), ask).edits] == [
        "src/main/java/Plant.java", "src/main/java/Garden.java",
    ]  # fmt: skip
    # `Plant` is two files' stem here: not guessed, and two unnamed blocks are no file.
    both = {**files, "src/main/java/Plant.kt": b""}
    with pytest.raises(PlanError) as refused:
        parse(ChatReply(text=typed.replace("Garden {}", "Other {}")), Ask("a/Garden.java", both))
    assert refused.value.kind == "no_files"
