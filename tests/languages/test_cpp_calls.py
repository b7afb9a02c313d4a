"""Calls read off Exercism's C++ track: its stubs declare an empty namespace, so the calls
are the ones its tests make."""

from __future__ import annotations

from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.vocabulary.cases import CallMap, Case

CPP = get_language("cpp")
STUB = {
    "all_your_base.h": b"#pragma once\nnamespace all_your_base {\n}  // namespace all_your_base\n",
    "all_your_base.cpp": b'#include "all_your_base.h"\n',
}


def _case(prop: str, **given: object) -> Case:
    return Case(id=f"{prop}-{len(given)}", description="", property=prop, input=given, expected=0)


def test_a_function_of_the_namespace_the_tests_call_performs_the_property() -> None:
    tests = {
        "all_your_base_test.cpp": b'#include "all_your_base.h"\nTEST_CASE("x") {\n'
        b"  std::vector<unsigned int> in{1, 0};\n"
        b"  auto out = all_your_base::convert(2, in, 10);\n"
        b'  REQUIRE(std::string("a, b") == all_your_base::name("x(, y"));\n}\n'
    }
    cases = [_case("rebase", inputBase=2, digits=[1, 0], outputBase=10)]
    calls = CPP.derive_calls(cases, STUB, tests)
    assert calls == CallMap(
        setup='#include "all_your_base.h"',
        calls={
            "rebase": "all_your_base::convert(${inputBase}, "
            "tdd_acceptance::list(${digits}), ${outputBase})"
        },
    )


def test_an_object_the_tests_make_and_use_performs_the_property() -> None:
    stub = {"crypto_square.h": b"namespace crypto_square {}\n"}
    made = b'REQUIRE("" == crypto_square::cipher("").normalized_cipher_text());\n'
    bound = (
        b'crypto_square::cipher square("A");\nREQUIRE("a" == square.normalized_cipher_text());\n'
    )
    for tests in (made, bound):
        calls = CPP.derive_calls([_case("ciphertext", plaintext="A")], stub, {"t.cpp": tests})
        assert isinstance(calls, CallMap)
        assert calls.calls == {
            "ciphertext": "crypto_square::cipher(tdd_acceptance::text(${plaintext}))"
            ".normalized_cipher_text()"
        }


def test_a_member_of_what_a_function_returns_performs_the_property() -> None:
    # zebra-puzzle's tests bind the solution a function returns, then read its fields.
    stub = {"zebra_puzzle.h": b"namespace zebra_puzzle {\nstruct Solution {};\n}\n"}
    for kind in (b"zebra_puzzle::Solution", b"auto"):
        tests = {
            "t.cpp": kind + b" solution = zebra_puzzle::solve();\n"
            b'REQUIRE(solution.drinksWater == "Norwegian");\n'
            b'REQUIRE(solution.ownsZebra == "Japanese");\n'
        }
        cases = [_case("drinksWater"), _case("ownsZebra")]
        calls = CPP.derive_calls(cases, stub, tests)
        assert isinstance(calls, CallMap)
        assert calls.calls == {
            "drinksWater": "zebra_puzzle::solve().drinksWater",
            "ownsZebra": "zebra_puzzle::solve().ownsZebra",
        }


def test_no_namespace_or_no_call_of_it_is_a_reason_not_a_guess() -> None:
    cases = [_case("leapYear", year=1)]
    assert CPP.derive_calls(cases, {"leap.h": b"#pragma once\n"}, {}) == (
        "the stub declares no namespace whose calls the track's tests show"
    )
    tests = {"t.cpp": b"REQUIRE(other::is_leap_year(1));\nREQUIRE(leap::is_leap(1, 2) == 3);\n"}
    reason = CPP.derive_calls(cases, {"leap.h": b"namespace leap {}\n"}, tests)
    assert reason == "leap::is_leap takes 2 arguments where leapYear gives 1"


def test_an_enumeration_the_tests_register_gets_its_constants_names() -> None:
    tests = {
        "garden_test.cpp": b"CATCH_REGISTER_ENUM(garden::Plants,\n    garden::Plants::grass,\n"
        b"    garden::Plants::red_clover)\n"
        b"// CATCH_REGISTER_ENUM(garden::Other, garden::Other::commented_out)\n"
        b'REQUIRE(garden::plants("G")[0] == garden::Plants::grass);\n'
    }
    calls = CPP.derive_calls(
        [_case("plants", row="G")], {"garden.h": b"namespace garden {}\n"}, tests
    )
    assert isinstance(calls, CallMap)
    assert "struct Names<::garden::Plants>" in calls.setup
    assert 'if (value == ::garden::Plants::red_clover) return "red clover";' in calls.setup
    assert "Other" not in calls.setup


def test_the_kinds_of_the_tests_literals_order_the_inputs_and_a_set_is_compared_as_one() -> None:
    # C++'s allergies: the data lists the item before the score, the tests make
    # `allergy_test(0)` and ask `is_allergic_to("eggs")`; its allergies come as a set.
    stub = {"allergies.h": b"namespace allergies {\n}\n"}
    tests = {
        "allergies_test.cpp": b'TEST_CASE("eggs", "[1]") {\n'
        b'  REQUIRE(false == allergies::allergy_test(0).is_allergic_to("eggs"));\n}\n'
        b'TEST_CASE("list", "[2]") {\n  std::unordered_set<std::string> expected = {"eggs"};\n'
        b"  REQUIRE(expected == allergies::allergy_test(1).get_allergies());\n}\n"
    }
    cases = [_case("allergicTo", item="eggs", score=0), _case("list", score=1)]
    calls = CPP.derive_calls(cases, stub, tests)
    assert isinstance(calls, CallMap), calls
    assert calls.calls == {
        "allergicTo": "allergies::allergy_test(${score})"
        ".is_allergic_to(tdd_acceptance::text(${item}))",
        "list": "allergies::allergy_test(${score}).get_allergies()",
    }
    assert calls.unordered == frozenset({"list"})


def test_a_member_named_by_an_input_s_value_is_called_by_that_name() -> None:
    # C++'s space-age: `age.on_earth()`, `age.on_mercury()` for the data's planet "Earth",
    # "Mercury"; before, "no function of the stub performs the property age".
    stub = {"space_age.h": b"namespace space_age {\n}\n"}
    tests = {
        "space_age_test.cpp": b"const space_age::space_age age(1000000);\n"
        b"REQUIRE(age.seconds() == 1000000);\n"
        b"REQUIRE_THAT(age.on_earth(), WithinAbs(31.69, 0.005));\n"
        b"REQUIRE_THAT(age.on_mercury(), WithinAbs(280.88, 0.005));\n"
    }
    cases = [
        _case("age", planet="Earth", seconds=1),
        Case("m", "", "age", {"planet": "Mercury", "seconds": 2}, 0),
    ]
    calls = CPP.derive_calls(cases, stub, tests)
    assert isinstance(calls, CallMap), calls
    assert calls.calls == {"age": "space_age::space_age(${seconds}).on_${planet|name}()"}
    # A planet the tests ask no member for: no such call.
    pluto = [*cases, Case("p", "", "age", {"planet": "Pluto", "seconds": 3}, 0)]
    assert isinstance(CPP.derive_calls(pluto, stub, tests), str)


LIST_TESTS = b"""\
#include "linked_list.h"
TEST_CASE("pop") {
  linked_list::List<int> list{};
  list.push(1);
  REQUIRE(list.pop() == 1);
  REQUIRE(list.count() == 0);
}
TEST_CASE("erase") {
  linked_list::List<int> list{};
  list.push(1);
  list.erase(1);
}
TEST_CASE("strings") {
  linked_list::List<std::string> list{};
  list.push("a");
}
"""


def test_a_script_makes_the_object_the_tests_make_most_and_steps_by_lambdas() -> None:
    stub = {"linked_list.h": b"namespace linked_list {}\n"}
    ops = [{"operation": "push", "value": 1}, {"operation": "delete", "value": 1},
           {"operation": "pop", "expected": 1}, {"operation": "count", "expected": 0}]  # fmt: skip
    calls = CPP.derive_calls([_case("list", operations=ops)], stub, {"t.cpp": LIST_TESTS})
    assert isinstance(calls, CallMap)
    made = "[] { return std::make_unique<linked_list::List<int>>(); }"
    assert calls.calls == {"list": f"tdd_acceptance::script({made}, ${{operations|steps}})"}
    assert calls.steps["list"]["delete"] == (  # the one member no operation's name says
        "[](auto& tdd_made) { return tdd_made.erase(${value}); }"
    )
    assert calls.steps["list"]["pop"] == "[](auto& tdd_made) { return tdd_made.pop(); }"
