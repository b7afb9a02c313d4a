"""Sealed tests, on Docker, with no probe: in a language whose test gate runs only what its
build gate built (Rust, C++, Java, Go), the test files are unreadable once the build is
done; in Python and JavaScript, whose runners load them from their input, while they run.
Each reader of `answer_readers`, and the same reader aimed at the snapshot's absolute path,
at the caller's file, at a copy the guard makes or at the build's bytecode, had its test
gate green before sealing; now the read fails and so does the test, while the honest code of
each language stays green."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace

import pytest

from tdd_sandbox.errors import SandboxUnavailable
from tdd_sandbox.execution import steps
from tdd_sandbox.execution.base import GateCheck
from tdd_sandbox.execution.docker_checker import DockerChecker
from tdd_sandbox.execution.steps import run_gates
from tdd_sandbox.grading.gates import GateStatus
from tdd_sandbox.languages.registry import LANGUAGES, get_language
from tdd_sandbox.sandbox.snapshot import Snapshot
from tdd_sandbox.settings import load_settings
from tdd_sandbox.vocabulary.results import GateKind, TestStatus
from tests.helpers.answer_readers import READERS
from tests.helpers.katas import STEPS
from tests.helpers.repos import encode

pytestmark = [pytest.mark.docker, pytest.mark.usefixtures("images")]

# The guard's copy of the first C++ test file, found by a shell the code starts.
_CPP_GUARD_COPY = """\
#pragma once

#include <cstdio>
#include <string>

inline std::string fizzbuzz(int n) {
  std::string text;
  if (FILE* pipe = popen("cat /tmp/tdd-guard-*/guarded.cpp", "r")) {
    char chunk[4096];
    for (size_t got; (got = fread(chunk, 1, sizeof chunk, pipe)) > 0;) text.append(chunk, got);
    pclose(pipe);
  }
  size_t at = text.find("fizzbuzz(" + std::to_string(n) + ")");
  if (at == std::string::npos) return "";
  size_t open_quote = text.find('"', at);
  return text.substr(open_quote + 1, text.find('"', open_quote + 1) - open_quote - 1);
}
"""

# The build gate's bytecode of the test module, unmarshalled: the answer is a constant of the
# test function that calls with `n`.
_PY_BYTECODE = """\
import glob
import marshal


def fizzbuzz(n: int) -> str:
    for path in glob.glob("/tmp/**/test_fizzbuzz.*.pyc", recursive=True):
        with open(path, "rb") as cached:
            module = marshal.loads(cached.read()[16:])
        break
    else:
        return ""
    for const in module.co_consts:
        inner = getattr(const, "co_consts", ())
        if n in inner:
            return next(c for c in inner if isinstance(c, str))
    return ""
"""

# The test file's path off the caller's stack frame, then its text: as a copy the guard makes
# would be, wherever it is.
_JS_CALLER = """\
const files = process.getBuiltinModule("node:fs");

export function fizzBuzz(n) {
  const frames = new Error().stack.split("\\n").slice(2);
  const file = frames.map((f) => /(\\/[^:()]+\\.test\\.js)/.exec(f)).find(Boolean);
  const text = files.readFileSync(file[1], "utf8");
  const line = text.split("\\n").find((l) => l.includes(`fizzBuzz(${n})`));
  return line.split('"')[1];
}
"""

ROUTES = {
    "python": {
        "the snapshot": READERS["python"],
        "the build's bytecode": _PY_BYTECODE,
    },
    "rust": {
        "the snapshot": READERS["rust"],
        "the crate's copy": READERS["rust"].replace('"/work/tests/', '"tests/'),
    },
    "cpp": {
        "the snapshot": READERS["cpp"],
        "the guard's copy": _CPP_GUARD_COPY,
    },
    "go": {
        "the snapshot": READERS["go"],
        "the module's copy": READERS["go"].replace(
            '"/work/fizzbuzz_test.go"', '"fizzbuzz_test.go"'
        ),
    },
    "javascript": {
        "the working directory": READERS["javascript"],
        "the caller's file": _JS_CALLER,
    },
    "typescript": {
        "the working directory": READERS["typescript"],
        "the caller's file": _JS_CALLER.replace(r".test\.js", r".test\.ts"),
    },
    "java": {
        "the snapshot": READERS["java"],
        "the snapshot's absolute path": READERS["java"].replace("file:test/", "file:/work/test/"),
    },
}
CASES = [(lang, route) for lang, routes in ROUTES.items() for route in routes]


@pytest.fixture(scope="module")
def checker() -> Iterator[DockerChecker]:
    """One checker for the module."""
    with DockerChecker(load_settings(), run_id="pytest-sealing") as made:
        yield made


def _files(language: str, code: str) -> dict[str, bytes]:
    steps = STEPS[language]
    pack = get_language(language)
    return encode({**pack.scaffold(), steps.test_path: steps.test_file(1), steps.code_path: code})


def test_every_language_that_builds_its_tests_seals_them() -> None:
    sealing = {n for n, pack in LANGUAGES.items() if pack.sealed_tests([STEPS[n].test_path])}
    assert sealing == set(ROUTES)


@pytest.mark.parametrize(("language", "route"), CASES)
def test_code_cannot_read_its_answers_off_sealed_tests(
    checker: DockerChecker, language: str, route: str
) -> None:
    pack = get_language(language)
    report = checker.check(GateCheck(pack, _files(language, ROUTES[language][route]))).report
    gate = report.gate(GateKind.TEST)
    assert gate is not None
    builds = any(g.kind is GateKind.BUILD for g in pack.gates())
    assert (report.gate(GateKind.BUILD) is not None) == builds
    assert gate.status is GateStatus.FAILED, (gate.reason, gate.output_tail)
    mine = [o for o in gate.tests if o.status is not TestStatus.PASSED]
    assert mine, gate.tests
    assert gate.tamper is None


@pytest.mark.parametrize("language", sorted(ROUTES))
def test_honest_code_stays_green_with_its_tests_sealed(
    checker: DockerChecker, language: str
) -> None:
    pack = get_language(language)
    files = _files(language, STEPS[language].impls[0])
    report = checker.check(GateCheck(pack, files)).report
    assert report.ok, [(g.kind, g.status, g.reason) for g in report.gates]
    # Asked for the tests alone (a probe, an acceptance suite), the build runs first, unless
    # the runner loads the sealed tests from its input.
    alone = checker.check(GateCheck(pack, files, frozenset({GateKind.TEST}))).report
    fed = pack.sealed_input(files, pack.sealed_tests(files)) is not None
    want = [GateKind.TEST] if fed else [GateKind.BUILD, GateKind.TEST]
    assert [g.kind for g in alone.gates] == want
    assert alone.ok


def test_the_data_files_tests_read_stay_readable(checker: DockerChecker) -> None:
    test = (
        "use kata::fizzbuzz;\n\n#[test]\nfn one() {\n    let want = std::fs::read_to_string("
        '"tests/want.txt").unwrap();\n    assert_eq!(fizzbuzz(1), want.trim());\n}\n'
    )
    files = {**_files("rust", STEPS["rust"].impls[0]), STEPS["rust"].test_path: test.encode()}
    report = checker.check(GateCheck(get_language("rust"), {**files, "tests/want.txt": b"1\n"}))
    assert report.report.ok, [(g.kind, g.status, g.output_tail) for g in report.report.gates]


@pytest.mark.parametrize("module", ["answers/mod.rs", "the answers/of fizzbuzz.rs"])
def test_code_cannot_read_its_answers_off_a_module_the_tests_compile(
    checker: DockerChecker, module: str
) -> None:
    # The guard deletes what the test binaries were built from, as their dep-info names it,
    # and leaves the rest: a module a test file pulls in (a folder's mod.rs, a `#[path]`
    # with a space in it) is built from, so it goes too, or the code reads its answers off it.
    test = (
        f'use kata::fizzbuzz;\n\n#[path = "{module}"]\nmod answers;\n\n#[test]\nfn one() {{\n'
        "    assert_eq!(fizzbuzz(1), answers::ONE);\n}\n"
    )
    answers = 'pub const ONE: &str = "1"; // fizzbuzz(1)\n'
    code = READERS["rust"].replace('"/work/tests/fizzbuzz.rs"', f'"tests/{module}"')
    files = {
        **_files("rust", code),
        STEPS["rust"].test_path: test.encode(),
        f"tests/{module}": answers.encode(),
    }
    report = checker.check(GateCheck(get_language("rust"), files)).report
    gate = report.gate(GateKind.TEST)
    assert gate is not None
    assert gate.status is GateStatus.FAILED, (gate.reason, gate.output_tail)
    assert [o.status for o in gate.tests if o.id.endswith("::one")] == [TestStatus.FAILED], [
        (g.kind, g.status, g.output_tail[-800:]) for g in report.gates
    ]


def test_a_crate_the_tests_build_themselves_stays(checker: DockerChecker) -> None:
    # Exercism's Rust macros builds tests/invalid/ as a crate of its own, from its tests, to
    # see each file there fail to compile: every source under tests/ was deleted before the
    # tests ran, so no such test could pass. No test binary is built from those files.
    test = (
        'use kata::fizzbuzz;\n\n#[test]\nfn one() {\n    assert_eq!(fizzbuzz(1), "1");\n'
        '    assert!(std::path::Path::new("tests/invalid/bad.rs").is_file());\n}\n'
    )
    files = {
        **_files("rust", STEPS["rust"].impls[0]),
        STEPS["rust"].test_path: test.encode(),
        "tests/invalid/Cargo.toml": b'[package]\nname = "bad"\nversion = "0.0.0"\n',
        "tests/invalid/bad.rs": b"fn main() {\n    kata::nothing();\n}\n",
    }
    report = checker.check(GateCheck(get_language("rust"), files)).report
    assert report.ok, [(g.kind, g.status, g.output_tail) for g in report.gates]


def test_a_sealed_test_file_is_still_formatted_after_the_tests_ran(checker: DockerChecker) -> None:
    steps = STEPS["rust"]
    messy = steps.test_file(1).replace("fn one() {", "fn   one()   {")
    files = {**_files("rust", STEPS["rust"].impls[0]), steps.test_path: messy.encode()}
    kinds = frozenset({GateKind.FORMAT, GateKind.TEST})
    checked = checker.check(GateCheck(get_language("rust"), files, kinds, tidy=[steps.test_path]))
    ran = [g.kind for g in checked.report.gates]
    assert ran == [GateKind.FORMAT, GateKind.BUILD, GateKind.TEST]
    assert checked.formatted is not None
    assert checked.formatted[steps.test_path] == steps.test_file(1).encode()


# The type check's cache records a `Final` constant's value: the test's answer, readable by
# the code under test in the gate after, were the cache left behind.
_PY_FINAL_TEST = """\
from typing import Final

from fizzbuzz import fizzbuzz

FIZZ: Final = "Fizz"


def test_fizz() -> None:
    assert fizzbuzz(3) == FIZZ
"""
_PY_TYPE_CACHE = """\
import glob
import re


def fizzbuzz(n: int) -> str:
    for path in glob.glob("/tmp/**/test_fizzbuzz.data.json", recursive=True):
        with open(path, encoding="utf-8") as cached:
            found = re.search(r'"final_value": *"([^"]*)"', cached.read())
        if found:
            return found.group(1)
    return str(n)
"""


def test_the_type_check_leaves_no_answers_behind(checker: DockerChecker) -> None:
    pack, steps = get_language("python"), STEPS["python"]
    files = encode(
        {**pack.scaffold(), steps.test_path: _PY_FINAL_TEST, steps.code_path: _PY_TYPE_CACHE}
    )
    report = checker.check(GateCheck(pack, files)).report
    assert report.gate(GateKind.TYPECHECK) is not None
    gate = report.gate(GateKind.TEST)
    assert gate is not None
    assert gate.status is GateStatus.FAILED, (gate.reason, gate.output_tail)


# The keeper of JavaScript's sealed tests answers on a socket its modules name: code that
# asks it for every test file gets its own file's source no more (handed out already), and
# another file's only at the cost of that file, which then cannot load. (Node's permission
# model lets a test file's process read the guard's modules, which it imports, but not list
# /tmp: the code finds them on its own flags.)
_JS_ASK_THE_KEEPER = """\
const files = process.getBuiltinModule("node:fs");
const net = process.getBuiltinModule("node:net");

// The guard's modules are named on the process's own flags (a list of /tmp is refused).
const sealed = process.execArgv.find((flag) => flag.endsWith("/seal.mjs"));
const seal = files.readFileSync(sealed, "utf8");
const socket = "\\0" + /connect\\("\\\\0([^"]+)"\\)/.exec(seal)[1];
const ask = (file) =>
  new Promise((resolve) => {
    const asking = net.connect(socket);
    let data = "";
    asking.on("connect", () => asking.end(file));
    asking.on("data", (chunk) => (data += chunk));
    asking.on("end", () => resolve(data));
    asking.on("error", () => resolve(""));
  });
let text = "";
for (const name of files.readdirSync("/work/test")) text += await ask(`/work/test/${name}`);

export function fizzBuzz(n) {
  const line = text.split("\\\\n").find((l) => l.includes(`fizzBuzz(${n})`));
  return line ? line.split('\\\\"')[1] : "";
}
"""


@pytest.mark.parametrize("language", ["javascript", "typescript"])
def test_code_that_asks_the_keeper_for_the_tests_gets_no_green(
    checker: DockerChecker, language: str
) -> None:
    pack, steps = get_language(language), STEPS[language]
    files = _files(language, _JS_ASK_THE_KEEPER)
    other = steps.test_path.replace("fizzbuzz", "again")
    files[other] = files[steps.test_path]
    report = checker.check(GateCheck(pack, files, frozenset({GateKind.TEST}))).report
    gate = report.gate(GateKind.TEST)
    assert gate is not None
    assert gate.status is not GateStatus.PASSED, gate.output_tail
    # The first file's process took the other file's source (its answers pass); the other
    # file's process then got nothing to load.
    by_file = {o.id.split("::")[0]: o.status for o in gate.tests if "answers" in o.id}
    assert sorted(by_file.values()) == sorted([TestStatus.PASSED, TestStatus.ERROR]), gate.tests
    assert sorted(by_file) == sorted([steps.test_path, other])


def test_a_sandbox_that_cannot_seal_the_tests_runs_no_test_gate(checker: DockerChecker) -> None:
    # Opened past the checker, the snapshot's tests are not sealable: run beside them, the
    # reader would be green. The gates refuse rather than run unsealed.
    pack = get_language("python")
    files = _files("python", READERS["python"])
    with checker.provider.open(checker.image_for(pack), Snapshot(files)) as box:
        with pytest.raises(SandboxUnavailable, match="cannot seal"):
            run_gates(box, pack, files, only=frozenset({GateKind.TEST}))
        # The same sandbox runs the reader's test green, which is what the refusal prevents.
        assert box.exec(["cat", STEPS["python"].test_path], sealed=True).ok


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_a_red_run_shows_the_kata_s_failure_and_none_of_the_guard_s(
    checker: DockerChecker, language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What a failing run printed is the next prompt: the guard's sentinels (named after the
    # nonce) are tests the model never saw, and a failing one reads as a second red.
    monkeypatch.setattr(steps, "secrets", SimpleNamespace(token_hex=lambda _: _NONCE))
    pack, kata = get_language(language), STEPS[language]
    files = encode({**pack.scaffold(), kata.test_path: kata.test_file(2),
                    kata.code_path: kata.impls[0]})  # fmt: skip
    gate = checker.check(GateCheck(pack, files)).report.gate(GateKind.TEST)
    assert gate is not None
    assert gate.status is GateStatus.FAILED, (gate.reason, gate.output_tail)
    shown = gate.output_tail
    assert kata.test_name(1).split(".")[-1] in shown, shown
    for part in (_NONCE[:6], _NONCE[6:12], "tdd-guard"):
        assert part not in shown, (part, shown)


_NONCE = "0123456789abcdef"
