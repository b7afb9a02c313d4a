"""The order of a call's inputs by the kinds of the literals the tests pass (`kinds`)."""

from __future__ import annotations

from tdd_sandbox.languages.kinds import arranged, literal_kind, lower_cased


def test_a_literal_s_kind_is_read_from_its_source_text() -> None:
    assert [literal_kind(t) for t in ('"eggs"', " 255 ", "-1.5", "10u", "true", "x", "{1}")] == [
        "text", "number", "number", "number", "bool", None, None,
    ]  # fmt: skip


def test_inputs_go_where_the_literals_of_their_kind_stand() -> None:
    example = {"item": "eggs", "score": 0}
    assert arranged(example, ("number", "text")) == ["score", "item"]
    assert arranged(example, ("text", "number")) == ["item", "score"]
    # Nothing known, or two orders that fit: the data's order.
    assert arranged(example, (None, None)) == ["item", "score"]
    assert arranged({"a": 1, "b": 2}, ("text", None)) == ["a", "b"]
    assert arranged(example, ("number",)) == ["item", "score"]  # another arity: not this call


def test_a_text_the_tests_pass_in_lower_case_is_lowered_only_where_that_is_a_sign() -> None:
    planets = ["Earth", "Mercury"]
    assert lower_cased(planets, ["'earth'", "'mercury'"])
    assert not lower_cased(planets, ["'Earth'", "'mercury'"])  # the data's spelling: no
    assert not lower_cased(planets, ["'earth'", "planet"])  # not a literal: unknown
    # Texts with no capital: the tests' literals say nothing about case (phone-number).
    assert not lower_cased(["(223) 456-7890"], ['"(223) 456-7890"'])
