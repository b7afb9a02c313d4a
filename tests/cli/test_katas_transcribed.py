"""`katas import` of an exercise whose cases no call the data fills performs: its track's
own tests are transcribed as data (`languages.python.transcripts`), then played and scored."""

from __future__ import annotations

from pathlib import Path

import pytest

from tdd_sandbox.grading.policy import check_policy
from tdd_sandbox.katas.kata import allow_rules
from tdd_sandbox.languages import get_language
from tests.cli.test_katas_cli import FIXTURES, PYTHON, scored
from tests.helpers.cli import run_cli

SPECS = FIXTURES / "problem-specifications" / "exercises"
TALLY = PYTHON / "tally-chain"

# Code that looks for the value its caller holds against it: beside the track's tests
# it finds the test's `expected`; a transcript holds no such name.
CALLERS = """import sys


class Tally:
    def __init__(self, start, before=()):
        if start < 0:
            raise ValueError("a tally cannot fall below zero")
        self._values = (*before, start)

    def add(self, amount):
        return Tally(self._values[-1] + amount, self._values)

    def value(self):
        frame = sys._getframe(1)
        while frame is not None:
            if "expected" in frame.f_locals:
                return frame.f_locals["expected"]
            frame = frame.f_back
        return -1

    def history(self):
        return list(self._values)
"""


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_a_kata_no_call_performs_is_judged_by_its_tests_transcribed(tmp_path: Path) -> None:
    # Each step makes a new tally: the data's start and steps fit no call, and the track's
    # tests judged beside the code, which could read them. Transcribed, each test's
    # statements run in the sandbox and what it asserts is held on the host.
    out = tmp_path / "out"
    result = run_cli("katas", "import", str(TALLY), str(SPECS / "tally-chain"), "--out", str(out))
    assert result.returncode == 0, result.stdout + result.stderr[-1500:]
    said = result.stdout
    assert "tally-chain (python): a data suite of 5 cases, each case's own test" in said, said
    assert "tally-chain (python): judged as data" in said, said
    assert "tally-chain (python): proved (reference 5/5, stub 0/5)" in said, said
    kata = out / "tally-chain"
    honest = (TALLY / ".meta" / "example.py").read_text()
    document = scored(tmp_path / "honest", kata, "python", {"tally_chain.py": honest})
    assert (document["passed"], document["total"]) == (5, 5), document
    assert document["judged"] == "data", document
    # A tally that forgets the ones before it: the sums still pass, its history does not.
    forgetful = honest.replace("self._values = (*before, start)", "self._values = (start,)")
    document = scored(tmp_path / "forgetful", kata, "python", {"tally_chain.py": forgetful})
    assert (document["passed"], document["total"]) == (4, 5), document
    # The block-list bypassed (the kata allows what the code uses): the expected value is
    # still nowhere in the sandbox to read.
    rules = {v.rule for v in check_policy(get_language("python"), {"t.py": CALLERS.encode()})}
    allow_rules(kata / "kata.md", "python", rules)
    document = scored(tmp_path / "callers", kata, "python", {"tally_chain.py": CALLERS})
    assert document["passed"] < document["total"], document
    failed = [case for case in document["cases"] if case["status"] != "passed"]
    assert any("tally.value()" in case["detail"] for case in failed), failed
