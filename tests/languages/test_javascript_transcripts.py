"""A JavaScript track's own Jest tests transcribed as data: each test runs as written in the
sandbox, and what it expects stays on the host. The attack throughout is an expected value
reaching the sandbox, where the code could read it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tdd_sandbox.languages.javascript.jest import SpecUnreadable, read_spec
from tdd_sandbox.languages.javascript.literals import read_literal
from tdd_sandbox.languages.javascript.transcripts import derive_javascript_transcripts
from tdd_sandbox.languages.literal_reader import NO
from tdd_sandbox.vocabulary.cases import CallMap, Case

SECRET = "the-answer-only-the-host-holds"
HEAD = "import { describe, expect, test } from '@jest/globals';\nimport { Tally } from './tally';\n"


def _transcribed(body: str, *descriptions: str, head: str = HEAD) -> CallMap | str:
    cases = [Case(f"id{k}", d, "prop", {}, None) for k, d in enumerate(descriptions)]
    source = f"{head}\ndescribe('Tally', () => {{\n{body}}});\n"
    return derive_javascript_transcripts(cases, {"tally.spec.js": source.encode()})


def _shipped(calls: CallMap) -> str:
    """Everything of the suite a driver ships: the setup, the calls and the transcripts."""
    return json.dumps([calls.setup, calls.calls, calls.transcripts])


def _steps(calls: CallMap, case_id: str = "id0") -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = calls.restated[case_id].input["operations"]
    return steps


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("[1, -2, 3.5]", [1, -2, 3.5]),
        (
            "{ a: 'x', 'b c': [true, null], 2: undefined, }",
            {"a": "x", "b c": [True, None], "2": None},
        ),
        ("`two\\nlines`", "two\nlines"),
        ('"\\u00e9\\x41"', "éA"),
        ("{ users: known }", {"users": [1]}),
    ],
)
def test_a_literal_reads_as_data(text: str, value: Any) -> None:
    assert read_literal(text, {"known": [1]}) == value


@pytest.mark.parametrize("text", ["`${x}`", "name", "[...rest]", "f(1)", "{ short }", "[1,,2]"])
def test_anything_else_is_no_literal(text: str) -> None:
    assert read_literal(text) is NO


def test_a_test_runs_after_its_describe_s_statements_and_before_each_bodies() -> None:
    spec = read_spec(
        HEAD + "const helper = (x) => x;\n"
        "describe('outer', () => {\n  let tally;\n  beforeEach(() => {\n    tally = new Tally(1);\n"
        "  });\n  describe('inner', () => {\n    xtest('adds', () => {\n      tally.add(1);\n"
        "      expect(tally.value).toBe(2);\n    });\n  });\n});\n"
    )
    (test,) = spec.tests
    assert (test.name, test.groups) == ("adds", ("outer", "inner"))
    assert test.before == ("let tally;", "tally = new Tally(1);")
    assert test.body == ("tally.add(1);", "expect(tally.value).toBe(2);")
    assert list(spec.declared) == ["helper"]
    with pytest.raises(SpecUnreadable, match="each"):
        read_spec("test.each([[1]])('n %i', (n) => {});\n")


def test_a_value_the_test_expects_stays_on_the_host() -> None:
    calls = _transcribed(
        "  test('sums', () => {\n"
        "    const tally = new Tally(1).add(2);\n"
        f"    const expected = {{ label: '{SECRET}', parts: [1, 2] }};\n"
        "    expect(tally.label()).toEqual(expected.label);\n"
        "    expect(\n      tally.parts(),\n    ).toStrictEqual(expected.parts);\n"
        "    expect(tally.empty()).toBeFalsy();\n"
        "    expect(tally.parts()).toHaveLength(2);\n"
        "  });\n",
        "sums",
    )
    assert isinstance(calls, CallMap), calls
    assert SECRET not in _shipped(calls)
    assert _steps(calls) == [
        {"operation": "tally.label()", "expected": SECRET},
        {"operation": "tally.parts()", "expected": [1, 2]},
        {"operation": "tally.empty() (toBeFalsy)", "expected": False},
        {"operation": "(tally.parts()).length", "expected": 2},
    ]
    assert "const tally = new Tally(1).add(2);" in calls.transcripts["id0"]
    assert 'import { Tally } from "./tally.js";' in calls.setup
    assert "@jest/globals" not in calls.setup


def test_an_error_it_expects_is_a_step_that_must_fail_with_its_message() -> None:
    calls = _transcribed(
        "  test('below', () => {\n"
        f"    expect(() => new Tally(-1)).toThrow(new RangeError('{SECRET}'));\n"
        "    expect(() => new Tally(-2)).toThrow(RangeError);\n"
        "    expect(() => new Tally(0)).not.toThrow();\n"
        "  });\n",
        "below",
    )
    assert isinstance(calls, CallMap), calls
    assert SECRET not in _shipped(calls)
    assert _steps(calls) == [
        {"operation": "() => new Tally(-1)", "expected": {"error": SECRET}},
        {"operation": "() => new Tally(-2)", "should_succeed": False},
        {"operation": "() => new Tally(0)"},
    ]


def test_a_value_it_also_gives_the_code_is_never_held_against() -> None:
    # The file's `start` reaches the code through the helper the test calls: held against,
    # the code could read the answer there.
    head = HEAD + f"const start = '{SECRET}';\nconst made = () => new Tally(start);\n"
    given = _transcribed(
        "  test('given', () => {\n    expect(made().label()).toEqual(start);\n  });\n",
        "given",
        head=head,
    )
    assert given == "the spec holds answers against start, which it gives the code too"
    local = _transcribed(
        f"  test('local', () => {{\n    const seed = '{SECRET}';\n"
        "    expect(new Tally(seed).label()).toEqual(seed);\n  });\n",
        "local",
    )
    assert isinstance(local, str), local


def test_a_test_holding_answers_of_the_code_s_own_is_left_out_and_a_matcher_it_lacks_refused() -> (
    None
):
    calls = _transcribed(
        "  test('same', () => {\n    expect(new Tally(1).add(1)).toEqual(new Tally(2));\n  });\n"
        "  test('value', () => {\n    expect(new Tally(2).value).toBe(2);\n  });\n"
        "  test('again', () => {\n    expect(new Tally(3).value).toBe(3);\n  });\n"
        "  test('more', () => {\n    expect(new Tally(4).value).toBe(4);\n  });\n",
        "value",
    )
    assert isinstance(calls, CallMap), calls
    assert set(calls.transcripts) == {"id0", "Tally > again", "Tally > more"}
    assert "Tally > same" in calls.exclude
    differs = _transcribed(
        "  test('differs', () => {\n    expect(new Tally(1).value).not.toBe(2);\n  });\n", "x"
    )
    assert differs == "the test 'differs' cannot be transcribed: it expects with .not.toBe(2);"


def test_a_function_of_the_spec_s_that_expects_itself_is_not_shipped() -> None:
    # Shipped, its expectation would run beside the code, a literal and all.
    head = HEAD + f"const checked = (t) => {{\n  expect(t.label()).toBe('{SECRET}');\n}};\n"
    said = _transcribed(
        "  test('checks', () => {\n    checked(new Tally(1));\n"
        "    expect(new Tally(1).value).toBe(1);\n  });\n",
        "checks",
        head=head,
    )
    assert said == "a function of the spec's that a test calls expects itself: checked"


def test_a_literal_a_test_compares_the_code_with_is_never_shipped() -> None:
    # `expect(x === 7291).toBe(true)` holds 7291 against the code in the sandbox, where the
    # code could read it off the driver; a comparison inside a function given to the code
    # is an input (list-ops' `filter((x) => x % 2 === 1)`).
    compared = _transcribed(
        "  test('compares', () => {\n    expect(new Tally(1).value === 7291).toBe(true);\n  });\n",
        "compares",
    )
    assert compared == (
        "the test 'compares' cannot be transcribed: it compares beside the code: "
        "new Tally(1).value === 7291"
    )
    given = _transcribed(
        "  test('given', () => {\n"
        "    expect(new Tally(1).keep((x) => x === 1)).toEqual([1]);\n  });\n",
        "given",
    )
    assert isinstance(given, CallMap), given


def test_a_spec_with_no_test_is_no_suite_of_none() -> None:
    # Read as a suite of no test, it left every case of the data out: a score of 0 of 0.
    said = _transcribed("  const unused = 1;\n", "adds one")
    assert said == "the track's tests hold no test it reads"
