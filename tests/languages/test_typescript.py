"""The TypeScript pack without an engine: its files, its gates' commands, its policy."""

from __future__ import annotations

import pytest

from tdd_sandbox.languages import LANGUAGES, detect_language, get_language

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
