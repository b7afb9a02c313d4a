"""Text a model may have written, made safe to show."""

from __future__ import annotations

from tdd_sandbox.vocabulary.printable import escape_controls, escape_markdown


def test_controls_are_written_as_escapes_and_lines_and_tabs_kept() -> None:
    assert escape_controls("a\tb\nc\x1b[2Kd\x07\x00\x7f\x9b") == (
        "a\tb\nc\\x1b[2Kd\\x07\\x00\\x7f\\x9b"
    )
    # A bidirectional override makes a line read otherwise than it is; a carriage return
    # would let the rest of a line overwrite its start.
    assert escape_controls("ok\u202eko\rno") == "ok\\u202eko\\x0dno"
    assert escape_controls("naïve — ✓ 日本") == "naïve — ✓ 日本"


def test_a_long_line_is_cut_and_says_so_and_short_ones_are_kept() -> None:
    shown = escape_controls("short\n" + "x" * 50, line_limit=10)
    assert shown == "short\n" + "x" * 10 + "… [50 characters]"


def test_a_markdown_cell_cannot_end_itself_or_link_or_hold_html() -> None:
    cell = escape_markdown("a|b [x](http://h/) ![i](y) <b>`c`\nnext\x1b")
    # The escape of \x1b is itself escaped: it renders as the four characters `\x1b`.
    assert cell == "a\\|b \\[x\\](http://h/) !\\[i\\](y) &lt;b&gt;\\`c\\` next\\\\x1b"
    assert escape_markdown("many_new_tests") == "many_new_tests"
