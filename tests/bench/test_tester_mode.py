"""`bench --mode test` end to end: scripted testers on a real socket, their tests run on the
real sandbox against an Exercism exercise's reference and its mutants."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tdd_sandbox.bench.mode import Mode
from tdd_sandbox.bench.pipeline import BenchOptions, run_bench
from tdd_sandbox.katas.importer import import_katas
from tdd_sandbox.settings import load_settings
from tests.helpers.fake_llm import Answer, FakeLLM, done, no_change, plan

pytestmark = [pytest.mark.docker, pytest.mark.usefixtures("images")]
ROOT = Path(__file__).resolve().parents[2]
LEAP = ROOT / "tests" / "fixtures" / "exercism" / "python" / "exercises" / "practice" / "leap"


def _tests(*cases: tuple[int, bool]) -> str:
    body = "".join(
        f"\n\ndef test_{year}() -> None:\n    assert leap_year({year}) is {leap}\n"
        for year, leap in cases
    )
    return f"from leap import leap_year{body}"


# Every rule of the kata, at and beside each boundary.
THOROUGH = plan(("tests/test_leap.py", _tests(
    (2015, False), (1996, True), (2100, False), (2000, True), (1900, False), (2400, True),
    (1800, False), (2016, True), (1997, False),
)))  # fmt: skip
WEAK = plan(("tests/test_leap.py", _tests((1996, True))))
WRONG = plan(("tests/test_leap.py", _tests((1900, True))))
# Tests that check nothing but a coin they toss: once run on the reference, half pass and
# count; on a mutant, one of those failing by luck was a kill. They scored 1.0, as honest
# tests do (issue #46).
COINS = plan(("tests/test_leap.py", "import random\n\nfrom leap import leap_year\n" + "".join(
    f"\n\ndef test_coin_{i}() -> None:\n    assert leap_year(2000) and random.random() < 0.5\n"
    for i in range(60)
)))  # fmt: skip


def test_a_testers_tests_are_scored_by_the_mutants_they_kill(tmp_path: Path) -> None:
    katas = tmp_path / "katas"
    import_katas([LEAP], katas)
    shutil.copytree(ROOT / "katas" / "fizzbuzz", katas / "fizzbuzz")  # no reference: skipped
    script = {"thorough-t": [THOROUGH], "weak-t": [WEAK], "wrong-t": [WRONG, WRONG]}
    models = {n: {"all": f"custom:{n}-other", "tester": f"custom:{n}-t"} for n in
              ("thorough", "weak", "wrong")}  # fmt: skip
    out = tmp_path / "out"
    with FakeLLM(script) as fake:
        settings = load_settings(
            overrides={"llm": {"base_url": fake.base_url}, "bench": {"models": models}}
        )
        options = BenchOptions(
            models=list(models), katas=[katas], languages=["python"], repeats=1, out=out,
            mode=Mode.TEST,
        )  # fmt: skip
        summary = run_bench(options, settings)
        asked = sorted(str(r["model"]) for r in fake.requests)
    # A first try with a wrong test hears which, and tries once more.
    assert asked == ["thorough-t", "weak-t", "wrong-t", "wrong-t"]
    by_model = {m["model"]: m for m in summary["models"]}
    thorough, weak, wrong = by_model["thorough"], by_model["weak"], by_model["wrong"]
    counted = thorough["mutants_counted"]
    assert counted == weak["mutants_counted"] == wrong["mutants_counted"] > 5
    assert thorough["mutation_score"] == 1.0
    assert 0 < weak["mutation_score"] < 1.0
    assert (wrong["mutation_score"], wrong["wrong_tests"], wrong["tests_written"]) == (0.0, 1, 1)
    assert (thorough["wrong_tests"], thorough["tests_written"]) == (0, 9)
    assert [m["model"] for m in summary["models"]] == ["thorough", "weak", "wrong"]
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert {r["kata"] for r in rows} == {"leap"}
    assert any("fizzbuzz in python: no reference" in s for s in summary["skipped"])
    killed = next(r for r in rows if r["model"] == "thorough")["killed"]
    assert "leap.py:2: and -> or" in killed
    board = (out / "leaderboard.md").read_text()
    assert "Test mode (mutants of the reference killed)" in board
    assert f"| thorough | 100% | {counted} / {counted} | 0 / 0 / 9 |" in board


# Tests of the code's text, not its behaviour: the reference's length (as a first try's
# feedback once quoted it) tells it from every mutant that changes a token's length, and a
# digest from all of them. It scored 1.0 beside the honest THOROUGH.
SOURCE_LENGTH = len((LEAP / ".meta" / "example.py").read_text())
READER = plan(("tests/test_leap.py", (
    "import pytest\n\nfrom leap import leap_year\n\n\n"
    "def test_the_code_is_the_reference(request: pytest.FixtureRequest) -> None:\n"
    "    text = (request.config.rootpath / 'leap.py').read_text()\n"
    f"    assert leap_year(2000) and len(text) == {SOURCE_LENGTH}\n"
)))  # fmt: skip


def _leap_by_testers(tmp_path: Path, script: dict[str, list[Answer]]) -> dict[str, Any]:
    """Test mode on the leap exercise, one model a scripted tester (`<name>-t`): each model's
    figures by name."""
    katas = tmp_path / "katas"
    import_katas([LEAP], katas)
    names = [tester.removesuffix("-t") for tester in script]
    models = {n: {"all": f"custom:{n}-other", "tester": f"custom:{n}-t"} for n in names}
    with FakeLLM(script) as fake:
        settings = load_settings(
            overrides={"llm": {"base_url": fake.base_url}, "bench": {"models": models}}
        )
        options = BenchOptions(
            models=names, katas=[katas], languages=["python"], repeats=1,
            out=tmp_path / "out", mode=Mode.TEST,
        )  # fmt: skip
        summary = run_bench(options, settings)
    return {m["model"]: m for m in summary["models"]}


def test_tests_that_read_the_code_s_text_score_nothing(tmp_path: Path) -> None:
    by_model = _leap_by_testers(tmp_path, {"reader-t": [READER, READER],
                                           "thorough-t": [THOROUGH]})  # fmt: skip
    reader, thorough = by_model["reader"], by_model["thorough"]
    # Passed on the reference and failed on a blank line: it read the text.
    assert (reader["mutation_score"], reader["tests_written"]) == (0.0, 1), reader
    assert thorough["mutation_score"] == 1.0  # behaviour: the same code as text is no bug


def test_tests_that_pass_by_luck_are_flaky_and_cost_what_they_add(tmp_path: Path) -> None:
    # Some fail on the reference at once: the tester hears which, and answers the same.
    by_model = _leap_by_testers(tmp_path, {"coins-t": [COINS, COINS], "thorough-t": [THOROUGH]})
    coins, thorough = by_model["coins"], by_model["thorough"]
    assert (thorough["mutation_score"], thorough["flaky_tests"]) == (1.0, 0)
    # Sound on the reference: passed twice, about a quarter of 60; flaky: about half.
    assert coins["flaky_tests"] > 15, coins
    assert coins["mutation_score"] < 0.5, coins


def test_the_loops_final_suite_is_measured_by_the_same_mutants(tmp_path: Path) -> None:
    katas = tmp_path / "katas"
    import_katas([LEAP], katas)
    right = ("leap.py", "def leap_year(year: int) -> bool:\n"
             "    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)\n")  # fmt: skip
    one_test = ("tests/test_leap.py", "from leap import leap_year\n\n\n"
                "def test_2000() -> None:\n    assert leap_year(2000) is True\n")  # fmt: skip
    script = {"loop-t": [plan(one_test), done()], "loop-i": [plan(right)],
              "loop-r": [no_change()]}  # fmt: skip
    models = {"loop": {"tester": "custom:loop-t", "implementer": "custom:loop-i",
                       "refactorer": "custom:loop-r"}}  # fmt: skip
    with FakeLLM(script) as fake:
        settings = load_settings(
            overrides={"llm": {"base_url": fake.base_url}, "bench": {"models": models}}
        )
        options = BenchOptions(
            models=["loop"], katas=[katas], languages=["python"], repeats=1,
            out=tmp_path / "out",
        )  # fmt: skip
        summary = run_bench(options, settings)
    (model,) = summary["models"]
    assert model["acceptance_pass_rate"] == 1.0  # the loop's score is the hidden suite's
    # One test of one leap year catches some of the bugs, not all: the scaffold's own test
    # is not the tester's.
    assert (model["tests_written"], model["wrong_tests"]) == (1, 0)
    assert 0 < model["mutation_score"] < 1
    assert model["tester_valid_red_rate"] == 1.0
