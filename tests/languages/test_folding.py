"""Objects built step by step from a list input (`folding`): which class, which step, which
member, and no guess where the stub says it two ways."""

from __future__ import annotations

from tdd_sandbox.languages.folding import Fold, choose_folds
from tdd_sandbox.vocabulary.cases import Case


def _case(prop: str, **given: object) -> Case:
    return Case(id=f"{prop}-{len(given)}", description="", property=prop, input=given, expected=0)


def _names(prop: str) -> list[str]:
    return [prop]


BOWLING = [
    _case("score", previousRolls=[0, 0]),
    _case("roll", previousRolls=[10], roll=11),
]
SCHOOL = [
    _case("roster", students=[]),
    _case("roster", students=[["Aimee", 2]]),
    _case("grade", students=[["Aimee", 2], ["Blair", 3]], desiredGrade=2),
    _case("add", students=[["Aimee", 2], ["Aimee", 3]]),
]


def test_each_item_goes_to_the_one_method_of_its_arity_then_the_property_is_asked() -> None:
    classes = {"Game": {"roll": 1, "score": 0}, "Frame": {"pins": 0}}
    assert choose_folds(BOWLING, classes, _names) == {
        "score": Fold("Game", "previousRolls", "roll", False, "score", ()),
        "roll": Fold("Game", "previousRolls", "roll", False, "roll", ("roll",)),
    }


def test_a_list_item_is_spread_and_the_step_shares_a_word_with_the_input() -> None:
    classes = {"School": {"add_student": 2, "remove": 2, "roster": 0, "grade": 1, "added": 0}}
    folds = choose_folds(SCHOOL, classes, _names)
    assert not isinstance(folds, str), folds
    assert {f.step for f in folds.values()} == {"add_student"}
    assert all(f.spread for f in folds.values())
    # What the adds said, in the past tense; the other inputs to the member, in order.
    assert folds["add"].member == "added"
    assert folds["grade"].given == ("desiredGrade",)


def test_no_guess_between_two_steps_or_two_classes_or_for_an_unknown_property() -> None:
    two_steps = {"School": {"add": 2, "move": 2, "roster": 0, "grade": 1, "added": 0}}
    assert isinstance(choose_folds(SCHOOL, two_steps, _names), str)
    twins = {"A": {"roll": 1, "score": 0}, "B": {"roll": 1, "score": 0}}
    assert "more than one" in str(choose_folds(BOWLING, twins, _names))
    assert isinstance(choose_folds(BOWLING, {"Game": {"roll": 1}}, _names), str)


def test_an_input_that_is_not_a_list_in_every_case_is_no_history() -> None:
    cases = [_case("score", rolls=[1, 2]), _case("score", rolls=3)]
    assert isinstance(choose_folds(cases, {"Game": {"roll": 1, "score": 0}}, _names), str)


FORTH = [
    _case("evaluate", instructions=["1 2 +"]),
    _case("evaluate", instructions=[": a 1 ;", "a"]),
]


def test_steps_that_perform_the_property_are_read_after_by_the_one_member_taking_nothing() -> None:
    # Rust's forth: each instruction an `eval`, then `stack()`, which no name says.
    classes = {"Forth": {"eval": 1, "stack": 0}}
    assert choose_folds(FORTH, classes, _names, readers=True) == {
        "evaluate": Fold("Forth", "instructions", "eval", False, "stack", (), reads=True)
    }
    assert isinstance(choose_folds(FORTH, classes, _names), str)  # a pack that reads none
    # The step must say the property (or begin it), and one member be left to read.
    assert isinstance(
        choose_folds(FORTH, {"Forth": {"run": 1, "stack": 0}}, _names, readers=True), str
    )
    two = {"Forth": {"eval": 1, "stack": 0, "depth": 0}}
    assert isinstance(choose_folds(FORTH, two, _names, readers=True), str)
