"""The static policy: honest kata code passes, the means of forging a verdict do not."""

from __future__ import annotations

import pytest

from tdd_sandbox.grading.policy import check_policy
from tdd_sandbox.languages.cpp.policy import check_cpp
from tdd_sandbox.languages.go.policy import check_go
from tdd_sandbox.languages.java.policy import check_java
from tdd_sandbox.languages.javascript.policy import check_javascript
from tdd_sandbox.languages.python.policy import check_python
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.languages.rust.policy import check_rust
from tests.helpers.cheats import CHEATS
from tests.helpers.repos import PY_TESTS, RS_TESTS
from tests.helpers.solutions import SOLUTIONS


@pytest.mark.parametrize(("kata", "language"), sorted(SOLUTIONS))
def test_reference_solutions_pass(kata: str, language: str) -> None:
    path, source = SOLUTIONS[(kata, language)]
    pack = get_language(language)
    assert pack.check_source(path, source, is_test=False, tree={path: source.encode()}) == []


def test_test_files_may_use_their_runner() -> None:
    assert check_python("tests/test_f.py", PY_TESTS, is_test=True) == []
    assert check_rust("tests/f.rs", RS_TESTS, is_test=True) == []
    scaffold = get_language("python").scaffold()["tests/test_scaffold.py"]
    assert check_python("tests/test_scaffold.py", scaffold, is_test=True) == []


@pytest.mark.parametrize(
    "cheat", [c for c in CHEATS if "driver" not in c.name], ids=lambda c: c.name
)
def test_every_scoring_cheat_is_also_refused_in_the_loop(cheat: object) -> None:
    from tests.helpers.cheats import Cheat

    assert isinstance(cheat, Cheat)
    language = get_language(cheat.language)
    files = {path: text.encode() for path, text in cheat.files.items()}
    if "conftest" in cheat.name:
        return  # a conftest is runner configuration: no role may write it (see test_edits)
    assert check_policy(language, files)


@pytest.mark.parametrize(
    ("source", "rule"),
    [
        ("import _pytest.python\n", "import:_pytest"),
        ("from _pytest import runner\n", "import:_pytest"),
        ("import pytest\n", "import:pytest"),
        ("import atexit\n", "import:atexit"),
        ("import gc\n", "import:gc"),
        ("import inspect\n", "import:inspect"),
        ("import ctypes\n", "import:ctypes"),
        ("import importlib\n", "import:importlib"),
        ("import builtins\n", "import:builtins"),
        ("import threading\n", "import:threading"),
        ("text = open('tests/test_f.py').read()\n", "call:open"),
        ("import glob\n", "import:glob"),
        ("import os\nnames = os.listdir('tests')\n", "attr:os.listdir"),
        ("m = __import__('_pyt' + 'est')\n", "call:__import__"),
        ("x = eval('1')\n", "call:eval"),
        ("exec('x = 1')\n", "call:exec"),
        ("f = eval\n", "call:eval"),
        ("g = globals()\n", "call:globals"),
        ("import os\nos._exit(0)\n", "attr:os._exit"),
        ("import os as o\no._exit(0)\n", "attr:os._exit"),
        ("from os import _exit\n", "attr:os._exit"),
        ("import sys\nsys.modules['x'] = None\n", "attr:sys.modules"),
        ("import sys\nsys.settrace(None)\n", "attr:sys.settrace"),
        ("import sys\nf = sys._getframe(1)\n", "attr:sys._getframe"),
        ("import sys\nprint(sys.argv)\n", "attr:sys.argv"),
        ("x = ().__class__.__bases__[0].__subclasses__()\n", "attr:__subclasses__"),
        ("def f(g):\n    return g.__globals__\n", "attr:__globals__"),
        ("def f(e):\n    return e.__traceback__.tb_frame.f_back.f_locals\n", "attr:f_locals"),
        ("b = __builtins__\n", "name:__builtins__"),
        ("class S(str):\n    def __eq__(self, o):\n        return o == o\n", "equality"),
        ("class A:\n    def __eq__(self, other):\n        return True\n", "equality"),
        ("class A:\n    def __ne__(self, other):\n        return False\n", "equality"),
    ],
)
def test_python_attacks_are_named(source: str, rule: str) -> None:
    rules = {violation.rule for violation in check_python("impl.py", source)}
    assert rule in rules


@pytest.mark.parametrize(
    ("source", "rule"),
    [
        ("pub fn f() { std::process::exit(0) }", "process"),
        ("use std::process::Command;", "process"),
        ("pub fn f() -> usize { std::env::args().count() }", "env"),
        # Cargo sets CARGO_PRIMARY_PACKAGE for the crate it tests and not for the same crate
        # built as a dependency: code that needs it compiles under the tests and fails to
        # compile wherever a test builds it to see bad input refused (Rust's macros).
        ('const _: &str = env!("CARGO_PRIMARY_PACKAGE");', "env"),
        ('const P: Option<&str> = option_env!("CARGO_PRIMARY_PACKAGE");', "env"),
        ('const S: &str = include_str!("../tests/t.rs");', "include"),
        ('pub fn f() { let _ = std::fs::read("tests/t.rs"); }', "fs"),
        ('#[no_mangle]\npub extern "C" fn main() {}', "ffi"),
        ('#[link_section = ".init_array"]\nstatic X: fn() = f;', "ffi"),
        ("#[used]\nstatic X: u8 = 0;", "ffi"),
        ('extern "C" { fn exit(c: i32); }', "ffi"),
        ("pub fn f() { std::panic::set_hook(Box::new(|_| {})); }", "panic-hook"),
        ("impl PartialEq<&str> for W { fn eq(&self, _: &&str) -> bool { true } }", "equality"),
        ("impl PartialEq<String> for W { fn eq(&self, _: &String) -> bool { true } }", "equality"),
        ("impl PartialEq<u32> for W { fn eq(&self, _: &u32) -> bool { true } }", "equality"),
    ],
)
def test_rust_attacks_are_named(source: str, rule: str) -> None:
    assert rule in {violation.rule for violation in check_rust("src/lib.rs", source)}


def test_comments_and_strings_are_not_code() -> None:
    source = (
        '// std::process::exit\n/* include_str!("x") */\n'
        'pub fn f() -> &\'static str { "std::env" }\n'
    )
    assert check_rust("src/lib.rs", source) == []


@pytest.mark.parametrize(
    ("source", "rule"),
    [
        ('import "os"\n', "import:os"),
        ('import (\n\t"fmt"\n\tx "os/exec"\n)\n', "import:os/exec"),
        ('import "unsafe"\n', "import:unsafe"),
        ('import "C"\n', "import:C"),
        ('import "runtime/debug"\n', "import:runtime/debug"),
        ('import "testing"\n', "import:testing"),
        ('import _ "embed"\n', "import:embed"),
        ('import "path/filepath"\n', "import:path/filepath"),
        ('import "debug/elf"\n', "import:debug/elf"),
        ("//go:linkname now runtime.nanotime\nfunc now() int64\n", "directive"),
        ("//go:embed fizzbuzz_test.go\nvar suite string\n", "directive"),
        ('func f() { fmt.Println("--- PASS: TestX") }\n', "print"),
        ('func f() { fmt.Printf("%d", 1) }\n', "print"),
        ('func f() { println("x") }\n', "print"),
    ],
)
def test_go_attacks_are_named(source: str, rule: str) -> None:
    assert rule in {v.rule for v in check_go("kata.go", "package kata\n\n" + source)}


def test_go_tests_may_use_their_runner_but_not_take_it_over() -> None:
    test = 'package kata\n\nimport (\n\t"os"\n\t"testing"\n)\n\nfunc TestX(t *testing.T) {}\n'
    assert check_go("x_test.go", test, is_test=True) == []
    assert (
        check_go(
            "x_test.go",
            'package kata\n\nimport "fmt"\n\nfunc f() { fmt.Println(1) }\n',
            is_test=True,
        )
        == []
    )
    main = test + "\nfunc TestMain(m *testing.M) { os.Exit(0) }\n"
    assert [v.rule for v in check_go("x_test.go", main, is_test=True)] == ["test-main"]


def test_go_comments_and_strings_are_not_code() -> None:
    source = (
        'package kata\n\n// import "os"\n/* fmt.Println */\n'
        'const s = "fmt.Println(1) //go:linkname"\nconst r = `println(2)`\n'
        "func F() string { return fmt.Sprint(s, r) }\n"
    )
    assert check_go("kata.go", source) == []


@pytest.mark.parametrize(
    ("source", "rule"),
    [
        ('import fs from "node:fs";\n', "import:node:fs"),
        ('import { execSync } from "child_process";\n', "import:child_process"),
        ('export { x } from "left-pad";\n', "import:left-pad"),
        ('const m = await import("./k.js");\n', "dynamic-import"),
        ("process.exit(0);\n", "name:process"),
        ("globalThis.x = 1;\n", "name:globalThis"),
        ('const f = new Function("return 1");\n', "name:Function"),
        ('eval("1");\n', "name:eval"),
        ("const p = new Proxy({}, {});\n", "name:Proxy"),
        ("setTimeout(() => {}, 0);\n", "name:setTimeout"),
        ('String.prototype.trim = () => "";\n', "prototype"),
        ('Object.defineProperty(String.prototype, "x", {});\n', "prototype"),
        # Routes to replacing the Object.is Jest's matchers compare through (issue #46); the
        # ones no name gives away are the guard's, tests/cli/test_katas_cli.py.
        ("Object.defineProperty(Object, 'is', { value: () => true });\n", "prototype"),
        ("Reflect.set(Object, 'is', () => true);\n", "name:Reflect"),
        ("Object.getPrototypeOf(Object).constructor.prototype.call = Object.is;\n", "prototype"),
    ],
)
def test_javascript_attacks_are_named(source: str, rule: str) -> None:
    assert rule in {v.rule for v in check_javascript("kata.js", source)}


def test_javascript_code_may_print() -> None:
    # Each test file's process hands it a console of text to stderr (guard.TEXT_CONSOLE):
    # the 0.5B lost resistor-color-trio to a `console.log` when the policy refused the name.
    code = 'export function f() {\n  console.log("f called");\n  return 1;\n}\n'
    assert check_javascript("kata.js", code) == []


def test_javascript_tests_may_import_their_runner_and_print() -> None:
    test = (
        'import { test } from "node:test";\nimport assert from "node:assert/strict";\n'
        'import { f } from "../kata.js";\n\ntest("x", () => {\n  console.log(f());\n'
        "  assert.equal(f(), 1);\n});\n"
    )
    assert check_javascript("test/k.test.js", test, is_test=True) == []
    rigged = test + "process.exit(0);\n"
    assert [v.rule for v in check_javascript("test/k.test.js", rigged, is_test=True)] == [
        "name:process"
    ]


def test_javascript_comments_and_strings_are_not_code() -> None:
    source = (
        '// import fs from "node:fs";\n/* process.exit(0) */\n'
        'export const s = "console.log(1)";\nexport const t = `globalThis`;\n'
        'export const user = { name: "x" }.name;\n'
    )
    assert check_javascript("kata.js", source) == []


@pytest.mark.parametrize(
    ("source", "rule"),
    [
        ("#include <fstream>\n", "include:fstream"),
        ("#include <filesystem>\n", "include:filesystem"),
        ("#include <gtest/gtest.h>\n", "include:gtest"),
        ('#include "tests/fizzbuzz_test.cpp"\n', "include:path"),
        ("void f() { std::exit(0); }\n", "process"),
        ("void f() { std::_Exit(0); }\n", "process"),
        ('void f() { system("sh"); }\n', "process"),
        ('void f() { std::cout << "[       OK ] A.B"; }\n', "output"),
        ('void f() { printf("x"); }\n', "output"),
        ("void f() { testing::UnitTest::GetInstance(); }\n", "runner"),
        ('void f() { asm("nop"); }\n', "asm"),
        ("__attribute__((constructor)) void f() {}\n", "before-main"),
        ("#pragma GCC poison x\n", "linkage"),
        ("#define TEST(a, b) void f()\n", "linkage"),
        ("bool operator==(W, const char*) { return true; }\n", "equality"),
    ],
)
def test_cpp_attacks_are_named(source: str, rule: str) -> None:
    assert rule in {v.rule for v in check_cpp("kata.hpp", source)}


def test_cpp_tests_may_include_gtest_and_print_but_not_define_main() -> None:
    test = (
        '#include <gtest/gtest.h>\n\n#include <iostream>\n\n#include "kata.hpp"\n\n'
        'TEST(A, B) {\n  std::cout << "debug";\n  EXPECT_EQ(f(), 1);\n}\n'
    )
    tree = {"kata.hpp": b""}
    assert check_cpp("tests/a_test.cpp", test, is_test=True, tree=tree) == []
    own_main = test + "int main() { return 0; }\n"
    found = check_cpp("tests/a_test.cpp", own_main, is_test=True, tree=tree)
    assert [v.rule for v in found] == ["main"]
    assert check_cpp("kata.hpp", '#pragma once\n// std::exit(0)\nconst char* s = "printf";\n') == []


@pytest.mark.parametrize(
    ("source", "rule"),
    [
        ("class K { void f() { System.exit(0); } }", "process"),
        ("class K { void f() { Runtime.getRuntime().halt(0); } }", "process"),
        ('class K { String f() { return System.getenv("X"); } }', "process"),
        ("class K { void f() { System.out.close(); } }", "output"),
        ("class K { java.io.PrintStream s = System.err; }", "output"),
        ('class K { void f() throws Exception { Files.readString(Path.of("x")); } }', "files"),
        ("import java.lang.reflect.Field;\nclass K {}", "reflection"),
        ('class K { void f() throws Exception { Class.forName("x"); } }', "reflection"),
        ("class K { void f() { new Thread(() -> {}).start(); } }", "threads"),
        ("import org.junit.jupiter.api.Assertions;\nclass K {}", "runner"),
        ("class K { native void f(); }", "native"),
        ("class K { public boolean equals(Object o) { return true; } }", "equality"),
    ],
)
def test_java_attacks_are_named(source: str, rule: str) -> None:
    assert rule in {v.rule for v in check_java("src/Kata.java", source)}


def test_java_code_may_print() -> None:
    # The guard's launcher hands System.out stderr (runner._launcher_source): the 0.5B's
    # dominoes answer, a debugging main with System.out.println, counted as tamper before.
    code = (
        'class K {\n  static int f(int n) {\n    System.out.println("f " + n);\n'
        '    System.err.printf("%d%n", n);\n    System . out\n      . print(n);\n'
        "    java.util.List.of(n).forEach(System.out::println);\n    return n;\n  }\n}\n"
    )
    assert check_java("src/K.java", code) == []
    assert [v.rule for v in check_java("src/K.java", code + "// System.setOut(null)\n")] == []
    hands_out = code.replace("System.out::println", "System.out")
    assert {v.rule for v in check_java("src/K.java", hands_out)} == {"lang:System", "output"}


def test_java_tests_may_use_junit_and_print_but_not_end_the_jvm() -> None:
    test = (
        "import org.junit.jupiter.api.Test;\n\nclass KataTest {\n  @Test\n  void one() {\n"
        '    System.out.println("debug");\n  }\n}\n'
    )
    assert check_java("test/KataTest.java", test, is_test=True) == []
    ends = test.replace('System.out.println("debug")', "System.exit(0)")
    assert [v.rule for v in check_java("test/KataTest.java", ends, is_test=True)] == ["process"]
    launcher = "import org.junit.platform.launcher.Launcher;\n" + test
    found = check_java("test/KataTest.java", launcher, is_test=True)
    assert [v.rule for v in found] == ["runner"]


def test_a_kata_may_allow_a_rule() -> None:
    files = {"impl.py": b"import threading\nimport gc\n"}
    python = get_language("python")
    assert check_policy(python, files, allow=frozenset({"import"})) == []
    partly = check_policy(python, files, allow=frozenset({"import:threading"}))
    assert [v.rule for v in partly] == ["import:gc"]
    assert (
        str(partly[0]) == "impl.py:2: imports gc, which reaches objects it was never handed "
        "(rule import:gc)"
    )
