"""Loading a kata's suite, and every driver's literals, without Docker."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tdd_sandbox.acceptance.suite import (
    LEFT_OUT,
    has_calls,
    has_suite,
    load_suite,
    read_left_out,
    write_left_out,
)
from tdd_sandbox.errors import UsageError
from tdd_sandbox.grading.acceptance import AcceptanceReport, CaseResult, CaseStatus
from tdd_sandbox.languages.cpp.driver import CPP_LITERALS
from tdd_sandbox.languages.driving import implementation_files
from tdd_sandbox.languages.go.driver import GO_LITERALS
from tdd_sandbox.languages.java.driver import JAVA_LITERALS
from tdd_sandbox.languages.javascript.driver import js_literal
from tdd_sandbox.languages.literal import LiteralSyntax
from tdd_sandbox.languages.registry import LANGUAGES, get_language
from tdd_sandbox.languages.rust.driver import RUST_LITERALS
from tdd_sandbox.vocabulary.cases import TRACK_TEST

KATAS = Path(__file__).resolve().parents[2] / "katas"


@pytest.mark.parametrize("kata", sorted(p.name for p in KATAS.iterdir()))
def test_every_shipped_kata_has_cases_for_every_language(kata: str) -> None:
    suite = load_suite(KATAS / kata)
    assert len(suite.cases) >= 7
    assert set(suite.languages) == set(LANGUAGES)
    assert has_suite(KATAS / kata, "python")
    assert not has_suite(KATAS / kata, "cobol")


def _kata(tmp_path: Path, calls: str) -> Path:
    folder = tmp_path / "k" / "acceptance"
    folder.mkdir(parents=True)
    cases = [{"description": "a", "property": "double", "input": {"n": 1}, "expected": 2}]
    (folder / "canonical-data.json").write_text(json.dumps({"cases": cases}))
    (folder / "calls.yaml").write_text(calls)
    return tmp_path / "k"


def test_a_property_without_a_call_is_named(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="python has no call for double"):
        load_suite(_kata(tmp_path, "python: {calls: {triple: triple(n)}}\n"))


def test_a_property_of_excluded_cases_alone_needs_no_call(tmp_path: Path) -> None:
    # Exercism's Python forth leaves out every evaluateBoth case: its derived calls had no
    # call for the property, and the suite was refused whole ("has no call for
    # evaluateBoth"), so the kata was proved in no language.
    kata = _kata(tmp_path, "python: {calls: {triple: triple(n)}, exclude: [a]}\n")
    suite = load_suite(kata)
    assert suite.cases_for("python") == ()


def test_a_track_s_own_cases_join_the_data_s_for_its_language_alone(tmp_path: Path) -> None:
    # A test of the track's transcribed that matches no case of the data: judged, with the
    # description it restates; a left-out one is not, nor in another language.
    kata = _kata(
        tmp_path,
        "python:\n"
        "  calls: {double: x, track test: x}\n"
        "  exclude: [gone]\n"
        "  restated:\n"
        "    own: {input: {operations: []}, expected: {}, description: doubles zero}\n"
        "    gone: {input: {operations: []}, expected: {}, description: left out}\n"
        "rust: {calls: {double: double(n)}}\n",
    )
    suite = load_suite(kata)
    cases = suite.cases_for("python")
    assert [(c.id, c.description, c.property) for c in cases] == [
        ("a", "a", "double"),
        ("own", "doubles zero", TRACK_TEST),
    ]
    assert [c.id for c in suite.cases_for("rust")] == ["a"]


def test_without_canonical_data_a_track_s_own_tests_transcribed_are_the_suite(
    tmp_path: Path,
) -> None:
    # An exercise problem-specifications has no data for (Rust's fizzy, Python's
    # rest-api copies): its transcribed tests are every case, and need no cases file.
    folder = tmp_path / "k" / "acceptance"
    folder.mkdir(parents=True)
    (folder / "calls.yaml").write_text(
        "python:\n"
        "  calls: {track test: x}\n"
        "  transcripts: {own: 'tdd_check(0, f(0))'}\n"
        "  restated:\n"
        "    own: {input: {operations: []}, expected: {}, description: doubles zero}\n"
        "rust: {calls: {double: double(n)}}\n"
    )
    kata = tmp_path / "k"
    assert has_calls(kata, "python")
    # Calls that perform the data's cases need the data.
    assert not has_calls(kata, "rust")
    with pytest.raises(UsageError, match=r"no cases for rust's calls: add .*canonical-data\.json"):
        load_suite(kata)
    (folder / "calls.yaml").write_text(
        (folder / "calls.yaml").read_text().split("rust:")[0], encoding="utf-8"
    )
    suite = load_suite(kata)
    assert suite.cases == ()
    assert [(c.id, c.description, c.property) for c in suite.cases_for("python")] == [
        ("own", "doubles zero", TRACK_TEST)
    ]


def test_an_unknown_key_in_calls_is_named(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"python\.colls"):
        load_suite(_kata(tmp_path, "python: {colls: {}}\n"))


def test_a_missing_suite_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"canonical-data\.json"):
        load_suite(tmp_path)


@pytest.mark.parametrize(
    ("value", "literal"),
    [
        (None, "None"),
        (True, "true"),
        (-3, "-3"),
        (2.0, "2.0"),
        (1e20, "1e+20"),
        ('a"b\\c\n', '"a\\"b\\\\c\\n"'),
        ("\x01é", '"\\u{1}é"'),
        ([[1], []], "vec![vec![1], vec![]]"),
    ],
)
def test_rust_literals(value: Any, literal: str) -> None:
    assert RUST_LITERALS.render(value) == literal


def test_a_map_cannot_be_a_rust_literal() -> None:
    with pytest.raises(UsageError):
        RUST_LITERALS.render({"a": 1})


def test_the_scored_tree_holds_the_code_alone() -> None:
    files = {
        "fizzbuzz.py": b"", "pkg/util.py": b"", "tests/test_x.py": b"", "conftest.py": b"",
        "pyproject.toml": b"", "tdd.yaml": b"", "test_top.py": b"",
    }  # fmt: skip
    assert set(implementation_files(get_language("python"), files)) == {
        "fizzbuzz.py",
        "pkg/util.py",
    }


@pytest.mark.parametrize(
    ("value", "literal"),
    [
        (None, "nil"),
        (False, "false"),
        (-3, "-3"),
        (2.5, "2.5"),
        ('a"b\\c\n', '"a\\"b\\\\c\\n"'),
        ("\x01é", '"\\u0001é"'),
        ([1, 2], "[]int{1, 2}"),
        (["a"], '[]string{"a"}'),
        ([], "nil"),
        ([[1], [2, 3]], "[][]int{[]int{1}, []int{2, 3}}"),
        ([[], [1]], "[][]int{nil, []int{1}}"),
    ],
)
def test_go_literals(value: Any, literal: str) -> None:
    assert GO_LITERALS.render(value) == literal


def test_javascript_literals_are_json() -> None:
    assert js_literal({"a": [1, "b\n", None, True]}) == '{"a": [1, "b\\n", null, true]}'
    with pytest.raises(UsageError):
        js_literal(float("nan"))


@pytest.mark.parametrize(
    ("value", "literal"),
    [
        (None, "std::nullopt"),
        (True, "true"),
        (-3, "-3"),
        (2**40, f"{2**40}LL"),
        ('a"b\n', 'std::string("a\\"b\\012", 4)'),
        ("é", 'std::string("\\303\\251", 2)'),
        ([1, 2], "std::vector<int>{1, 2}"),
        # The data's `[]` has no kind: it becomes the empty container the call takes.
        ([], "tdd_acceptance::Empty{}"),
        (["a"], 'std::vector<std::string>{std::string("a", 1)}'),
        ([[1], []], "std::vector<std::vector<int>>{std::vector<int>{1}, tdd_acceptance::Empty{}}"),
    ],
)
def test_cpp_literals(value: Any, literal: str) -> None:
    assert CPP_LITERALS.render(value) == literal


@pytest.mark.parametrize(
    ("value", "literal"),
    [
        (None, "null"),
        (-3, "-3"),
        (2**40, f"{2**40}L"),
        ('a"b\n', '"a\\"b\\n"'),
        ("é😀", '"\\u00e9\\ud83d\\ude00"'),
        ([1, 2], "new int[] {1, 2}"),
        (["a"], 'new String[] {"a"}'),
    ],
)
def test_java_literals(value: Any, literal: str) -> None:
    assert JAVA_LITERALS.render(value) == literal


@pytest.mark.parametrize("syntax", [GO_LITERALS, CPP_LITERALS, JAVA_LITERALS])
@pytest.mark.parametrize("value", [{"a": 1}, [1, "a"], [[1], ["a"]], [True, 1], float("nan")])
def test_what_a_typed_language_cannot_express_is_named(syntax: LiteralSyntax, value: Any) -> None:
    with pytest.raises(UsageError, match=syntax.language.replace("+", r"\+")):
        syntax.render(value)


def test_the_cases_the_stub_passes_are_kept_per_language_and_a_bad_file_is_named(
    tmp_path: Path,
) -> None:
    (tmp_path / "acceptance").mkdir()
    write_left_out(tmp_path, "rust", ["b", "a"])
    write_left_out(tmp_path, "go", ["c"])
    assert read_left_out(tmp_path, "rust") == {"a", "b"}
    assert read_left_out(tmp_path, "python") == frozenset()
    write_left_out(tmp_path, "rust", [])
    write_left_out(tmp_path, "go", [])
    assert not (tmp_path / "acceptance" / LEFT_OUT).exists()
    (tmp_path / "acceptance" / LEFT_OUT).write_text('{"rust": "all"}')
    with pytest.raises(UsageError, match="is not a map of languages to lists of case ids"):
        read_left_out(tmp_path, "rust")


def test_a_report_less_the_left_out_cases_scores_the_rest() -> None:
    report = AcceptanceReport(
        (CaseResult("a", CaseStatus.PASSED), CaseResult("b", CaseStatus.WRONG),
         CaseResult("c", CaseStatus.PASSED)),
        probed=3,
    )  # fmt: skip
    less = report.without({"c", "z"})
    assert (less.passed, less.total, less.left_out, less.probed) == (1, 2, ("c",), 2)
