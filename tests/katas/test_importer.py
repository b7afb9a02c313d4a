"""Exercism exercises, laid out as upstream, become katas; nothing half-written."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tdd_sandbox.acceptance.suite import has_calls, has_suite, load_suite
from tdd_sandbox.errors import UsageError
from tdd_sandbox.katas.importer import import_katas, set_aside_stub
from tdd_sandbox.katas.kata import load_kata
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.repo.scaffolding import starting_files

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "exercism"
PYTHON = FIXTURES / "python" / "exercises" / "practice"
RUST = FIXTURES / "rust" / "exercises" / "practice"
GO = FIXTURES / "go" / "exercises" / "practice"
JAVASCRIPT = FIXTURES / "javascript" / "exercises" / "practice"
CPP = FIXTURES / "cpp" / "exercises" / "practice"
JAVA = FIXTURES / "java" / "exercises" / "practice"
TYPESCRIPT = FIXTURES / "typescript" / "exercises" / "practice"
SPECS = FIXTURES / "problem-specifications" / "exercises"


def _tree(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


def test_track_exercises_and_the_specification_make_one_kata(tmp_path: Path) -> None:
    report = import_katas([PYTHON / "leap", RUST / "leap", GO / "leap", SPECS / "leap"], tmp_path)
    assert report.problems == []
    assert report.written == [tmp_path / "leap"]
    assert _tree(tmp_path / "leap") == [
        "acceptance/calls.yaml",
        "acceptance/canonical-data.json",
        "acceptance/go/cases_test.go",
        "acceptance/go/leap_test.go",
        "acceptance/python/tests/leap_test.py",
        "acceptance/rust/tests/leap.rs",
        "kata.md",
        "reference/go/leap.go",
        "reference/python/leap.py",
        "reference/rust/src/lib.rs",
        "scaffold/go/go.mod",
        "scaffold/go/leap.go",
        "scaffold/python/leap.py",
        "scaffold/rust/Cargo.toml",
        "scaffold/rust/src/lib.rs",
    ]
    kata = load_kata(tmp_path / "leap" / "kata.md")
    assert kata.title == "Leap"
    assert "evenly divisible by 4" in kata.text
    assert "`src/lib.rs`" in kata.text  # where the repository starts, per language
    assert "is_leap_year" not in kata.text  # nothing of the reference or the tests
    assert has_suite(tmp_path / "leap", "python")
    assert has_suite(tmp_path / "leap", "rust")
    # A run's repository starts from the stub over the scaffold, the crate keeping its name.
    rust = starting_files(get_language("rust"), tmp_path / "leap")
    assert 'name = "leap"' in rust["Cargo.toml"]
    assert "Cargo.lock" not in rust
    assert "todo!" in rust["src/lib.rs"]
    python = starting_files(get_language("python"), tmp_path / "leap")
    assert python["leap.py"] == (PYTHON / "leap" / "leap.py").read_text()
    assert "tests/test_scaffold.py" in python
    # One Go folder holds one package: the stub's `package leap` takes the scaffold's place,
    # and the toolchain test joins it.
    go = starting_files(get_language("go"), tmp_path / "leap")
    assert sorted(go) == ["go.mod", "leap.go", "scaffold_test.go"]
    assert go["go.mod"].startswith("module leap")
    assert go["scaffold_test.go"].startswith("package leap\n")
    reference = starting_files(get_language("go"), tmp_path / "leap", overlay="reference")
    assert "year%400 == 0" in reference["leap.go"]


def test_an_exercise_that_cannot_be_imported_is_a_line_and_leaves_nothing(
    tmp_path: Path,
) -> None:
    broken = tmp_path / "src" / "broken"
    shutil.copytree(PYTHON / "leap", broken)
    config = json.loads((broken / ".meta" / "config.json").read_text())
    config["files"]["test"] = ["gone_test.py"]
    (broken / ".meta" / "config.json").write_text(json.dumps(config))
    shutil.copytree(PYTHON / "leap", tmp_path / "src" / "leap")
    out = tmp_path / "out"
    report = import_katas([tmp_path / "src"], out)
    assert len(report.problems) == 1
    assert "broken" in report.problems[0]
    assert "gone_test.py (named in .meta/config.json) is not a file here" in report.problems[0]
    assert sorted(p.name for p in out.iterdir()) == ["leap"]  # no half-made kata, no temp


def test_a_config_that_is_not_json_past_its_files_imports_on_its_files_and_says_so(
    tmp_path: Path,
) -> None:
    # Three of today's TypeScript exercises lack a comma after their `custom` block: the
    # files they name are all an import needs of the config.
    source = tmp_path / "src" / "leap"
    shutil.copytree(TYPESCRIPT / "leap", source)
    config = source / ".meta" / "config.json"
    config.write_text(config.read_text().replace('  },\n  "source"', '  }\n  "source"'))
    with pytest.raises(ValueError):
        json.loads(config.read_text())
    report = import_katas([source], tmp_path / "out")
    assert report.problems == []
    assert any("config.json is not JSON" in note and "files read alone" in note
               for note in report.notes), report.notes  # fmt: skip
    assert (tmp_path / "out" / "leap" / "reference" / "typescript" / "leap.ts").is_file()
    # A config whose files cannot be read either is still a problem, said in one line.
    config.write_text(config.read_text().replace('"solution": [', '"solution" ['))
    report = import_katas([source], tmp_path / "again")
    assert "config.json is unreadable or lacks files" in report.problems[0]


def test_a_reimport_replaces_its_language_and_keeps_the_others(tmp_path: Path) -> None:
    import_katas([PYTHON / "leap", RUST], tmp_path)
    (tmp_path / "leap" / "acceptance" / "python" / "tests" / "stale.py").write_text("x")
    import_katas([PYTHON / "leap"], tmp_path)
    assert not (tmp_path / "leap" / "acceptance" / "python" / "tests" / "stale.py").exists()
    assert (tmp_path / "leap" / "acceptance" / "rust" / "tests" / "leap.rs").is_file()
    assert "rust: `Cargo.toml`" in (tmp_path / "leap" / "kata.md").read_text()


def test_a_folder_without_exercises_is_refused_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="holds no Exercism exercise"):
        import_katas([tmp_path], tmp_path / "out")


def test_a_rust_reference_builds_with_the_manifest_its_track_gives_it(tmp_path: Path) -> None:
    # Exercism's Rust examples name their own crates in `.meta/Cargo-example.toml`
    # (alphametics' itertools, decimal's num-bigint): with the stub's manifest the
    # reference could not build.
    import_katas([RUST / "number-words"], tmp_path)
    kata = tmp_path / "number-words"
    manifest = (RUST / "number-words" / ".meta" / "Cargo-example.toml").read_text()
    assert (kata / "reference" / "rust" / "Cargo.toml").read_text() == manifest
    assert 'num-traits = "0.2"' not in (kata / "scaffold" / "rust" / "Cargo.toml").read_text()
    reference = starting_files(get_language("rust"), kata, overlay="reference")
    assert reference["Cargo.toml"] == manifest


def test_a_test_file_beside_the_tests_comes_along_though_config_leaves_it_unnamed(
    tmp_path: Path,
) -> None:
    # Exercism's Go bottle-song has cases_test.go beside its test but names it nowhere in
    # .meta/config.json: the suite did not build (undefined: testCases).
    source = tmp_path / "src" / "leap"
    shutil.copytree(GO / "leap", source)
    config = json.loads((source / ".meta" / "config.json").read_text())
    del config["files"]["editor"]
    (source / ".meta" / "config.json").write_text(json.dumps(config))
    import_katas([source], tmp_path / "out")
    suite = tmp_path / "out" / "leap" / "acceptance" / "go"
    assert sorted(p.name for p in suite.iterdir()) == ["cases_test.go", "leap_test.go"]


def test_a_tests_folder_s_own_files_come_along_though_config_leaves_them_unnamed(
    tmp_path: Path,
) -> None:
    # Exercism's Rust macros builds tests/invalid/ as a crate of its own, from the tests, to
    # see each file fail to compile: its Cargo.toml was left behind (not a source file), so
    # no such test could pass. A file beside the solution stays out of the tests.
    source = tmp_path / "src" / "leap"
    shutil.copytree(RUST / "leap", source)
    (source / "tests" / "invalid").mkdir()
    (source / "tests" / "invalid" / "Cargo.toml").write_text('[package]\nname = "bad"\n')
    (source / "tests" / "invalid" / "bad.rs").write_text("fn main() { leap::nothing(); }\n")
    (source / "NOTES.txt").write_text("not the tests'\n")
    import_katas([source], tmp_path / "out")
    suite = tmp_path / "out" / "leap" / "acceptance" / "rust"
    assert _tree(suite) == ["tests/invalid/Cargo.toml", "tests/invalid/bad.rs", "tests/leap.rs"]


def test_a_source_file_beside_the_solution_that_config_leaves_unnamed_joins_the_stub(
    tmp_path: Path,
) -> None:
    # Exercism's Rust doubly-linked-list declares `mod pre_implemented;` in its stub, a file
    # named nowhere in .meta/config.json: without it no start could build. A file elsewhere
    # (a bench) stays out, and so does a runner's configuration (JavaScript's Babel config).
    source = tmp_path / "src" / "number-words"
    shutil.copytree(RUST / "number-words", source)
    (source / "src" / "helpers.rs").write_text("pub fn help() {}\n")
    (source / "benches").mkdir()
    (source / "benches" / "bench.rs").write_text("#![feature(test)]\n")
    import_katas([source], tmp_path / "out")
    stub = tmp_path / "out" / "number-words" / "scaffold" / "rust"
    assert _tree(stub) == ["Cargo.toml", "src/helpers.rs", "src/lib.rs"]
    import_katas([JAVASCRIPT / "leap"], tmp_path / "js")
    assert _tree(tmp_path / "js" / "leap" / "scaffold" / "javascript") == ["leap.js"]


def test_a_stub_set_aside_leaves_the_start_and_shows_in_the_kata(tmp_path: Path) -> None:
    import_katas([GO / "leap", PYTHON / "leap"], tmp_path)
    kata = tmp_path / "leap"
    stub = (kata / "scaffold" / "go" / "leap.go").read_text()
    set_aside_stub(kata, "go", ["leap.go"])
    start = starting_files(get_language("go"), kata)
    # With no code left, the toolchain test joins the module's package, as the tests do.
    assert sorted(start) == ["go.mod", "scaffold_test.go"]
    assert start["scaffold_test.go"].startswith("package leap\n")
    text = load_kata(kata / "kata.md").text
    assert "- go: `go.mod`\n" in text
    assert "- python: `leap.py`\n" in text
    assert "## Outline in go\n" in text
    assert f"`leap.go`:\n\n```go\n{stub.rstrip()}\n```" in text
    # Another language's import keeps it, and the language's own re-import starts afresh.
    import_katas([PYTHON / "leap"], tmp_path)
    assert "## Outline in go" in load_kata(kata / "kata.md").text
    import_katas([GO / "leap"], tmp_path)
    assert "## Outline in go" not in load_kata(kata / "kata.md").text
    assert (kata / "scaffold" / "go" / "leap.go").is_file()
    assert not (kata / "outline").exists() or not any((kata / "outline").rglob("*.go"))


def test_a_header_only_reference_takes_the_headers_place_and_keeps_the_stubs_source(
    tmp_path: Path,
) -> None:
    # Three of Exercism's C++ examples are one header (`.meta/example.h`) for a solution of a
    # header and a source file: no reference was kept, and the kata was never proved.
    source = tmp_path / "src" / "leap"
    shutil.copytree(CPP / "leap", source)
    config = json.loads((source / ".meta" / "config.json").read_text())
    config["files"]["example"] = [".meta/example.h"]
    (source / ".meta" / "config.json").write_text(json.dumps(config))
    import_katas([source], tmp_path / "out")
    kata = tmp_path / "out" / "leap"
    assert _tree(kata / "reference" / "cpp") == ["leap.h"]
    reference = starting_files(get_language("cpp"), kata, overlay="reference")
    assert reference["leap.h"] == (source / ".meta" / "example.h").read_text()
    assert reference["leap.cpp"] == (kata / "scaffold" / "cpp" / "leap.cpp").read_text()


def test_a_java_reference_keeps_its_helper_classes_in_the_solutions_folder(
    tmp_path: Path,
) -> None:
    # Exercism's Java bowling gives its reference a Frame class the solution does not name:
    # two examples for one solution file, so no reference was kept (14 of the 47).
    import_katas([JAVA / "leap"], tmp_path)
    kata = tmp_path / "leap"
    assert _tree(kata / "reference" / "java") == [
        "src/main/java/Divisibility.java",
        "src/main/java/Leap.java",
    ]
    assert _tree(kata / "acceptance" / "java") == ["src/test/java/LeapTest.java"]


def test_with_canonical_data_a_tracks_calls_are_derived_for_a_data_suite(tmp_path: Path) -> None:
    # Imported katas were judged only by the track's test files, which run beside the code
    # and can be read by it, though problem-specifications gives the same cases as data.
    report = import_katas([PYTHON / "leap", RUST / "leap", CPP / "leap", SPECS / "leap"], tmp_path)
    kata = tmp_path / "leap"
    suite = load_suite(kata)
    python = suite.calls_for("python")
    assert python.calls == {"leapYear": "leap_year(year)"}
    # The Python track's tests.toml leaves a case out: so does its data suite.
    assert python.exclude == frozenset({"c4c1b3a2-1f0e-4a8b-9d6c-5e4f3a2b1c0d"})
    assert [c.id[:8] for c in suite.cases_for("python")] == ["6466b30d", "42ee56ad"]
    assert suite.calls_for("rust").calls == {"leapYear": "leap::is_leap_year(${year})"}
    # C++'s stub declares an empty namespace: the call is the one its tests make.
    assert suite.calls_for("cpp").calls == {"leapYear": "leap::is_leap_year(${year})"}
    notes = "\n".join(report.notes)
    assert "leap (python): a data suite of 2 cases, its calls read off the track" in notes


def test_a_cpp_or_java_stub_starts_without_the_scaffolds_empty_kata(tmp_path: Path) -> None:
    # The scaffold's empty kata.hpp/kata.cpp (Java's Kata class) sat beside the track's own
    # files: code no test names, which a model then read as part of the kata.
    import_katas([CPP / "leap", JAVA / "leap"], tmp_path)
    cpp = starting_files(get_language("cpp"), tmp_path / "leap")
    assert sorted(cpp) == ["leap.cpp", "leap.h", "tests/scaffold_test.cpp"]
    java = starting_files(get_language("java"), tmp_path / "leap")
    assert sorted(java) == [
        "src/main/java/Leap.java",
        "src/main/java/YearBeforeCalendarException.java",
        "src/test/java/ScaffoldTest.java",
    ]


def test_a_specification_laid_out_as_today_imports_with_its_introduction(tmp_path: Path) -> None:
    # 61 of today's 151 problem-specifications exercises (raindrops, grains, luhn...) give
    # `introduction.md` and `instructions.md`, no `description.md`: each was "not imported:
    # no instructions" unless a track came with it.
    spec = tmp_path / "specs" / "raindrops"
    spec.mkdir(parents=True)
    (spec / "introduction.md").write_text("# Introduction\n\nRain makes sounds.\n")
    (spec / "instructions.md").write_text("# Instructions\n\nSay Pling for 3.\n")
    (spec / "metadata.toml").write_text('title = "Raindrops"\n')
    cases = {"cases": [{"uuid": "1", "description": "one", "property": "convert",
                        "input": {"number": 1}, "expected": "1"}]}  # fmt: skip
    (spec / "canonical-data.json").write_text(json.dumps(cases))
    report = import_katas([tmp_path / "specs"], tmp_path / "out")
    assert report.problems == []
    text = (tmp_path / "out" / "raindrops" / "kata.md").read_text()
    assert text.index("Rain makes sounds.") < text.index("Say Pling for 3.")
