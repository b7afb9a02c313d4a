"""A C++ track's own Catch2 cases transcribed as data: each runs as written in the driver,
and what it asserts stays on the host. The attack throughout is an expected value reaching
the sandbox, where the code could read it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tdd_sandbox.languages.cpp.literals import read_literal
from tdd_sandbox.languages.cpp.transcripts import derive_cpp_transcripts
from tdd_sandbox.languages.literal_reader import NO, SetLiteral
from tdd_sandbox.vocabulary.cases import CallMap, Case

SECRET = "the-answer-only-the-host-holds"
HEAD = '#include "tally.h"\n#ifdef EXERCISM_TEST_SUITE\n#include <catch2/catch.hpp>\n#else\n'
HEAD += '#include "test/catch.hpp"\n#endif\n\n#include <string>\n\n'


def _transcribed(body: str, *descriptions: str) -> CallMap | str:
    cases = [Case(f"id{k}", d, "prop", {}, None) for k, d in enumerate(descriptions)]
    return derive_cpp_transcripts(cases, {"tally_test.cpp": (HEAD + body).encode()})


def _steps(calls: CallMap, case_id: str = "id0") -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = calls.restated[case_id].input["operations"]
    return steps


@pytest.mark.parametrize(
    ("text", "declared", "value"),
    [
        ("{4, 2}", "", [4, 2]),
        ("{}", "std::vector<int>", []),
        ('std::vector<std::string>{"a", "b"}', "", ["a", "b"]),
        ('"ab" "cd"', "", "abcd"),
        ("'c'", "", "c"),
        ("42u", "", 42),
        ('{{2, {"Aimee"}}}', "map<int, vector<string>>", {"2": ["Aimee"]}),
    ],
)
def test_a_literal_reads_as_the_driver_reports_the_value(
    text: str, declared: str, value: Any
) -> None:
    assert read_literal(text, {}, declared) == value


def test_a_set_reads_in_any_order_and_anything_else_is_no_literal() -> None:
    assert isinstance(read_literal("{1, 2}", {}, "std::set<int>"), SetLiteral)
    for text in ("tally(1)", "1 + 2", "t.value()", "unknown"):
        assert read_literal(text) is NO


def test_a_value_the_test_asserts_against_stays_on_the_host() -> None:
    calls = _transcribed(
        'TEST_CASE("sums", "[tag]")\n{\n'
        "    tally::tally made{1};\n"
        f'    const std::string expected = "{SECRET}";\n'
        "    REQUIRE(expected == made.label());\n"
        f'    CHECK(made.other() == std::string("{SECRET}2"));\n'
        "    REQUIRE_FALSE(made.empty());\n}\n\n"
        "#if defined(EXERCISM_RUN_ALL_TESTS)\n"
        'TEST_CASE("below")\n{\n    REQUIRE_THROWS_AS(tally::tally(-1), std::domain_error);\n}\n'
        "#endif\n",
        "sums",
        "below",
    )
    assert isinstance(calls, CallMap), calls
    assert SECRET not in json.dumps([calls.setup, calls.transcripts])
    assert _steps(calls) == [
        {"operation": "made.label()", "expected": SECRET},
        {"operation": "made.other()", "expected": SECRET + "2"},
        {"operation": "REQUIRE_FALSE(made.empty())", "expected": False},
    ]
    assert _steps(calls, "id1") == [{"operation": "tally::tally(-1)", "should_succeed": False}]
    assert "tally::tally made{1};" in calls.transcripts["id0"]
    assert calls.setup == '#include "tally.h"\n#include <string>'  # never Catch2's


def test_what_would_hold_a_literal_against_the_code_in_the_driver_is_refused() -> None:
    compared = _transcribed('TEST_CASE("long")\n{\n    REQUIRE(key().size() >= 100);\n}\n', "x")
    assert (
        compared
        == "the test 'long' cannot be transcribed: it asserts a comparison: key().size() >= 100"
    )
    matcher = _transcribed(
        'TEST_CASE("near")\n{\n    REQUIRE_THAT(x(), WithinAbs(1, 0.1));\n}\n', "x"
    )
    assert matcher == "the test 'near' cannot be transcribed: it asserts with REQUIRE_THAT"


def test_a_literal_compared_inside_what_is_asked_is_never_shipped() -> None:
    compared = _transcribed(
        'TEST_CASE("compares")\n{\n    REQUIRE((value() > 7291) == true);\n}\n', "x"
    )
    assert compared == (
        "the test 'compares' cannot be transcribed: it compares beside the code: (value() > 7291)"
    )
    helper = _transcribed(
        "void check(const tally::tally& t)\n{\n    REQUIRE(t.value() == 7291);\n}\n\n"
        'TEST_CASE("checks")\n{\n    check(tally::tally{1});\n}\n',
        "checks",
    )
    assert helper == "a function of the tests' that a test calls asserts itself"
