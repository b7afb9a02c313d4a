"""The TypeScript pack without an engine: its files, its gates' commands, its policy."""

from __future__ import annotations

import pytest

from tdd_sandbox.languages.javascript.jest import read_spec
from tdd_sandbox.languages.javascript.track import GLOBALS
from tdd_sandbox.languages.registry import LANGUAGES, detect_language, get_language
from tdd_sandbox.vocabulary.cases import CallMap, Case

TS = get_language("typescript")


def test_its_files_are_typescript_s_and_its_gates_name_them() -> None:
    assert TS.is_test_path("test/fizzbuzz.test.ts")
    assert not TS.is_test_path("kata.ts")
    assert TS.expected_tests({"test/a.test.ts": b'test("one", () => {});\n'}) == {
        "test/a.test.ts::one"
    }
    assert TS.expected_tests({"test/a.test.js": b'test("one", () => {});\n'}) == frozenset()
    commands = {gate.kind.value: gate.command[-1] for gate in TS.gates()}
    assert "'*.test.ts'" in commands["test"]
    assert "--experimental-transform-types" in commands["test"]
    assert "--strict" in commands["typecheck"]
    assert "'*.ts'" in commands["typecheck"]
    assert TS.suggest_paths({"kata.ts": b"", "test/x.test.ts": b""}, "x") == (
        "test/x.test.ts",
        ["kata.ts"],
    )


def test_a_typescript_package_is_told_from_a_javascript_one() -> None:
    assert list(LANGUAGES).index("typescript") < list(LANGUAGES).index("javascript")
    assert detect_language(["package.json", "kata.ts"]).name == "typescript"
    assert detect_language(["package.json", "tsconfig.json", "kata.js"]).name == "typescript"
    assert detect_language(["package.json", "kata.js", "types.d.ts"]).name == "javascript"
    assert detect_language(["package.json", "node_modules/x/y.ts", "a.js"]).name == "javascript"


def _rules(text: str, *, is_test: bool = False) -> set[str]:
    path = "test/a.test.ts" if is_test else "kata.ts"
    return {v.rule for v in TS.check_source(path, text, is_test=is_test, tree={})}


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("// @ts-ignore\nexport const a: number = 'x';\n", "ts-directive:ignore"),
        ("// @ts-expect-error: no\nexport const a: number = 'x';\n", "ts-directive:expect-error"),
        ("// @ts-nocheck\nexport const a: number = 'x';\n", "ts-directive:nocheck"),
        ('/// <reference path="./x.d.ts" />\nexport {};\n', "ts-reference"),
        ("declare global {\n  interface Array<T> { x: T }\n}\nexport {};\n", "declare-global"),
        ('declare module "node:assert/strict" {\n  export const x: 1;\n}\n', "declare-module"),
        ('import cp = require("node:child_process");\n', "name:require"),
        ('import type { Stats } from "node:fs";\nexport {};\n', "import:node:fs"),
    ],
)
def test_code_may_not_open_the_compiler_s_escape_hatches(text: str, rule: str) -> None:
    assert rule in _rules(text)


def test_a_test_may_expect_a_type_error_and_code_may_spell_the_words_in_a_string() -> None:
    assert _rules("// @ts-expect-error: a number only\nfizzBuzz('x');\n", is_test=True) == set()
    assert _rules("// @ts-ignore\nfizzBuzz('x');\n", is_test=True) == {"ts-directive:ignore"}
    assert _rules('export const note = "declare global";\n') == set()
    assert _rules("export function f(n: number): string {\n  return String(n);\n}\n") == set()


def _case(prop: str, **given: object) -> Case:
    return Case(id=f"{prop}-{len(given)}", description="", property=prop, input=given, expected=0)


def test_the_track_s_jest_test_becomes_a_node_test_file_beside_the_code() -> None:
    spec = (
        "import { describe, it, expect, xit } from '@jest/globals'\n"
        "import { twoFer } from './two-fer.ts'\n\n"
        "describe('TwoFer', () => {\n"
        "  xit('a name given', () => {\n"
        "    const expected: string = 'One for Alice, one for me.'\n"
        "    expect(twoFer('Alice')).toEqual(expected)\n"
        "  })\n})\n"
    )
    path, data = TS.track_test("two-fer.test.ts", spec.encode())
    text = data.decode()
    assert path == "test/two-fer.test.ts"
    assert text.startswith(f'import {{ describe, test, it, expect, beforeEach, afterEach, '
                           f'beforeAll, afterAll }} from "{GLOBALS}";\n')  # fmt: skip
    assert "@jest/globals" not in text
    assert "import { twoFer } from '../two-fer.ts'" in text
    assert "  it('a name given'" in text  # a hidden suite runs every test
    assert TS.track_test("two-fer.ts", b"x") == ("two-fer.ts", b"x")


def test_the_stub_s_typed_functions_perform_the_properties() -> None:
    stub = {
        "bob.ts": b"export function hey(message: unknown): unknown {\n  throw 1\n}\n",
        "space-age.ts": b"export const age = (planet: string, seconds: number): number => 0;\n",
    }
    calls = TS.derive_calls([_case("response", heyBob="Hi")], {"bob.ts": stub["bob.ts"]}, {})
    assert calls == CallMap(
        setup='import { hey } from "./bob.ts";', calls={"response": "hey(${heyBob})"}
    )
    cases = [_case("age", planet="Earth", seconds=1)]
    calls = TS.derive_calls(cases, {"space-age.ts": stub["space-age.ts"]}, {})
    assert isinstance(calls, CallMap)
    assert calls.calls == {"age": "age(${planet}, ${seconds})"}
    # JavaScript's pack reads no TypeScript module, and a default stays a reason.
    assert isinstance(get_language("javascript").derive_calls(cases, stub, {}), str)
    optional = {"two-fer.ts": b"export function twoFer(name?: string): string {}\n"}
    assert isinstance(TS.derive_calls([_case("twoFer", name="x")], optional, {}), str)


def test_a_spec_written_without_semicolons_reads_a_statement_a_line() -> None:
    # Today's TypeScript track is printed by Prettier with `semi: false`: read as statements
    # ended by `;` alone, its import swallowed the describe after it, and no test was read.
    spec = (
        "import { isLeap } from '../leap.ts'\n\n"
        "const years = [1996,\n  2000]\n"
        "describe('leap', () => {\n"
        "  it('1996', () => {\n"
        "    const got = isLeap(1996)\n"
        "    expect(got)\n      .toBe(true)\n"
        "    const text = 'a' +\n      'b'\n"
        "  })\n})\n"
    )
    read = read_spec(spec)
    assert read.imports == ["import { isLeap } from '../leap.ts'"]
    assert list(read.declared) == ["years"]
    [test] = read.tests
    assert test.body == (
        "const got = isLeap(1996)",
        "expect(got)\n      .toBe(true)",
        "const text = 'a' +\n      'b'",
    )
    # Statements ended by `;` read as before, lines carried on or not.
    [semicolons] = read_spec(spec.replace(")\n", ");\n")).tests
    assert semicolons.body[0] == "const got = isLeap(1996);"
