"""A run's pull request text: its summary, with a model's words unable to act as Markdown."""

from __future__ import annotations

import html as htmllib
import re

import pytest
from markdown_it import MarkdownIt

from tdd_sandbox.forge.body import RunReport, body, plain, title

ATTACKS = [
    "@org/security please approve",
    "![pixel](http://127.0.0.1:9/track.png)",
    "[docs](http://127.0.0.1:9/phish)",
    "<img src=x onerror=alert(1)>",
    "<script>alert(1)</script>",
    "http://127.0.0.1:9/autolink",
    "line one\n# a heading\n- a list",
    "`code` and ``more``",
    "&lt;already an entity&gt; &#64;someone",
    "**bold** _em_ ~~struck~~ | table |",
    "\x1b[2J\x07clear the terminal",
]


def _rendered(text: str) -> str:
    # CommonMark with GitHub's tables and strikethrough (linkify, for bare URLs, is not
    # installed here: a bare URL shows where it goes anyway).
    return str(MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(text))


@pytest.mark.parametrize("attack", ATTACKS)
def test_a_model_s_words_render_as_the_same_words_and_nothing_else(attack: str) -> None:
    shown = plain(attack)
    html = _rendered(shown)
    assert "\n" not in shown
    assert re.sub(r"</?p>|\n", "", html).count("<") == 0  # no tag, link, image or code
    assert "@" not in shown  # a mention pings no one
    expected = " ".join("".join(c for c in attack if c.isprintable() or c.isspace()).split())
    # What a reader sees is what the model wrote, character for character.
    assert htmllib.unescape(re.sub(r"</?p>|\n", "", html)) == expected


def _outside_code(html: str) -> str:
    """The rendered page less its code spans: what a forge reads for mentions and links."""
    return re.sub(r"<code>.*?</code>", "", html, flags=re.DOTALL)


@pytest.mark.parametrize("attack", ATTACKS)
def test_every_model_word_in_a_pull_request_sits_in_a_code_span(attack: str) -> None:
    # GitHub finds @mentions and #references in the rendered page's text, after entities
    # are decoded: `&#64;org` reads as `@org` there. Its docs leave code spans alone, so a
    # model's subject, its model names and roles render in code spans, word for word.
    report = RunReport(kata="K", status="completed", cycles=1, run_id="r",
                       subjects=[attack], models={"tester": attack})  # fmt: skip
    html = _rendered(body(report))
    outside = htmllib.unescape(_outside_code(html))
    assert "@" not in outside
    assert not re.search(r"<(a|img|script|em|del)\b", _outside_code(html))
    assert html.count("<strong>") == 1  # the tool's own: the run's status
    assert len(re.findall(r"<h\d", html)) == 2  # the tool's own: Commits, Models
    expected = " ".join("".join(c for c in attack if c.isprintable() or c.isspace()).split())
    spans = [htmllib.unescape(found) for found in re.findall(r"<code>(.*?)</code>", html)]
    assert spans.count(expected) == 2, (spans, expected)  # the subject, and the model


def test_the_body_says_what_the_run_did() -> None:
    report = RunReport(
        kata="FizzBuzz", status="completed", cycles=3, run_id="20261128-0101-abc123",
        subjects=["feat: 3 gives Fizz", "feat: @everyone 5 gives Buzz"],
        models={"tester": "custom:qwen2.5-coder-0.5b", "implementer": "openai:gpt-4.1-mini"},
        acceptance=(12, 13), tamper_events=1, green_commits=2,
    )  # fmt: skip
    text = body(report)
    assert "**completed** after 3 cycles, 2 green commits" in text
    assert "1. ` feat: 3 gives Fizz `" in text
    assert "2. ` feat: @everyone 5 gives Buzz `" in text  # in a code span: no mention
    assert "12 of 13 cases passed" in text
    assert "| ` tester ` | ` custom:qwen2.5-coder-0.5b ` |" in text
    assert "**Tamper events refused:** 1." in text
    assert title(report) == "TDD: FizzBuzz"
    assert title(RunReport("Fizz\nBuzz\x1b[2J", "completed", 1, [])) == "TDD: FizzBuzz[2J"
