"""Calls read off Exercism's Go track: an exported function of the stub performs each canonical
property, by its name, or as the stub's one function for the one property."""

from __future__ import annotations

from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.vocabulary.cases import CallMap, Case

GO = get_language("go")


def _case(prop: str, **given: object) -> Case:
    return Case(id=f"{prop}-{len(given)}", description="", property=prop, input=given, expected=0)


def test_the_stubs_one_function_performs_the_one_property() -> None:
    # Go's leap calls the property leapYear IsLeapYear: no rule of names finds it.
    stub = {"leap.go": b"package leap\n\nfunc IsLeapYear(year int) bool {\n\tpanic(0)\n}\n"}
    calls = GO.derive_calls([_case("leapYear", year=2015)], stub, {})
    # Its tests ask whether an error came back, never what it says (forth's reference says
    # "not enough operands" where the canonical data says "empty stack").
    assert calls == CallMap(calls={"leapYear": "kata.IsLeapYear(${year})"}, messages=False)


def test_a_property_is_the_exported_function_of_its_name_given_the_inputs() -> None:
    stub = {
        "base.go": b"package base\n\nfunc ConvertToBase(inputBase int, inputDigits []int, "
        b"outputBase int) ([]int, error) {\n\tpanic(0)\n}\n\nfunc helper() {}\n"
        b"func Other(a string) string { return a }\n",
        "base_test.go": b"package base\n\nfunc TestX(t *testing.T) {}\n",
    }
    cases = [_case("convertToBase", inputBase=2, digits=[1], outputBase=10)]
    calls = GO.derive_calls(cases, stub, {})
    assert isinstance(calls, CallMap)
    assert calls.calls == {
        "convertToBase": "kata.ConvertToBase(${inputBase}, ${digits}, ${outputBase})"
    }


def test_no_function_for_a_property_is_a_reason() -> None:
    stub = {"a.go": b"package a\n\nfunc One() int { return 1 }\nfunc Two() int { return 2 }\n"}
    reason = GO.derive_calls([_case("three")], stub, {})
    assert reason == "no function of the stub performs the property three (Three)"


def test_a_field_of_the_struct_a_function_returns_performs_the_property() -> None:
    stub = {
        "zebra.go": b"package zebra\n\ntype Solution struct {\n\tDrinksWater string\n"
        b"\tOwnsZebra   string\n\tnote string\n}\n\n"
        b"func SolvePuzzle() Solution {\n\tpanic(0)\n}\n"
    }
    calls = GO.derive_calls([_case("drinksWater"), _case("ownsZebra")], stub, {})
    assert isinstance(calls, CallMap)
    assert calls.calls == {
        "drinksWater": "kata.SolvePuzzle().DrinksWater",
        "ownsZebra": "kata.SolvePuzzle().OwnsZebra",
    }
    # Two functions returning the struct: whose field it is, is no guess.
    twice = {"zebra.go": stub["zebra.go"] + b"func Other() *Solution { panic(0) }\n"}
    reason = GO.derive_calls([_case("drinksWater"), _case("ownsZebra")], twice, {})
    assert reason == "no function of the stub performs the property drinksWater (DrinksWater)"


def test_of_a_kata_s_functions_of_one_arity_the_one_whose_result_is_the_data_s_kind() -> None:
    # protein-translation: `FromRNA(rna) ([]string, error)` beside `FromCodon(codon) (string,
    # error)`, where the data's proteins are lists ("no function of the stub performs").
    stub = {
        "protein_translation.go": b"package protein\n\n"
        b"func FromRNA(rna string) ([]string, error) {\n\tpanic(1)\n}\n\n"
        b"func FromCodon(codon string) (string, error) {\n\tpanic(1)\n}\n"
    }
    cases = [
        Case("a", "a", "proteins", {"strand": "AUG"}, ["Methionine"]),
        Case("b", "b", "proteins", {"strand": "UGG"}, {"error": "Invalid codon"}),
    ]
    calls = GO.derive_calls(cases, stub, {})
    assert isinstance(calls, CallMap)
    assert calls.calls == {"proteins": "kata.FromRNA(${strand})"}
    # Where the data's kind fits both, no guess.
    texts = [Case("a", "a", "proteins", {"strand": "AUG"}, None)]
    assert isinstance(GO.derive_calls(texts, stub, {}), str)


def test_a_type_a_function_makes_and_its_methods_build_step_by_step_replay_the_list() -> None:
    # Bowling: before, "no function of the stub performs the property score (Score)".
    stub = {
        "bowling.go": b"package bowling\n\nfunc NewGame() *Game {\n\tpanic(1)\n}\n\n"
        b"func (g *Game) Roll(pins int) error {\n\tpanic(1)\n}\n\n"
        b"func (g *Game) Score() (int, error) {\n\tpanic(1)\n}\n"
    }
    cases = [_case("score", previousRolls=[0]), _case("roll", previousRolls=[10], roll=11)]
    calls = GO.derive_calls(cases, stub, {})
    assert isinstance(calls, CallMap), calls
    built = (
        "tddFold(kata.NewGame(), tddAs[[]int](${previousRolls|json}), "
        "func(tddMade *kata.Game, tddItem int) { tddStep(tddMade.Roll(tddItem)) })"
    )
    replayed = (  # the roll the case asks from where every roll before it is made
        "tddReplay(kata.NewGame(), tddAs[[]int](${previousRolls+roll|json}), "
        "func(tddMade *kata.Game, tddItem int) []any { return tddAll(tddMade.Roll(tddItem)) })..."
    )
    assert calls.calls == {"score": f"{built}.Score()", "roll": replayed}
