"""Objects built step by step (`folding`), scored in a real sandbox: the history replayed
one call at a time, and a step that raises fails its case, never passes one that expects an
error (the attack: raise at the first roll, and every "cannot roll" case would pass)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tdd_sandbox.acceptance.scorer import run_acceptance
from tdd_sandbox.acceptance.suite import Suite, load_suite
from tdd_sandbox.execution.docker_checker import DockerChecker
from tdd_sandbox.grading.acceptance import CaseStatus, flatten_cases
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.settings import load_settings

pytestmark = [pytest.mark.docker, pytest.mark.usefixtures("images")]

PY_STUB = b"""\
class Game:
    def __init__(self):
        pass

    def roll(self, pins):
        pass

    def score(self):
        pass
"""
PY_HONEST = """\
class Game:
    def __init__(self):
        self.rolls = []

    def roll(self, pins):
        if pins > 10 or sum(self.rolls) + pins > 20:
            raise ValueError("too many pins")
        self.rolls.append(pins)

    def score(self):
        return sum(self.rolls)
"""
PY_RAISES = """\
class Game:
    def roll(self, pins):
        raise ValueError("too many pins")  # the message the kata's errors say

    def score(self):
        raise ValueError("too many pins")
"""
JS_STUB = b"""\
export class Game {
  roll() {
    throw new Error('Remove this statement and implement this function');
  }

  score() {
    throw new Error('Remove this statement and implement this function');
  }
}
"""
JS_TESTS = b"""\
import { Game } from './game';
test('sum', () => {
  const game = new Game();
  [3, 4].forEach((roll) => game.roll(roll));
  expect(game.score()).toEqual(7);
});
"""
JS_HONEST = """\
export class Game {
  constructor() {
    this.rolls = [];
  }

  roll(pins) {
    const total = this.rolls.reduce((a, b) => a + b, 0);
    if (pins > 10 || total + pins > 20) throw new Error('too many pins');
    this.rolls.push(pins);
  }

  score() {
    return this.rolls.reduce((a, b) => a + b, 0);
  }
}
"""
JS_RAISES = """\
export class Game {
  roll() {
    throw new Error('too many pins'); // the message the kata's errors say
  }

  score() {
    throw new Error('too many pins');
  }
}
"""
RS_STUB = b"""\
pub struct Game {}

impl Game {
    pub fn new() -> Self {
        todo!()
    }

    pub fn roll(&mut self, pins: u16) -> Result<(), String> {
        todo!("{pins}")
    }

    pub fn score(&self) -> Option<u16> {
        todo!()
    }
}
"""
RS_HONEST = """\
pub struct Game {
    rolls: Vec<u16>,
}

impl Game {
    pub fn new() -> Self {
        Game { rolls: Vec::new() }
    }

    pub fn roll(&mut self, pins: u16) -> Result<(), String> {
        if pins > 10 || self.rolls.iter().sum::<u16>() + pins > 20 {
            return Err("too many pins".to_string());
        }
        self.rolls.push(pins);
        Ok(())
    }

    pub fn score(&self) -> Option<u16> {
        Some(self.rolls.iter().sum())
    }
}
"""
RS_RAISES = """\
pub struct Game {}

impl Game {
    pub fn new() -> Self {
        Game {}
    }

    pub fn roll(&mut self, _pins: u16) -> Result<(), String> {
        Err("too many pins".to_string())
    }

    pub fn score(&self) -> Option<u16> {
        None
    }
}
"""
JAVA_STUB = b"""\
class Game {
    void roll(int pins) {
        throw new UnsupportedOperationException("Delete this statement.");
    }

    int score() {
        throw new UnsupportedOperationException("Delete this statement.");
    }
}
"""
JAVA_HONEST = """\
import java.util.ArrayList;
import java.util.List;

class Game {
    private final List<Integer> rolls = new ArrayList<>();

    void roll(int pins) {
        if (pins > 10 || score() + pins > 20) {
            throw new IllegalStateException("too many pins");
        }
        rolls.add(pins);
    }

    int score() {
        return rolls.stream().mapToInt(Integer::intValue).sum();
    }
}
"""
JAVA_RAISES = """\
class Game {
    void roll(int pins) {
        throw new IllegalStateException("too many pins");
    }

    int score() {
        throw new IllegalStateException("too many pins");
    }
}
"""
GO_STUB = b"""\
package kata

func NewGame() *Game {
	panic("Please implement the NewGame function")
}

func (g *Game) Roll(pins int) error {
	panic("Please implement the Roll function")
}

func (g *Game) Score() (int, error) {
	panic("Please implement the Score function")
}
"""
GO_HONEST = """\
package kata

import "errors"

type Game struct{ rolls []int }

func NewGame() *Game { return &Game{} }

func (g *Game) total() int {
	sum := 0
	for _, r := range g.rolls {
		sum += r
	}
	return sum
}

func (g *Game) Roll(pins int) error {
	if pins > 10 || g.total()+pins > 20 {
		return errors.New("too many pins")
	}
	g.rolls = append(g.rolls, pins)
	return nil
}

func (g *Game) Score() (int, error) { return g.total(), nil }
"""
GO_RAISES = """\
package kata

import "errors"

type Game struct{}

func NewGame() *Game { return &Game{} }

func (g *Game) Roll(pins int) error { return errors.New("too many pins") }

func (g *Game) Score() (int, error) { return 0, errors.New("too many pins") }
"""
KATAS = {  # language -> the stub's file, the stub, the track's tests, honest code, the attack
    "python": ("game.py", PY_STUB, {}, PY_HONEST, PY_RAISES),
    "javascript": ("game.js", JS_STUB, {"game.spec.js": JS_TESTS}, JS_HONEST, JS_RAISES),
    "rust": ("src/lib.rs", RS_STUB, {}, RS_HONEST, RS_RAISES),
    "java": ("src/Game.java", JAVA_STUB, {}, JAVA_HONEST, JAVA_RAISES),
    "go": ("kata.go", GO_STUB, {}, GO_HONEST, GO_RAISES),
}
DOCUMENT: dict[str, Any] = {"cases": [
    {"description": "sum", "property": "score", "input": {"previousRolls": [3, 4]},
     "expected": 7},
    {"description": "too many", "property": "roll", "input": {"previousRolls": [9, 9], "roll": 3},
     "expected": {"error": "too many pins"}},
    {"description": "one too many", "property": "roll",
     "input": {"previousRolls": [5, 5], "roll": 11}, "expected": {"error": "too many pins"}},
]}  # fmt: skip


@pytest.fixture(scope="module")
def checker() -> Iterator[DockerChecker]:
    with DockerChecker(load_settings(), run_id="pytest-folds") as made:
        yield made


def _suite(tmp_path: Path, language: str) -> Suite:
    folder = tmp_path / "kata" / "acceptance"
    folder.mkdir(parents=True)
    (folder / "canonical-data.json").write_text(json.dumps(DOCUMENT))
    cases = flatten_cases(DOCUMENT, source="-")
    path, stub, tests, _, _ = KATAS[language]
    plugin = get_language(language)
    stub_tree = {**{p: t.encode() for p, t in plugin.scaffold().items()}, path: stub}
    calls = plugin.derive_calls(cases, stub_tree, tests)
    assert not isinstance(calls, str), calls
    (folder / "calls.yaml").write_text(json.dumps({language: calls.model_dump(mode="json")}))
    return load_suite(tmp_path / "kata")


@pytest.mark.parametrize("language", sorted(KATAS))
@pytest.mark.parametrize("attack", [False, True], ids=["honest", "raises_at_once"])
def test_a_history_is_replayed_and_a_step_that_raises_fails_its_case(
    checker: DockerChecker, tmp_path: Path, language: str, attack: bool
) -> None:
    plugin = get_language(language)
    path, _, _, honest, raises = KATAS[language]
    tree = {name: text.encode() for name, text in plugin.scaffold().items()}
    tree[path] = (raises if attack else honest).encode()
    report = run_acceptance(checker, plugin, tree, _suite(tmp_path, language))
    passed = [r.status is CaseStatus.PASSED for r in report.results]
    assert passed == [not attack] * 3, report.why()


# The attack on a replay whose last call comes from another place than the steps before it:
# a roll refuses only where it is called from elsewhere than the first roll was, so every
# "cannot roll" case passes without a pin counted. Each reads the call stack as its language
# lets it (the static policy may refuse the means: the replay must not depend on that).
STACK_ATTACKS = {
    "javascript": """\
export class Game {
  constructor() {
    this.rolls = [];
  }

  roll(pins) {
    const site = new Error().stack.split('\\n')[2];
    this.site = this.site ?? site;
    if (site !== this.site) throw new Error('too many pins');
    this.rolls.push(pins);
  }

  score() {
    return this.rolls.reduce((a, b) => a + b, 0);
  }
}
""",
    "python": """\
import traceback


class Game:
    def __init__(self):
        self.rolls = []
        self.site = None

    def roll(self, pins):
        caller = traceback.extract_stack()[-2]
        site = (caller.filename, caller.lineno)
        self.site = self.site or site
        if site != self.site:
            raise ValueError("too many pins")
        self.rolls.append(pins)

    def score(self):
        return sum(self.rolls)
""",
    "java": """\
class Game {
    private int total;
    private StackTraceElement site;

    void roll(int pins) {
        StackTraceElement caller = Thread.currentThread().getStackTrace()[2];
        site = site == null ? caller : site;
        if (!caller.equals(site)) {
            throw new IllegalStateException("too many pins");
        }
        total += pins;
    }

    int score() {
        return total;
    }
}
""",
    "go": """\
package kata

import (
	"errors"
	"runtime"
)

type Game struct {
	total int
	site  uintptr
}

func NewGame() *Game { return &Game{} }

func (g *Game) Roll(pins int) error {
	caller, _, _, _ := runtime.Caller(1)
	if g.site == 0 {
		g.site = caller
	}
	if caller != g.site {
		return errors.New("too many pins")
	}
	g.total += pins
	return nil
}

func (g *Game) Score() (int, error) { return g.total, nil }
""",
    "rust": """\
pub struct Game {
    total: u16,
    site: Option<(u32, u32)>,
}

impl Game {
    pub fn new() -> Self {
        Game { total: 0, site: None }
    }

    #[track_caller]
    pub fn roll(&mut self, pins: u16) -> Result<(), String> {
        let caller = std::panic::Location::caller();
        let here = (caller.line(), caller.column());
        if *self.site.get_or_insert(here) != here {
            return Err("too many pins".to_string());
        }
        self.total += pins;
        Ok(())
    }

    pub fn score(&self) -> Option<u16> {
        Some(self.total)
    }
}
""",
}


@pytest.mark.parametrize("language", sorted(STACK_ATTACKS))
def test_the_last_call_of_a_replay_comes_from_where_every_step_does(
    checker: DockerChecker, tmp_path: Path, language: str
) -> None:
    plugin = get_language(language)
    tree = {name: text.encode() for name, text in plugin.scaffold().items()}
    tree[KATAS[language][0]] = STACK_ATTACKS[language].encode()
    report = run_acceptance(checker, plugin, tree, _suite(tmp_path, language))
    passed = [r.status is CaseStatus.PASSED for r in report.results]
    assert passed == [True, False, False], report.why()  # the sum only: no roll refused


# Steps that perform the property, read after (forth: each instruction an `evaluate`, then
# `stack`): only the last step's error is the case's. The attack refuses every step, which
# a replay that took any step's error as the answer would pass wherever an error is expected.
READ_DOCUMENT: dict[str, Any] = {"cases": [
    {"description": "adds", "property": "evaluate", "input": {"instructions": ["1", "2", "+"]},
     "expected": [3]},
    {"description": "one value", "property": "evaluate", "input": {"instructions": ["1", "+"]},
     "expected": {"error": "only one value on the stack"}},
]}  # fmt: skip
READ_STUB = b"""\
export class Counter {
  evaluate() {
    throw new Error('Remove this statement and implement this function');
  }

  get stack() {
    throw new Error('Remove this statement and implement this function');
  }
}
"""
READ_TESTS = b"""\
import { Counter } from './counter';
let counter;
beforeEach(() => {
  counter = new Counter();
});
test('adds', () => {
  counter.evaluate('1 2 +');
  expect(counter.stack).toEqual([3]);
});
"""
READ_HONEST = """\
export class Counter {
  constructor() {
    this.values = [];
  }

  evaluate(text) {
    if (text !== '+') {
      this.values.push(Number(text));
      return;
    }
    if (this.values.length < 2) throw new Error('only one value on the stack');
    this.values.push(this.values.pop() + this.values.pop());
  }

  get stack() {
    return this.values;
  }
}
"""
READ_REFUSES = """\
export class Counter {
  evaluate() {
    throw new Error('only one value on the stack');
  }

  get stack() {
    return [];
  }
}
"""


@pytest.mark.parametrize(
    ("code", "passed"),
    [(READ_HONEST, [True, True]), (READ_REFUSES, [False, False])],
    ids=["honest", "refuses_every_step"],
)
def test_only_the_last_step_s_error_answers_a_fold_read_after_its_steps(
    checker: DockerChecker, tmp_path: Path, code: str, passed: list[bool]
) -> None:
    folder = tmp_path / "kata" / "acceptance"
    folder.mkdir(parents=True)
    (folder / "canonical-data.json").write_text(json.dumps(READ_DOCUMENT))
    plugin = get_language("javascript")
    stub = {**{p: t.encode() for p, t in plugin.scaffold().items()}, "counter.js": READ_STUB}
    calls = plugin.derive_calls(
        flatten_cases(READ_DOCUMENT, source="-"), stub, {"counter.spec.js": READ_TESTS}
    )
    assert not isinstance(calls, str), calls
    assert calls.calls["evaluate"].endswith('"errs")).made.stack')
    (folder / "calls.yaml").write_text(json.dumps({"javascript": calls.model_dump(mode="json")}))
    tree = {name: text.encode() for name, text in plugin.scaffold().items()}
    tree["counter.js"] = code.encode()
    report = run_acceptance(checker, plugin, tree, load_suite(tmp_path / "kata"))
    assert [r.status is CaseStatus.PASSED for r in report.results] == passed, report.why()


# Failures a step's boundary once let past, to reach the driver's outer handler as the asked
# call's error: every "cannot roll" case passed while every roll failed (issue #76).
ESCAPES = {
    ("python", "not-an-exception"): """\
class ValueError(BaseException):  # named as the kata's errors are, caught by no `Exception`
    pass


class Game:
    def roll(self, pins):
        raise ValueError("too many pins")

    def score(self):
        raise ValueError("too many pins")
""",
    ("python", "unreadable-error"): """\
class Unreadable(Exception):
    def __str__(self):
        raise ValueError("too many pins")


class Game:
    def roll(self, pins):
        raise Unreadable()

    def score(self):
        raise Unreadable()
""",
    ("javascript", "rejected-thenable"): """\
const refusal = () => ({ then: (_, reject) => reject(new Error('too many pins')) });

export class Game {
  roll() {
    return refusal();
  }

  score() {
    return refusal();
  }
}
""",
    ("javascript", "unreadable-error"): """\
const unreadable = () => ({ toString: () => { throw new Error('too many pins'); } });

export class Game {
  roll() {
    throw unreadable();
  }

  score() {
    throw unreadable();
  }
}
""",
    ("go", "error-that-panics"): """\
package kata

type refusal struct{}

// Error panics where the driver reads it: after the step, it was the asked call's error.
func (refusal) Error() string { panic("too many pins") }

type Game struct{}

func NewGame() *Game { return &Game{} }

func (g *Game) Roll(pins int) error { return refusal{} }

func (g *Game) Score() (int, error) { return 0, refusal{} }
""",
    ("java", "unreadable-error"): """\
class Game {
    // Shown where the driver said what failed, after the step: the error it threw there was
    // the asked call's.
    static final class Refusal extends RuntimeException {
        @Override
        public String toString() {
            throw new IllegalStateException("too many pins");
        }
    }

    void roll(int pins) {
        throw new Refusal();
    }

    int score() {
        throw new Refusal();
    }
}
""",
    ("rust", "payload-that-panics"): """\
pub struct Game {}

struct Refusal;

// Dropped where the driver let go of the step's panic: after the step, its panic was the
// asked call's error.
impl Drop for Refusal {
    fn drop(&mut self) {
        panic!("too many pins");
    }
}

impl Game {
    pub fn new() -> Self {
        Game {}
    }

    pub fn roll(&mut self, _pins: u16) -> Result<(), String> {
        std::panic::panic_any(Refusal)
    }

    pub fn score(&self) -> Option<u16> {
        std::panic::panic_any(Refusal)
    }
}
""",
}


@pytest.mark.parametrize(("language", "route"), sorted(ESCAPES))
def test_a_step_s_failure_of_any_kind_stays_inside_the_step(
    checker: DockerChecker, tmp_path: Path, language: str, route: str
) -> None:
    plugin = get_language(language)
    path = KATAS[language][0]
    tree = {name: text.encode() for name, text in plugin.scaffold().items()}
    tree[path] = ESCAPES[language, route].encode()
    report = run_acceptance(checker, plugin, tree, _suite(tmp_path, language))
    assert [r.status is CaseStatus.PASSED for r in report.results] == [False] * 3, report.why()
