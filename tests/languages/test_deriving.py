"""What every pack's derivation shares: which of the stub's functions performs a property."""

from __future__ import annotations

from tdd_sandbox.languages.deriving import Chosen, Use, choose_functions, choose_uses
from tdd_sandbox.vocabulary.cases import Case


def _cases(prop: str, **given: object) -> list[Case]:
    return [Case("c1", "c1", prop, given, "")]


def _same(prop: str) -> list[str]:
    return [prop]


def test_the_one_function_of_the_propertys_arity_performs_it() -> None:
    # Java's twelve-days and Go's beer-song sing one verse, several, or the song: recite
    # (start, end) is the one that takes two, though no name says so.
    functions = {"verse": ["n"], "verses": ["start", "end"], "sing": []}
    chosen = choose_functions(_cases("recite", startVerse=1, endVerse=3), functions, _same)
    assert chosen == {"recite": Chosen("verses", ("startVerse", "endVerse"))}


def test_two_functions_of_that_arity_choose_none() -> None:
    functions = {"verses": ["start", "end"], "between": ["a", "b"]}
    chosen = choose_functions(_cases("recite", startVerse=1, endVerse=3), functions, _same)
    assert chosen == "no function of the stub performs the property recite (recite)"


def test_a_record_input_is_taken_field_by_field_where_the_function_takes_them_apart() -> None:
    # affine-cipher's `key: {a, b}`: Python's `encode(plain_text, a, b)` and Java's took one
    # argument more than the data gives ("encode takes 3 arguments where encode gives 2").
    functions = {"encode": ["plain_text", "a", "b"]}
    chosen = choose_functions(_cases("encode", phrase="x", key={"a": 5, "b": 7}), functions, _same)
    assert chosen == {"encode": Chosen("encode", ("phrase", "key.a", "key.b"))}
    other = [*_cases("encode", phrase="x", key={"a": 5, "b": 7}), Case("c2", "c2", "encode",
             {"phrase": "y", "key": {"a": 1}}, "")]  # fmt: skip
    assert isinstance(choose_functions(other, functions, _same), str)  # fields differ: no guess


def test_a_function_named_as_the_property_and_more_words_performs_it() -> None:
    # Go's variable-length-quantity: `EncodeVarint` and `DecodeVarint` where the data says
    # encode and decode ("no function of the stub performs the property encode (Encode)").
    functions = {"EncodeVarint": ["input"], "DecodeVarint": ["input"]}
    cases = [*_cases("encode", integers=[1]), Case("c2", "c2", "decode", {"integers": [1]}, "")]
    chosen = choose_functions(cases, functions, lambda prop: [prop.capitalize()])
    assert chosen == {
        "encode": Chosen("EncodeVarint", ("integers",)),
        "decode": Chosen("DecodeVarint", ("integers",)),
    }
    # Not a word of its own (`Encoder`), or two functions so named: no guess.
    for other in ({"Encoder": ["x"], "Decoder": ["x"]}, {"EncodeA": ["x"], "Encode_b": ["x"]}):
        named = {**other, "DecodeVarint": ["input"]}
        assert choose_functions(cases, named, lambda prop: [prop.capitalize()]) == (
            "no function of the stub performs the property encode (Encode)"
        )


def test_a_function_of_the_property_s_words_in_another_order_or_form_performs_it() -> None:
    # zebra-puzzle: Java's `getWaterDrinker` and JavaScript's `waterDrinker` where the data
    # says drinksWater, `zebraOwner` for ownsZebra.
    cases = [*_cases("drinksWater"), Case("c2", "c2", "ownsZebra", {}, "")]
    stubs: list[dict[str, list[str]]] = [
        {"getWaterDrinker": [], "getZebraOwner": []},
        {"waterDrinker": [], "zebraOwner": [], "constructor": []},
    ]
    for functions in stubs:
        names = list(functions)
        assert choose_functions(cases, functions, _same) == {
            "drinksWater": Chosen(names[0], ()),
            "ownsZebra": Chosen(names[1], ()),
        }
    # Other words, or two functions of the same ones: no guess.
    others: list[dict[str, list[str]]] = [
        {"waterDrinkerCount": [], "zebraOwner": []},
        {"waterDrinker": [], "drinksWater2": [], "getDrinkerWater": [], "zebraOwner": []},
    ]
    for functions in others:
        assert choose_functions(cases, functions, _same) == (
            "no function of the stub performs the property drinksWater (drinksWater)"
        )


def test_a_member_of_the_property_s_words_is_the_use_for_it() -> None:
    cases = [*_cases("drinksWater"), Case("c2", "c2", "ownsZebra", {}, "")]
    uses = [Use("ZebraPuzzle", 0, "waterDrinker", 0), Use("ZebraPuzzle", 0, "zebraOwner", 0)]
    assert choose_uses(cases, uses, _same) == {"drinksWater": uses[0], "ownsZebra": uses[1]}


def test_the_one_property_no_member_is_named_for_takes_the_one_member_left() -> None:
    # C++'s allergies: `allergicTo` is `is_allergic_to`, so `list` is `get_allergies`, the
    # other member of the same object the tests use; before, "no object's member for list".
    cases = [
        Case("a", "a", "allergicTo", {"item": "eggs", "score": 1}, True),
        Case("l", "l", "list", {"score": 1}, ["eggs"]),
    ]
    allergic = Use("allergy_test", 1, "is_allergic_to", 1)
    listed = Use("allergy_test", 1, "get_allergies", 0)
    other = Use("elsewhere", 1, "size", 0)  # another object's: never taken for it
    assert choose_uses(cases, [allergic, listed, other], _same) == {
        "allergicTo": allergic,
        "list": listed,
    }
    # Two members left, or none named at all: no guess.
    twice = [allergic, listed, Use("allergy_test", 1, "count", 0)]
    assert isinstance(choose_uses(cases, twice, _same), str)
    assert isinstance(choose_uses(cases, [listed], _same), str)
