"""A property asked of two fresh objects in one run (`pairing`), scored in a real sandbox:
forth's `evaluateBoth`. The attack keeps the words it defines in one table for the whole
process. Asked apart (a case per half, a process per case) it would pass every half; asked
together, the second object knows the first's word and the pair fails."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tdd_sandbox.acceptance.scorer import run_acceptance
from tdd_sandbox.acceptance.suite import load_suite
from tdd_sandbox.execution.docker_checker import DockerChecker
from tdd_sandbox.grading.acceptance import CaseStatus
from tdd_sandbox.katas.calls import derive_data_suites
from tdd_sandbox.katas.exercism import Exercise
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.settings import load_settings

pytestmark = [pytest.mark.docker, pytest.mark.usefixtures("images")]

DOCUMENT: dict[str, Any] = {"exercise": "forth", "cases": [
    {"uuid": "adds", "description": "adds", "property": "evaluate",
     "input": {"instructions": ["1 2 +"]}, "expected": [3]},
    {"uuid": "second-alone", "description": "the second half alone", "property": "evaluate",
     "input": {"instructions": ["1 1 +"]}, "expected": [2]},
    {"uuid": "redefines", "description": "redefines", "property": "evaluate",
     "input": {"instructions": [": + - ;", "1 1 +"]}, "expected": [0]},
    {"uuid": "locally", "description": "only defines locally", "property": "evaluateBoth",
     "input": {"instructionsFirst": [": + - ;", "1 1 +"], "instructionsSecond": ["1 1 +"]},
     "expected": [[0], [2]]},
]}  # fmt: skip

PY_STUB = b"def evaluate(input_data):\n    pass\n"
PY_CODE = """\
WORDS: dict[str, list[str]] = {}


def evaluate(input_data):
    words = {}  # WORDS, in the attack
    stack = []
    for line in input_data:
        tokens = line.split()
        if tokens[0] == ":":
            words[tokens[1]] = tokens[2:-1]
            continue
        for token in tokens:
            for word in words.get(token, [token]):
                if word in "+-":
                    b, a = stack.pop(), stack.pop()
                    stack.append(a + b if word == "+" else a - b)
                else:
                    stack.append(int(word))
    return stack
"""
JAVA_STUB = b"""\
import java.util.List;

class ForthEvaluator {
    List<Integer> evaluateProgram(List<String> input) {
        throw new UnsupportedOperationException("Delete this statement.");
    }
}
"""
JAVA_CODE = """\
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

class ForthEvaluator {
    private final Map<String, List<String>> words = new HashMap<>();

    List<Integer> evaluateProgram(List<String> input) {
        List<Integer> stack = new ArrayList<>();
        for (String line : input) {
            List<String> tokens = Arrays.asList(line.split(" "));
            if (tokens.get(0).equals(":")) {
                words.put(tokens.get(1), tokens.subList(2, tokens.size() - 1));
                continue;
            }
            for (String token : tokens) {
                for (String word : words.getOrDefault(token, List.of(token))) {
                    if (word.equals("+") || word.equals("-")) {
                        int b = stack.remove(stack.size() - 1);
                        int a = stack.remove(stack.size() - 1);
                        stack.add(word.equals("+") ? a + b : a - b);
                    } else {
                        stack.add(Integer.parseInt(word));
                    }
                }
            }
        }
        return stack;
    }
}
"""
RS_STUB = b"""\
pub type Result = std::result::Result<(), Error>;

#[derive(Debug)]
pub enum Error {
    StackUnderflow,
}

pub struct Forth;

impl Forth {
    pub fn new() -> Forth {
        todo!()
    }

    pub fn stack(&self) -> &[i32] {
        todo!()
    }

    pub fn eval(&mut self, input: &str) -> Result {
        todo!("{input}")
    }
}
"""
RS_CODE = """\
use std::sync::Mutex;

pub type Result = std::result::Result<(), Error>;

#[derive(Debug)]
pub enum Error {
    StackUnderflow,
}

static WORDS: Mutex<Vec<(String, Vec<String>)>> = Mutex::new(Vec::new());

pub struct Forth {
    stack: Vec<i32>,
    words: Vec<(String, Vec<String>)>,
}

impl Forth {
    pub fn new() -> Forth {
        Forth { stack: Vec::new(), words: Vec::new() }
    }

    pub fn stack(&self) -> &[i32] {
        &self.stack
    }

    pub fn eval(&mut self, input: &str) -> Result {
        let shared = false; // true, in the attack
        let tokens: Vec<&str> = input.split(' ').collect();
        if tokens[0] == ":" {
            let body = tokens[2..tokens.len() - 1].iter().map(|t| t.to_string()).collect();
            if shared {
                WORDS.lock().unwrap().push((tokens[1].to_string(), body));
            } else {
                self.words.push((tokens[1].to_string(), body));
            }
            return Ok(());
        }
        for token in tokens {
            let known = if shared { WORDS.lock().unwrap().clone() } else { self.words.clone() };
            let words = known
                .iter()
                .rev()
                .find(|(name, _)| name == token)
                .map(|(_, body)| body.clone())
                .unwrap_or_else(|| vec![token.to_string()]);
            for word in words {
                if word == "+" || word == "-" {
                    let b = self.stack.pop().ok_or(Error::StackUnderflow)?;
                    let a = self.stack.pop().ok_or(Error::StackUnderflow)?;
                    self.stack.push(if word == "+" { a + b } else { a - b });
                } else {
                    self.stack.push(word.parse().map_err(|_| Error::StackUnderflow)?);
                }
            }
        }
        Ok(())
    }
}
"""
KATAS = {  # language -> the stub's file, the stub, the code, what the attack changes in it
    "python": ("forth.py", PY_STUB, PY_CODE, ("words = {}  # WORDS", "words = WORDS  #")),
    "java": ("src/ForthEvaluator.java", JAVA_STUB, JAVA_CODE, ("private final", "static")),
    "rust": ("src/lib.rs", RS_STUB, RS_CODE, ("let shared = false;", "let shared = true;")),
}


@pytest.fixture(scope="module")
def checker() -> Iterator[DockerChecker]:
    with DockerChecker(load_settings(), run_id="pytest-pairs") as made:
        yield made


@pytest.mark.parametrize("language", sorted(KATAS))
@pytest.mark.parametrize("attack", [False, True], ids=["honest", "one_table"])
def test_a_pair_is_asked_of_two_objects_in_one_run(
    checker: DockerChecker, tmp_path: Path, language: str, attack: bool
) -> None:
    path, stub, code, (honest, shared) = KATAS[language]
    plugin = get_language(language)
    scaffold = {name: text.encode() for name, text in plugin.scaffold().items()}
    kata = tmp_path / "forth"
    (kata / "acceptance").mkdir(parents=True)
    (kata / "acceptance" / "canonical-data.json").write_text(json.dumps(DOCUMENT))
    track = Exercise("forth", "Forth", "Evaluate.", language=language, tests={},
                     stub={**scaffold, path: stub})  # fmt: skip
    (said,) = derive_data_suites(kata, [track])
    assert "evaluateBoth" in said, said
    assert honest in code
    tree = {**scaffold, path: (code.replace(honest, shared) if attack else code).encode()}
    report = run_acceptance(checker, plugin, tree, load_suite(kata))
    passed = {r.id: r.status is CaseStatus.PASSED for r in report.results}
    # The second half alone passes either way, in a process of its own: only the pair tells.
    assert passed == {"adds": True, "second-alone": True, "redefines": True,
                      "locally": not attack}, report.why()  # fmt: skip
