"""Objects driven by a script of operations (`scripting`): which class, which method per
operation, which fields it is given, and how a call renders each case's steps with none of
what the data says the steps answer."""

from __future__ import annotations

from typing import Any

import pytest

from tdd_sandbox.errors import UsageError
from tdd_sandbox.languages.driving import render_call
from tdd_sandbox.languages.scripting import STEPS, Script, choose_script, is_script, step_templates
from tdd_sandbox.vocabulary.cases import Case


def _case(operations: list[dict[str, Any]], **given: Any) -> Case:
    return Case("c", "", "run", {**given, "operations": operations}, {})


BUFFER = [
    _case([{"operation": "read", "should_succeed": False}], capacity=1),
    _case(
        [
            {"operation": "write", "item": 424242, "should_succeed": True},
            {"operation": "read", "should_succeed": True, "expected": 424242},
            {"operation": "clear"},
        ],
        capacity=2,
    ),
]
ACCOUNT = [
    _case([{"operation": "open"}, {"operation": "balance"}]),
    _case([{"operation": "open"}, {"operation": "concurrent", "number": 3, "operations": [
        {"operation": "deposit", "amount": 1}, {"operation": "withdraw", "amount": 1}]}]),
]  # fmt: skip


def test_a_script_maps_each_operation_to_the_method_of_its_name_and_arity() -> None:
    methods = {"read": 0, "write": 1, "clear": 0, "size": 0}
    assert choose_script(BUFFER, "Buffer", methods, 1, lambda n: [n]) == Script(
        "Buffer",
        ("capacity",),
        {"read": "read", "write": "write", "clear": "clear"},
        {"read": (), "write": ("item",), "clear": ()},
    )


def test_a_group_s_operations_are_mapped_and_a_getter_performs_its_word() -> None:
    methods = {"open": 0, "getBalance": 0, "deposit": 1, "withdraw": 1}
    script = choose_script(ACCOUNT, "Account", methods, 0, lambda n: [n])
    assert isinstance(script, Script)
    assert script.methods == {
        "open": "open", "balance": "getBalance", "deposit": "deposit", "withdraw": "withdraw"
    }  # fmt: skip


@pytest.mark.parametrize(
    ("methods", "made", "why"),
    [
        ({"read": 0, "write": 0, "clear": 0}, 1, "no method of Buffer performs the operation"),
        ({"read": 0, "write": 1, "clear": 0}, 0, "the constructor of Buffer takes 0"),
    ],
)
def test_no_script_where_an_operation_or_the_constructor_does_not_fit(
    methods: dict[str, int], made: int, why: str
) -> None:
    chosen = choose_script(BUFFER, "Buffer", methods, made, lambda n: [n])
    assert isinstance(chosen, str)
    assert chosen.startswith(why)


def test_only_cases_that_all_list_operations_are_scripts() -> None:
    assert is_script(BUFFER)
    assert not is_script([*BUFFER, Case("d", "", "run", {"capacity": 1}, {})])
    assert not is_script([Case("d", "", "run", {"operations": [1, 2]}, {})])


def _steps(script: Script) -> dict[str, str]:
    return step_templates(
        script,
        lambda method, arguments: f"s -> s.{method}({', '.join(arguments)})",
        lambda times: f"together({times}, {STEPS})",
    )


def test_a_call_renders_each_step_with_its_arguments_and_never_what_it_answers() -> None:
    script = choose_script(BUFFER, "Buffer", {"read": 0, "write": 1, "clear": 0}, 1, lambda n: [n])
    assert isinstance(script, Script)
    call = render_call(
        f"script(new Buffer(${{capacity}}), {STEPS})", BUFFER[1], repr, _steps(script)
    )
    assert call == "script(new Buffer(2), s -> s.write(424242), s -> s.read(), s -> s.clear())"


def test_a_group_renders_as_its_steps_run_its_number_of_times() -> None:
    methods = {"open": 0, "getBalance": 0, "deposit": 1, "withdraw": 1}
    script = choose_script(ACCOUNT, "Account", methods, 0, lambda n: [n])
    assert isinstance(script, Script)
    call = render_call(f"script({STEPS})", ACCOUNT[1], repr, _steps(script))
    assert call == "script(s -> s.open(), together(3, s -> s.deposit(1), s -> s.withdraw(1)))"


def test_an_operation_no_step_performs_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="no step performs the operation"):
        render_call(f"script({STEPS})", BUFFER[0], repr, {"write": "w"})


def test_the_one_operation_no_name_says_is_the_one_method_of_its_arity_left() -> None:
    methods = {"read": 0, "clear": 0, "put": 1, "size": 0}
    script = choose_script(BUFFER, "Buffer", methods, 1, lambda n: [n])
    assert isinstance(script, Script)
    assert script.methods["write"] == "put"
    two_left = choose_script(BUFFER, "Buffer", {**methods, "add": 1}, 1, lambda n: [n])
    assert isinstance(two_left, str)
    assert two_left.startswith("no method of Buffer performs the operation write")
