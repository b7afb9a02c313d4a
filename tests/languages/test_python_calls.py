"""Calls read off Exercism's Python track: the stub's functions perform the canonical
properties, the tests say which errors count."""

from __future__ import annotations

import pytest

from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.vocabulary.cases import CallMap, Case

PYTHON = get_language("python")


def _case(prop: str, **given: object) -> Case:
    return Case(id=f"{prop}-{len(given)}", description="", property=prop, input=given, expected=0)


def test_a_property_is_the_stub_function_of_its_snake_case_name() -> None:
    stub = {"leap.py": b"def leap_year(year):\n    pass\n"}
    tests = {"tests/leap_test.py": b"from leap import leap_year\n"}
    calls = PYTHON.derive_calls([_case("leapYear", year=2015)], stub, tests)
    wanted = CallMap(setup="from leap import leap_year", calls={"leapYear": "leap_year(year)"})
    assert calls == wanted


def test_other_parameter_names_take_the_inputs_in_order_and_the_tests_name_the_errors() -> None:
    stub = {
        "all_your_base.py": b"def rebase(input_base, digits, output_base):\n    pass\n",
        "helpers.py": b"def unused():\n    pass\n",
    }
    tests = {"tests/all_your_base_test.py": b"with self.assertRaises(ValueError) as err:\n"}
    cases = [_case("rebase", inputBase=2, digits=[1], outputBase=10)]
    calls = PYTHON.derive_calls(cases, stub, tests)
    assert isinstance(calls, CallMap)
    assert calls.calls == {"rebase": "rebase(inputBase, digits, outputBase)"}
    assert calls.errors == frozenset({"ValueError"})


HELPER = b"""
    def assertRaisesWithMessage(self, exception):
        return self.assertRaisesRegex(exception, r".+")
"""


@pytest.mark.parametrize(
    ("raised", "counted"),
    [(b"ValueError", frozenset({"ValueError"})), (b"Exception", frozenset())],
)
def test_a_tracks_own_raises_helper_names_the_errors_not_its_parameter(
    raised: bytes, counted: frozenset[str]
) -> None:
    # two-bucket's tests: `assertRaisesWithMessage(ValueError)`, and the helper's own
    # `assertRaisesRegex(exception, ...)` made "exception" the one kind that counted, so the
    # reference's ValueError was a wrong answer. Bowling's `Exception` is any error.
    stub = {"two_bucket.py": b"def measure(size, goal):\n    pass\n"}
    test = b"with self.assertRaisesWithMessage(" + raised + b"):\n    measure(1, 2)\n"
    calls = PYTHON.derive_calls(
        [_case("measure", size=1, goal=2)], stub, {"two_bucket_test.py": test + HELPER}
    )
    assert isinstance(calls, CallMap)
    assert calls.errors == counted


def test_what_no_stub_function_performs_is_a_reason_not_a_guess() -> None:
    stub = {"bank.py": b"class BankAccount:\n    def open(self):\n        pass\n"}
    reason = PYTHON.derive_calls([_case("open")], stub, {})
    assert reason == "no function of the stub performs the property open (open)"
    stub = {"two_fer.py": b"def two_fer(name='One'):\n    pass\n"}
    reason = PYTHON.derive_calls([_case("twoFer", name="Alice"), _case("twoFer")], stub, {})
    assert reason == "the cases of twoFer do not all give the same inputs"


@pytest.mark.parametrize(
    ("test", "joined"),
    [
        ('    text = "A1"\n    assert transpose(text) == "A\\n1"', True),
        ('    assert transpose("\\n".join(["A", "B"])) == "AB"', True),
        ('    assert transpose("AB" + "\\n" + "C") == "AC\\nB"', True),
        ('    assert transpose(["A", "B"]) == ["AB"]', False),
        ('    text = ["A"]\n    assert transpose(text) == ["A"]', False),
    ],
)
def test_rows_the_tracks_tests_pass_as_text_are_joined_as_lines(test: str, joined: bool) -> None:
    # transpose's Python tests call `transpose(text)` with `text = "A1"` where the canonical
    # data lists the rows: the list reached `.splitlines()` and the reference scored 0/12.
    stub = {"transpose.py": b"def transpose(lines):\n    pass\n"}
    tests = {"transpose_test.py": f"def test_it():\n{test}\n".encode()}
    calls = PYTHON.derive_calls([_case("transpose", lines=["AB", "C"])], stub, tests)
    assert isinstance(calls, CallMap)
    call = 'transpose("\\n".join(lines))' if joined else "transpose(lines)"
    assert calls.calls == {"transpose": call}


def test_an_object_the_tests_make_and_use_performs_what_no_function_does() -> None:
    # Today's luhn (`Luhn(card).valid()`) and scale-generator (`Scale("C").interval("MMm")`)
    # define classes, not functions: their cases stayed with the tracks' tests.
    stub = {"scale.py": b"class Scale:\n    def __init__(self, tonic):\n        pass\n"}
    tests = {
        "scale_test.py": b"from scale import Scale\n\n"
        b"def test_a():\n    assert Scale('C').chromatic() == ['C']\n\n"
        b"def test_b():\n    scale = Scale('G')\n    assert scale.interval('MMm') == ['G']\n"
        b"    assert scale._notes == []\n"
    }
    cases = [_case("chromatic", tonic="C"), _case("interval", tonic="G", intervals="MMm")]
    calls = PYTHON.derive_calls(cases, stub, tests)
    assert calls == CallMap(
        setup="from scale import Scale",
        calls={
            "chromatic": "Scale(tonic).chromatic()",
            "interval": "Scale(tonic).interval(intervals)",
        },
    )


def test_a_getter_and_a_board_given_as_text_are_read_off_the_tests() -> None:
    stub = {"connect.py": b"class ConnectGame:\n    pass\n"}
    tests = {
        "connect_test.py": b'def test_x():\n    game = ConnectGame("""X""")\n'
        b"    winner = game.get_winner()\n    assert winner == 'X'\n"
    }
    calls = PYTHON.derive_calls([_case("winner", board=["X"])], stub, tests)
    assert isinstance(calls, CallMap)
    assert calls.calls == {"winner": 'ConnectGame("\\n".join(board)).get_winner()'}


@pytest.mark.parametrize(
    "test",
    [
        "    assert Phone('1').number == '1'\n    assert Phone('1').area_code == '1'",
        "    assert Other('1').number == '1'",
        "    assert Phone(text='1').number == '1'",
    ],
)
def test_an_object_used_two_ways_or_not_the_stubs_is_no_guess(test: str) -> None:
    stub = {"phone.py": b"class Phone:\n    pass\n"}
    tests = {"phone_test.py": f"def test_x():\n{test}\n".encode()}
    reason = PYTHON.derive_calls([_case("clean", phrase="1")], stub, tests)
    assert reason == "no function of the stub performs the property clean (clean)"


def test_the_member_the_tests_use_most_performs_a_kata_s_one_property() -> None:
    # phone-number's tests read `.number` in most tests, `.area_code` and `.pretty()` in a
    # test or two: three members, so no guess, and the kata stayed with its track's tests.
    stub = {"phone.py": b"class Phone:\n    def __init__(self, number):\n        pass\n"}
    reads = ["Phone('1').number", "Phone('2').number", "Phone('3').number"]
    reads += ["Phone('4').area_code", "Phone('5').pretty()", "Phone('6').pretty()"]
    body = "".join(f"def test_{k}():\n    assert {read}\n\n" for k, read in enumerate(reads))
    calls = PYTHON.derive_calls(
        [_case("clean", phrase="1")], stub, {"phone_test.py": body.encode()}
    )
    assert isinstance(calls, CallMap)
    assert calls.calls == {"clean": "Phone(phrase).number"}
    # Read twice in one test is one use: a tie stays no guess.
    twice = "def test_a():\n    assert Phone('1').number\n    assert Phone('2').number\n\n"
    twice += "def test_b():\n    assert Phone('1').area_code\n"
    reason = PYTHON.derive_calls([_case("clean", phrase="1")], stub, {"t.py": twice.encode()})
    assert isinstance(reason, str)


def test_a_function_the_data_gives_is_a_lambda_written_on_the_host() -> None:
    # list-ops' `(x) -> x modulo 2 == 1` reached `filter` as a string: "'str' object is not
    # callable", and the kata stayed with its track's tests.
    stub = {"list_ops.py": b"def filter(function, list):\n    pass\n"}
    cases = [
        _case("filter", function="(x) -> x modulo 2 == 1", list=[1, 2]),
        _case("filter", function="(acc, el) -> el / acc", list=[]),
    ]
    calls = PYTHON.derive_calls(cases, stub, {})
    assert isinstance(calls, CallMap)
    assert calls.calls == {"filter": "filter(tdd_functions[function], list)"}
    assert calls.setup == (
        "from list_ops import filter\ntdd_functions = {"
        "'(acc, el) -> el / acc': lambda acc, el: el / acc, "
        "'(x) -> x modulo 2 == 1': lambda x: x % 2 == 1}"
    )
    # Text beyond the notation's grammar is no function: it stays the string it is.
    for text in ("(x) -> __import__('os')", "(x) -> y + 1", "x -> x"):
        plain = PYTHON.derive_calls([_case("filter", function=text, list=[])], stub, {})
        assert isinstance(plain, CallMap)
        assert plain.calls == {"filter": "filter(function, list)"}


def test_a_list_the_tests_pass_starred_is_given_so_with_the_keywords_they_pass() -> None:
    # proverb: the stub's `def proverb():` declares nothing, and every test calls
    # `proverb(*input_data, qualifier=None)` ("proverb takes 0 arguments where recite gives 1").
    stub = {"proverb.py": b"def proverb():\n    pass\n"}
    tests = {"proverb_test.py": b"from proverb import proverb\n\nclass T:\n"
             b"    def test_a(self):\n        input_data = ['nail']\n"
             b"        self.assertEqual(proverb(*input_data, qualifier=None), [])\n\n"
             b"    def test_b(self):\n        input_data = []\n"
             b"        self.assertEqual(proverb(*input_data, qualifier=None), [])\n"}  # fmt: skip
    calls = PYTHON.derive_calls([_case("recite", strings=["nail"])], stub, tests)
    assert isinstance(calls, CallMap)
    assert calls.calls == {"recite": "proverb(*strings, qualifier=None)"}
    # Two tests of the track's own qualify it, as here one of three: most do not.
    qualified = tests["proverb_test.py"] + (b"\n    def test_c(self):\n"
                b"        self.assertEqual(proverb(*[], qualifier='horse'), [])\n")  # fmt: skip
    calls = PYTHON.derive_calls([_case("recite", strings=["nail"])], stub, {"t.py": qualified})
    assert isinstance(calls, CallMap)
    assert calls.calls == {"recite": "proverb(*strings, qualifier=None)"}
    # Calls that differ in their keywords, as many one way as the other: no guess.
    horse = tests["proverb_test.py"].replace(b"=None), [])\n", b"='horse'), [])\n", 1)
    other = {"proverb_test.py": horse}
    assert isinstance(PYTHON.derive_calls([_case("recite", strings=["nail"])], stub, other), str)


def test_an_object_the_stub_builds_step_by_step_replays_the_list_input() -> None:
    # Bowling: before, "no function of the stub performs the property score".
    stub = {
        "bowling.py": b"class BowlingGame:\n    def __init__(self):\n        pass\n\n"
        b"    def roll(self, pins):\n        pass\n\n    def score(self):\n        pass\n"
    }
    tests = {"bowling_test.py": b"with self.assertRaisesWithMessage(Exception):\n"}
    cases = [_case("score", previousRolls=[0]), _case("roll", previousRolls=[10], roll=11)]
    calls = PYTHON.derive_calls(cases, stub, tests)
    assert isinstance(calls, CallMap)
    built = "tdd_fold(BowlingGame(), 'roll', previousRolls, False)"
    replayed = "tdd_fold(BowlingGame(), 'roll', [*previousRolls, roll], False, True)"
    assert calls.calls == {"score": f"{built}.score()", "roll": replayed}  # the last roll too
    assert calls.setup.startswith("from bowling import BowlingGame\n")
    assert calls.errors == frozenset()  # `Exception`: any error of the code's counts
