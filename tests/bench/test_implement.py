"""Implement mode's pieces that need no sandbox."""

from __future__ import annotations

import json
import shutil
from pathlib import Path, PurePosixPath

import pytest

from tdd_sandbox.acceptance.testfiles import hidden_test_files
from tdd_sandbox.bench.implement import implementation_paths, prepare
from tdd_sandbox.grading.acceptance import AcceptanceReport, CaseResult, CaseStatus
from tdd_sandbox.katas.importer import import_katas, set_aside_stub
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.repo.scaffolding import starting_files

ROOT = Path(__file__).resolve().parents[2]
LEAP = ROOT / "tests" / "fixtures" / "exercism" / "python" / "exercises" / "practice" / "leap"


@pytest.mark.parametrize(
    ("kata", "language", "paths"),
    [("fizzbuzz", "python", ["fizzbuzz.py"]), ("string-calculator", "python", ["calculator.py"]),
     ("fizzbuzz", "javascript", ["kata.js"]), ("fizzbuzz", "rust", ["src/lib.rs"])],
)  # fmt: skip
def test_the_file_to_write_is_the_one_the_judge_imports(
    kata: str, language: str, paths: list[str]
) -> None:
    # Small models need the path spelled out, as the loop spells it for its implementer.
    pack = get_language(language)
    kata_dir = ROOT / "katas" / kata
    files = {p: t.encode() for p, t in starting_files(pack, kata_dir).items()}
    assert implementation_paths(kata_dir, kata, pack, files, {}) == paths


def test_an_imported_katas_file_is_the_one_its_tests_import(tmp_path: Path) -> None:
    import_katas([LEAP], tmp_path)
    pack, kata_dir = get_language("python"), tmp_path / "leap"
    tests = hidden_test_files(kata_dir, pack)
    files = {p: t.encode() for p, t in starting_files(pack, kata_dir).items()} | tests
    assert implementation_paths(kata_dir, "leap", pack, files, tests) == ["leap.py"]


@pytest.mark.parametrize(
    ("language", "paths"),
    [("python", ["leap.py"]), ("javascript", ["leap.js"]), ("typescript", ["leap.ts"]),
     ("cpp", ["leap.h", "leap.cpp"]), ("go", ["leap.go"]), ("rust", ["src/lib.rs"]),
     ("java", ["src/main/java/Leap.java", "src/main/java/YearBeforeCalendarException.java"])],
)  # fmt: skip
def test_an_imported_stub_is_what_is_asked_for_and_no_placeholder_beside_it(
    tmp_path: Path, language: str, paths: list[str]
) -> None:
    # Asked for `kata.hpp` and `kata.cpp` beside a stub's `leap.h` and `leap.cpp`, which the
    # tests include, a model that did as asked failed every test; asked for `leap.js` and
    # the scaffold's empty `kata.js`, the 0.5B wrote both under headings no parser read.
    exercise = ROOT / "tests" / "fixtures" / "exercism" / language / "exercises" / "practice"
    import_katas([exercise / "leap"], tmp_path)
    piece = prepare(tmp_path / "leap", get_language(language))
    assert piece.sources == paths
    placeholders = [p for p in piece.files if PurePosixPath(p).stem.lower() == "kata"]
    assert placeholders == []  # the scaffold's empty code gives way to the stub's
    # The tests as the judge runs them, less the harness's own plumbing: JavaScript's import
    # of Jest's globals from the image's module showed the model a path of ours.
    assert piece.tests
    assert not [path for path, data in piece.tests.items() if b"/opt/" in data]


def test_a_stub_set_aside_is_the_file_to_write(tmp_path: Path) -> None:
    # Go's bowling stub names `*Game` and defines no Game: it is set aside as the outline,
    # and the start holds no code file. The ask named `kata.go`, the outline `bowling.go`.
    kata_dir = tmp_path / "bowling"
    shutil.copytree(ROOT / "katas" / "bowling", kata_dir)
    pack = get_language("go")
    (kata_dir / "scaffold" / "go").mkdir(parents=True)
    (kata_dir / "scaffold" / "go" / "bowling.go").write_text("package bowling\n")
    set_aside_stub(kata_dir, "go", ["bowling.go"])
    files = {p: t.encode() for p, t in starting_files(pack, kata_dir).items()}
    assert "bowling.go" not in files
    assert pack.suggest_paths(files, "bowling")[1] == ["kata.go"]  # what was asked before
    assert implementation_paths(kata_dir, "bowling", pack, files, {}) == ["bowling.go"]


@pytest.mark.parametrize("uuids", [False, True], ids=["by description", "by uuid"])
def test_the_retry_names_no_expected_value_the_prompt_did_not_show(
    tmp_path: Path, uuids: bool
) -> None:
    # A data kata too long for the prompt has its last cases cut; told "expected X" for one of
    # those on the retry, a model would learn an answer it was never shown (issue #46). A
    # case with a uuid has it for its id: the cut was kept by description, and missed it.
    kata_dir = tmp_path / "fizzbuzz"
    shutil.copytree(ROOT / "katas" / "fizzbuzz", kata_dir)
    cases = [
        {"description": f"case {i} {'with a long name ' * 8}", "property": "fizzbuzz",
         "input": {"n": i}, "expected": f"answer-{i}"}
        | ({"uuid": f"00000000-0000-0000-0000-{i:012d}"} if uuids else {})
        for i in range(1, 400)
    ]  # fmt: skip
    data = tmp_path / "fizzbuzz" / "acceptance" / "canonical-data.json"
    data.write_text(json.dumps({"exercise": "fizzbuzz", "cases": cases}))
    piece = prepare(kata_dir, get_language("python"))
    [rendered] = piece.extra
    assert 'answer-1"' in rendered
    assert "answer-399" not in rendered  # cut at the prompt's length limit
    key = "uuid" if uuids else "description"
    report = AcceptanceReport((
        CaseResult(str(cases[0][key]), CaseStatus.WRONG, "expected 'answer-1', got '1'"),
        CaseResult(str(cases[-1][key]), CaseStatus.WRONG, "expected 'answer-399', got '399'"),
    ))  # fmt: skip
    told = piece.failures(report)
    assert "answer-399" not in told
    # Each case named as the model was shown it, never by a uuid it was not.
    first, last = str(cases[0]["description"]), str(cases[-1]["description"])
    assert f"- {first}: expected 'answer-1', got '1'" in told
    assert f"- {last}: wrong" in told  # still said to fail, with no value
    assert "00000000" not in told


def test_a_retry_after_no_test_ran_hears_the_reason_once() -> None:
    # The parity run's list-ops retry heard "expected test did not run: ... collection
    # failure" for ten tests, and not the error that stopped them (issue #44).
    piece = prepare(ROOT / "katas" / "fizzbuzz", get_language("python"))
    not_run = "expected test did not run: collection failure: NameError: name 'x' is not defined"
    report = AcceptanceReport(
        tuple(CaseResult(f"t{i}", CaseStatus.WRONG, not_run) for i in range(12)),
        problem="no test ran (2 errors): collection failure: NameError: name 'x' is not defined",
    )
    told = piece.failures(report)
    assert told == f"0 of 12 tests passed.\n{report.problem}"
