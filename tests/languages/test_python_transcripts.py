"""A Python track's own tests transcribed as data: each case's test runs as written in the
sandbox, and what it asserts stays on the host. The attack throughout is an expected value
reaching the sandbox, where the code could read it."""

from __future__ import annotations

import json
from typing import Any

from tdd_sandbox.languages.python.transcripts import derive_python_transcripts
from tdd_sandbox.languages.transcribing import TRANSCRIBED
from tdd_sandbox.vocabulary.cases import TRACK_TEST, CallMap, Case

SECRET = "the-answer-only-the-host-holds"


def _cases(*descriptions: str) -> list[Case]:
    return [Case(f"id{k}", d, "prop", {}, None) for k, d in enumerate(descriptions)]


def _transcribed(body: str, *descriptions: str, head: str = "") -> CallMap | str:
    source = (
        "import unittest\nfrom tally import Tally, LIMIT\n"
        f"{head}\n\nclass TallyTest(unittest.TestCase):\n{body}"
    )
    return derive_python_transcripts(
        _cases(*descriptions), {"tally_test.py": source.encode()}, frozenset({"ValueError"})
    )


def _shipped(calls: CallMap) -> str:
    """Everything of the suite a driver ships: the setup, the calls and the transcripts."""
    return json.dumps([calls.setup, calls.calls, calls.transcripts])


def _steps(calls: CallMap, case_id: str = "id0") -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = calls.restated[case_id].input["operations"]
    return steps


def test_a_value_the_test_asserts_against_stays_on_the_host() -> None:
    calls = _transcribed(
        "    def test_sums(self):\n"
        "        tally = Tally(1).add(2)\n"
        f"        expected = {SECRET!r}\n"
        "        self.assertEqual(tally.label(), expected)\n"
        f"        self.assertEqual({SECRET + '2'!r}, tally.other())\n",
        "sums",
    )
    assert isinstance(calls, CallMap), calls
    assert SECRET not in _shipped(calls)
    assert _steps(calls) == [
        {"operation": "tally.label()", "expected": SECRET},
        {"operation": "tally.other()", "expected": SECRET + "2"},
    ]
    assert "tally = Tally(1).add(2)" in calls.transcripts["id0"]
    assert calls.restated["id0"].expected == {}


def test_a_literal_the_code_is_given_is_shipped_as_an_input() -> None:
    calls = _transcribed(
        "    def test_given(self):\n"
        "        start = [1, 2]\n"
        "        self.assertEqual(Tally(start).total(), 3)\n",
        "given",
    )
    assert isinstance(calls, CallMap), calls
    assert "start = [1, 2]" in calls.transcripts["id0"]
    assert _steps(calls) == [{"operation": "Tally(start).total()", "expected": 3}]


def test_an_error_the_test_expects_is_a_step_that_must_fail_with_its_message() -> None:
    calls = _transcribed(
        "    def test_below(self):\n"
        "        with self.assertRaises(ValueError) as err:\n"
        "            Tally(-1)\n"
        "        self.assertEqual(type(err.exception), ValueError)\n"
        f"        self.assertEqual(err.exception.args[0], {SECRET!r})\n"
        "    def test_any_message(self):\n"
        "        with self.assertRaises(ValueError):\n"
        "            Tally(-2)\n",
        "below",
        "any message",
    )
    assert isinstance(calls, CallMap), calls
    assert SECRET not in _shipped(calls)
    assert _steps(calls) == [{"operation": "Tally(-1)", "expected": {"error": SECRET}}]
    assert _steps(calls, "id1") == [{"operation": "Tally(-2)", "should_succeed": False}]
    assert calls.errors == {"ValueError"}


def test_items_the_test_takes_in_any_order_are_listed_and_compared_so() -> None:
    calls = _transcribed(
        "    def test_seen(self):\n"
        "        self.assertCountEqual(Tally(0).seen(), [2, 1])\n"
        "        self.assertEqual(Tally(0).kinds(), {(0, 1), (2, 3)})\n",
        "seen",
    )
    assert isinstance(calls, CallMap), calls
    assert "list(Tally(0).seen())" in calls.transcripts["id0"]
    assert "list(Tally(0).kinds())" in calls.transcripts["id0"]
    assert _steps(calls) == [
        {"operation": "Tally(0).seen()", "expected": [2, 1], "unordered": True},
        {"operation": "Tally(0).kinds()", "expected": [[0, 1], [2, 3]], "unordered": True},
    ]


def test_a_helper_of_the_test_class_that_asserts_nothing_is_shipped_where_used() -> None:
    calls = _transcribed(
        "    def test_watched(self):\n"
        "        seen = []\n"
        "        Tally(0, self.watcher(seen)).add(1)\n"
        "        self.assertEqual(seen, [1])\n"
        "    def watcher(self, seen):\n"
        "        return seen.append\n"
        "    def unused(self):\n"
        f"        return {SECRET!r}\n",
        "watched",
    )
    assert isinstance(calls, CallMap), calls
    assert "def watcher(seen):" in calls.setup
    assert "Tally(0, watcher(seen)).add(1)" in calls.transcripts["id0"]
    assert SECRET not in _shipped(calls)


def test_a_value_the_code_chooses_is_no_value_to_hold_against() -> None:
    # go-counting's `self.assertEqual(stone, BLACK)`: BLACK is the code's own to define.
    test = "    def test_limit(self):\n        self.assertEqual(Tally(0).top(), LIMIT)\n"
    said = _transcribed(test, "limit")
    assert said == (
        "the test test_limit cannot be transcribed: it asserts against LIMIT, a name of the code's"
    )


def test_a_test_that_holds_two_answers_against_each_other_is_left_out_and_said() -> None:
    same = (
        "    def test_same(self):\n"
        "        self.assertEqual(Tally(1).add(1).value(), Tally(2).value())\n"
    )
    value = "    def test_value(self):\n        self.assertEqual(Tally(2).value(), 2)\n"
    also = "    def test_also(self):\n        self.assertEqual(Tally(3).value(), 3)\n"
    more = "    def test_more(self):\n        self.assertEqual(Tally(4).value(), 4)\n"
    calls = _transcribed(same + value + also + more, "same", "value", "also", "more")
    assert isinstance(calls, CallMap), calls
    assert calls.exclude == {"id0"}
    assert set(calls.transcripts) == {"id1", "id2", "id3"}
    # More than a quarter left out, the kata would not be the track's.
    again = same.replace("same", "again")
    most = _transcribed(same + again + value + also, "same", "again", "value", "also")
    assert most == "2 of its 4 tests hold two answers of the code's own"


def test_an_assertion_of_the_track_s_own_leaves_the_track_s_tests() -> None:
    helper = _transcribed(
        "    def test_chain(self):\n        self.assert_chain(Tally(1))\n", "chain"
    )
    assert helper == "the test test_chain cannot be transcribed: it asserts with assert_chain"
    inside = _transcribed(
        "    def test_raised(self):\n"
        "        with self.assertRaises(ValueError):\n"
        "            self.assertEqual(Tally(-1).value(), 0)\n",
        "raised",
    )
    assert (
        inside
        == "the test test_raised cannot be transcribed: it asserts inside the block that must fail"
    )


def test_a_comparison_asserted_true_is_held_on_the_host_or_not_transcribed() -> None:
    # `assertTrue(x == 3)` is `assertEqual(x, 3)`; `assertTrue(x in [1, 2])` would hold its
    # literal against the code in the sandbox, and the code's own `__eq__` would judge.
    equal = _transcribed(
        f"    def test_equal(self):\n        self.assertTrue(Tally(1).label() == {SECRET!r})\n",
        "equal",
    )
    assert isinstance(equal, CallMap), equal
    assert SECRET not in _shipped(equal)
    assert _steps(equal) == [{"operation": "Tally(1).label()", "expected": SECRET}]
    member = _transcribed(
        f"    def test_member(self):\n        self.assertTrue(Tally(1).label() in [{SECRET!r}])\n",
        "member",
    )
    assert member == (
        "the test test_member cannot be transcribed: it asserts a comparison: "
        f"Tally(1).label() in [{SECRET!r}]"
    )


def test_every_test_is_a_case_the_data_s_where_named_as_one_else_the_track_s_own() -> None:
    # The track names its tests its own way: each is judged, none left unjudged, and the
    # data's cases no test is named as are left to those tests.
    calls = _transcribed(
        "    def test_sums(self):\n        self.assertEqual(Tally(1).add(2).value(), 3)\n"
        "    def test_a_start_of_its_own(self):\n        self.assertEqual(Tally(7).value(), 7)\n",
        "sums",
        "a case the track words otherwise",
    )
    assert isinstance(calls, CallMap), calls
    assert set(calls.transcripts) == {"id0", "a start of its own"}
    assert calls.restated["a start of its own"].description == "a start of its own"
    assert calls.restated["id0"].description == ""
    assert calls.exclude == {"id1"}
    assert calls.calls == {"prop": TRANSCRIBED, TRACK_TEST: TRANSCRIBED}


def test_a_helper_that_asserts_is_never_shipped() -> None:
    # Shipped, its assertion would run beside the code, a literal and all.
    said = _transcribed(
        "    def test_checks(self):\n        self.check(Tally(1))\n"
        "        self.assertEqual(Tally(1).value(), 1)\n"
        "    def check(self, tally):\n"
        f"        assert tally.label() == {SECRET!r}\n",
        "checks",
    )
    assert said == (
        "the test test_checks cannot be transcribed: it uses the test case itself: "
        "self.check(Tally(1))"
    )


def test_a_literal_compared_inside_what_is_asked_is_never_shipped() -> None:
    compared = _transcribed(
        "    def test_compares(self):\n        self.assertEqual(Tally(1).value() > 7291, True)\n",
        "compares",
    )
    assert compared == (
        "the test test_compares cannot be transcribed: it compares beside the code: "
        "Tally(1).value() > 7291"
    )


def test_none_asserted_of_a_value_is_no_comparison_of_the_test_s() -> None:
    calls = _transcribed(
        "    def test_none(self):\n        self.assertIsNone(Tally(0).left())\n", "none"
    )
    assert isinstance(calls, CallMap), calls
    assert _steps(calls) == [{"operation": "assertIsNone(Tally(0).left())", "expected": True}]
