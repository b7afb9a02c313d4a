"""The host side every compiled pack's driver shares: calls written with the case's inputs."""

from __future__ import annotations

import json

import pytest

from tdd_sandbox.errors import UsageError
from tdd_sandbox.languages.driving import render_call
from tdd_sandbox.vocabulary.cases import Case


def _case(**given: object) -> Case:
    return Case("c1", "c1", "transpose", given, [])


def test_each_input_is_written_as_a_literal() -> None:
    call = render_call("t(${rows}, ${n})", _case(rows=["AB", "C"], n=2), json.dumps)
    assert call == 't(["AB", "C"], 2)'


def test_rows_given_as_lines_are_one_string() -> None:
    # transpose's Java track takes the rows as one string of lines; the array did not compile.
    call = render_call("t(${rows|lines})", _case(rows=["AB", "C"]), json.dumps)
    assert call == 't("AB\\nC")'
    assert render_call("t(${rows|lines})", _case(rows=[]), json.dumps) == 't("")'


def test_an_input_given_as_json_is_a_string_of_its_json() -> None:
    # Go's driver converts it to the parameter's type: `[]Domino` takes no `[][]int{...}`.
    rows = [{"a": 1}, "é"]
    call = render_call("t(${rows|json})", _case(rows=rows), json.dumps)
    assert call.startswith('t("[')
    assert json.loads(json.loads(call[2:-1])) == rows


def test_an_input_given_in_lower_case_is_its_text_lowered_and_only_a_text_is() -> None:
    assert render_call("age(${planet|lower})", _case(planet="Earth"), json.dumps) == 'age("earth")'
    with pytest.raises(UsageError):
        render_call("age(${planet|lower})", _case(planet=3), json.dumps)


def test_an_input_given_as_a_name_is_written_bare_and_only_where_it_is_a_name() -> None:
    # C++'s space-age calls `on_earth()` for "Earth": the value is code here, so nothing
    # but a name may be written so (a kata's data is its author's, not always ours).
    assert render_call("a.on_${p|name}()", _case(p="New York"), json.dumps) == "a.on_new_york()"
    for value in ('Earth); system("x"', "1st", 3):
        with pytest.raises(UsageError):
            render_call("a.on_${p|name}()", _case(p=value), json.dumps)


@pytest.mark.parametrize("given", [{"rows": [1, 2]}, {"rows": "AB"}, {"other": ["AB"]}])
def test_what_cannot_be_lines_is_a_usage_error(given: dict[str, object]) -> None:
    with pytest.raises(UsageError):
        render_call("t(${rows|lines})", _case(**given), json.dumps)


def test_a_field_of_a_record_input_is_written_alone() -> None:
    case = Case("c1", "c1", "encode", {"phrase": "x", "key": {"a": 5, "b": 7}}, "")
    assert render_call("e(${phrase}, ${key.a}, ${key.b})", case, json.dumps) == 'e("x", 5, 7)'
    with pytest.raises(UsageError):
        render_call("e(${key.c})", case, json.dumps)
    with pytest.raises(UsageError):
        render_call("e(${phrase.a})", case, json.dumps)


def test_an_item_of_a_list_input_is_its_index_after_a_dot() -> None:
    # triangle's JavaScript track makes `new Triangle(2, 2, 2)` of the data's `sides`.
    call = render_call("T(${sides.0}, ${sides.2})", _case(sides=[2, 3, 4]), json.dumps)
    assert call == "T(2, 4)"
    for template in ("T(${sides.3})", "T(${sides.x})", "T(${sides.0.a})"):
        with pytest.raises(UsageError):
            render_call(template, _case(sides=[2, 3, 4]), json.dumps)
