"""A property asked of two fresh objects in one run (`pairing`): forth's `evaluateBoth`."""

from __future__ import annotations

from tdd_sandbox.languages.driving import rename_inputs
from tdd_sandbox.languages.pairing import Pair, find_pairs, with_pairs
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.vocabulary.cases import CallMap, Case


def _case(prop: str, expected: object, **given: object) -> Case:
    return Case(id=prop, description="", property=prop, input=given, expected=expected)


EVALUATE = _case("evaluate", [3], instructions=["1 2 +"])
BOTH = _case(
    "evaluateBoth",
    [[0], [2]],
    instructionsFirst=[": + - ;", "1 1 +"],
    instructionsSecond=["1 1 +"],
)


def test_a_property_named_as_another_and_both_giving_its_inputs_twice_is_a_pair() -> None:
    assert find_pairs([EVALUATE, BOTH]) == {"evaluateBoth": Pair("evaluate", ("instructions",))}


def test_what_fits_a_pair_only_in_part_is_none() -> None:
    # No base among the cases, an input of another name, one answer, or an error: no pair,
    # so the pack derives the property as it would any other (or refuses it).
    assert find_pairs([BOTH]) == {}
    other = _case("evaluateBoth", [[0], [2]], first=["1"], second=["2"])
    one = _case("evaluateBoth", [0], instructionsFirst=["1"], instructionsSecond=["2"])
    error = _case("evaluateBoth", {"error": "x"}, instructionsFirst=["1"], instructionsSecond=["2"])
    for odd in (other, one, error):
        assert find_pairs([EVALUATE, BOTH, odd]) == {}


def test_each_half_renames_the_inputs_of_its_base_call() -> None:
    assert (
        rename_inputs("f(${key.a}, ${rolls+roll}, ${rows|lines}, ${other})", {"key": "keyFirst",
                      "rolls": "rollsFirst", "roll": "rollFirst", "rows": "rowsFirst"})
        == "f(${keyFirst.a}, ${rollsFirst+rollFirst}, ${rowsFirst|lines}, ${other})"
    )  # fmt: skip


def test_each_pack_asks_the_base_call_twice_in_one_list() -> None:
    pairs = find_pairs([EVALUATE, BOTH])
    spelled = {
        "rust": "vec![forth(${instructionsFirst}), forth(${instructionsSecond})]",
        "java": "java.util.List.of(forth(${instructionsFirst}), forth(${instructionsSecond}))",
        "javascript": "[forth(${instructionsFirst}), forth(${instructionsSecond})]",
        "cpp": "std::vector{forth(${instructionsFirst}), forth(${instructionsSecond})}",
    }
    for language, call in spelled.items():
        made = with_pairs(CallMap(calls={"evaluate": "forth(${instructions})"}), pairs,
                          get_language(language).paired)  # fmt: skip
        assert isinstance(made, CallMap), language
        assert made.calls == {"evaluate": "forth(${instructions})", "evaluateBoth": call}
    python = with_pairs(CallMap(calls={"evaluate": "evaluate(instructions)"}), pairs,
                        get_language("python").paired)  # fmt: skip
    assert isinstance(python, CallMap)
    halves = python.calls["evaluateBoth"]
    assert eval(
        halves, {"evaluate": len, "instructionsFirst": [1, 2], "instructionsSecond": [3]}
    ) == [2, 1]


def test_a_pack_without_a_list_or_a_base_of_no_single_answer_is_refused() -> None:
    pairs = find_pairs([EVALUATE, BOTH])
    base = CallMap(calls={"evaluate": "kata.Forth(${instructions})"})
    assert "no rule asks evaluate of two objects" in str(
        with_pairs(base, pairs, get_language("go").paired)
    )
    unordered = base.model_copy(update={"unordered": frozenset({"evaluate"})})
    assert "no single answer" in str(with_pairs(unordered, pairs, get_language("java").paired))
