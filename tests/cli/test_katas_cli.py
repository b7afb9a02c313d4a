"""`katas import` and `katas list` through the entry point: Exercism exercises as laid out
upstream, proved in the sandbox, then played and scored like any kata."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from tdd_sandbox.katas.calls import write_calls
from tdd_sandbox.katas.kata import load_kata
from tdd_sandbox.languages.go.reader import TOOLCHAIN
from tdd_sandbox.languages.registry import LANGUAGES
from tdd_sandbox.languages.rust.reader import TOOLCHAIN as RUST_TOOLCHAIN
from tests.helpers.bench_scripts import formatted
from tests.helpers.cli import run_cli
from tests.helpers.fake_llm import FakeLLM, done, no_change, plan
from tests.helpers.git import git

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "exercism"
PYTHON = FIXTURES / "python" / "exercises" / "practice"
RUST = FIXTURES / "rust" / "exercises" / "practice"
GO = FIXTURES / "go" / "exercises" / "practice"
JAVASCRIPT = FIXTURES / "javascript" / "exercises" / "practice"
JAVA = FIXTURES / "java" / "exercises" / "practice"
CPP = FIXTURES / "cpp" / "exercises" / "practice"
TYPESCRIPT = FIXTURES / "typescript" / "exercises" / "practice"  # as the track has it, 2026-08
TESTS = {
    "python": (
        "tests/test_leap.py",
        "import unittest\n\nfrom leap import leap_year\n\n\n"
        "class LeapTest(unittest.TestCase):\n"
        "    def test_2015_is_common(self) -> None:\n"
        "        self.assertIs(leap_year(2015), False)\n",
    ),
    "rust": (
        "tests/leap.rs",
        "#[test]\nfn common_year() {\n    assert!(!leap::is_leap_year(2015));\n}\n",
    ),
    "go": (
        "leap_test.go",
        'package leap\n\nimport "testing"\n\nfunc TestCommonYear(t *testing.T) {\n'
        '\tif IsLeapYear(2015) {\n\t\tt.Fatal("2015 is a common year")\n\t}\n}\n',
    ),
}
SOLUTIONS = {
    "python": ("leap.py", (PYTHON / "leap" / ".meta" / "example.py").read_text()),
    "rust": ("src/lib.rs", (RUST / "leap" / ".meta" / "example.rs").read_text()),
    "go": ("leap.go", (GO / "leap" / ".meta" / "example.go").read_text()),
}


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("katas")
    sources = (str(PYTHON / "leap"), str(RUST / "leap"), str(GO / "leap"))
    result = run_cli("katas", "import", *sources, "--out", str(out))
    assert result.returncode == 0, result.stdout + result.stderr[-2000:]
    assert "leap (python): proved (reference 5/5, stub 0/5)" in result.stdout
    assert "leap (rust): proved (reference 5/5, stub 0/5)" in result.stdout
    # Go's track runs its five cases as subtests of one test function.
    assert "leap (go): proved (reference 1/1, stub 0/1)" in result.stdout
    # Without canonical data Rust's tests transcribe, and the kata is judged as data there
    # (`test_katas_transcribed`). This module's tests are of the judge that runs a track's
    # tests beside the code, as every kata whose tests no rule transcribes still is: the
    # kata is made one such.
    assert "leap (rust): judged as data" in result.stdout
    write_calls(out / "leap", "rust", None)
    return out


def scored(tmp_path: Path, kata: Path, language: str, files: dict[str, str]) -> dict[str, Any]:
    """`score --json` of a repository made by `init` from `kata` (its folder) with `files`
    written and committed over the starting files."""
    repo = tmp_path / "repo"
    made = run_cli("init", str(repo), "-l", language, "--kata", str(kata / "kata.md"))
    assert made.returncode == 0, made.stderr
    for path, text in files.items():
        (repo / path).write_text(text)
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=m", "-c", "user.email=m@x", "commit", "-qm", "feat: leap")
    score = run_cli("score", str(kata), "--repo", str(repo), "--json", "-l", language)
    assert score.returncode == 0, score.stderr
    document: dict[str, Any] = json.loads(score.stdout)
    return document


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_import_proves_and_list_shows_the_languages(imported: Path) -> None:
    listed = run_cli("katas", "list", str(imported))
    assert listed.returncode == 0, listed.stderr
    # Piped, as here: one whole line a kata (a table cut names to its width).
    [line] = [row for row in listed.stdout.splitlines() if row.startswith("leap\t")]
    _, title, languages = line.split("\t")
    assert title == "Leap"
    assert len(languages.split(",")) == 3
    document = json.loads(run_cli("katas", "list", str(imported), "--json").stdout)
    assert [kata["languages"] for kata in document if kata["kata"] == "leap"] == [
        languages.split(",")
    ]


@pytest.mark.docker
@pytest.mark.usefixtures("images")
@pytest.mark.parametrize("language", ["python", "rust", "go"])
def test_one_cycle_on_an_imported_kata_then_its_score(
    tmp_path: Path, imported: Path, language: str
) -> None:
    test_path, test_text = TESTS[language]
    impl_path, impl_text = SOLUTIONS[language]
    if language == "python":
        test_text, impl_text = formatted(test_text), formatted(impl_text)
    script = {
        # A `done` before any test of the kata is refused (the scaffold's test is not one).
        "tester": [done(), plan((test_path, test_text), message="test(leap): 2015"), done()],
        "implementer": [plan((impl_path, impl_text), message="feat(leap): leap years")],
        "refactorer": [no_change()],
    }
    repo = tmp_path / "repo"
    kata = imported / "leap" / "kata.md"
    with FakeLLM(script) as fake:
        models = {f"TDD_SANDBOX_ROLES__{r.upper()}__MODEL": f"custom:{r}" for r in script}
        env = {"TDD_SANDBOX_LLM__BASE_URL": fake.base_url, **models}
        result = run_cli("run", str(kata), "--repo", str(repo), "-l", language, "--json", env=env)
    assert result.returncode == 0, result.stderr[-3000:]
    summary = json.loads(result.stdout)
    assert summary["status"] == "completed", summary
    # The run started from the track's stub; no hidden test or reference reached the repo.
    first = git(repo, "show", "--name-only", "--format=", "HEAD~" + str(len(summary["commits"])))
    assert impl_path in first
    tracked = git(repo, "ls-files").split()
    assert not any("example" in path for path in tracked)
    # By content: Go's tester names its file leap_test.go, as the track does.
    hidden = {p.read_bytes() for p in (imported / "leap" / "acceptance").rglob("*") if p.is_file()}
    assert not hidden & {(repo / path).read_bytes() for path in tracked}
    score = run_cli("score", str(imported / "leap"), "--repo", str(repo), "--json",
                    "-l", language)  # fmt: skip
    assert score.returncode == 0, score.stderr
    assert json.loads(score.stdout)["rate"] == 1.0
    # The track's tests ran beside the code, which could read them: the score says so, and
    # how many of its cases the probe checked (their expected values changed, run again).
    assert json.loads(score.stdout)["judged"] == "in_process"
    # Rust's leap asserts `assert!(!is_leap_year(2015))`: no expected value to change.
    assert json.loads(score.stdout)["probed"] == {"python": 5, "go": 1, "rust": 0}[language]


def test_import_of_a_folder_without_exercises_is_one_line(tmp_path: Path) -> None:
    result = run_cli("katas", "import", str(tmp_path), "--out", str(tmp_path / "out"))
    assert result.returncode == 2
    assert "holds no Exercism exercise" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_bench_scores_an_imported_kata_by_its_tracks_tests(tmp_path: Path, imported: Path) -> None:
    test_path, test_text = TESTS["python"]
    impl_path, impl_text = SOLUTIONS["python"]
    script = {
        "m-tester": [plan((test_path, formatted(test_text)), message="test(leap): 2015"), done()],
        "m-impl": [plan((impl_path, formatted(impl_text)), message="feat(leap): leap years")],
        "m-ref": [no_change()],
    }
    config = tmp_path / "bench.yaml"
    config.write_text(
        "bench:\n  models:\n    m: {tester: custom:m-tester, implementer: custom:m-impl, "
        "refactorer: custom:m-ref}\n"
    )
    out = tmp_path / "out"
    with FakeLLM(script) as fake:
        result = run_cli(
            "bench", "--models", "m", "--katas", str(imported), "--languages", "python",
            "--cycles", "2", "--out", str(out), "--config", str(config),
            env={"TDD_SANDBOX_LLM__BASE_URL": fake.base_url},
        )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    [row] = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert (row["status"], row["acceptance_pass_rate"]) == ("completed", 1.0), row
    assert row["acceptance"]["total"] == 5  # the track's five tests
    assert row["judged"] == "in_process"
    assert "| 1 / 1 |" in (out / "leaderboard.md").read_text()  # judged in-process: 1 of 1
    refused = run_cli(
        "bench", "--models", "m", "--katas", str(imported), "--languages", "python",
        "--require-data", "--out", str(tmp_path / "out2"), "--config", str(config),
    )  # fmt: skip
    assert refused.returncode == 2
    assert "has a data suite (--require-data) for python" in refused.stderr


PATCHED_ASSERT = """\
import unittest

unittest.TestCase.assertIs = lambda self, first, second, msg=None: None


def leap_year(year):
    return None
"""
# The same, hidden from a reader that takes the file for UTF-8 (its host parser gave up on the
# `+AAo-` line, so the policy saw nothing) while the interpreter decodes UTF-7: 5/5 before.
HIDDEN_PATCHED_ASSERT = (
    "# -*- coding: utf-7 -*-\n"
    + PATCHED_ASSERT.replace("\n", "+AAo-").replace("+AAo-+AAo-+AAo-def", "\n\n\ndef")
    + "\n"
)


@pytest.mark.docker
@pytest.mark.usefixtures("images")
@pytest.mark.parametrize(
    "source",
    [PATCHED_ASSERT, HIDDEN_PATCHED_ASSERT, "\ufeff" + PATCHED_ASSERT],
    ids=["plain", "utf-7", "byte-order mark"],
)
def test_code_that_patches_the_tracks_assertions_scores_nothing(
    tmp_path: Path, imported: Path, source: str
) -> None:
    # A track's tests run in the same process as the code they judge: an implementation
    # that rebinds unittest's assertIs at import made every hidden test pass (5/5).
    document = scored(tmp_path, imported / "leap", "python", {"leap.py": source})
    assert document["passed"] == 0, document
    assert "policy" in document["why"]


# No name a reader of the text sees: the work is done by a string annotation, which
# `typing.get_type_hints` evaluates in the module's globals, where `__import__` is (issue #46).
_PATCH = "setattr(__import__('unittest').TestCase, '{name}', lambda *a, **k: None)"
EVALUATED_ANNOTATIONS = (
    "import typing\n\n\n"
    + "".join(
        f'def _{name}(x: "{_PATCH.format(name=name)}") -> None:\n    pass\n\n\n'
        for name in ("assertIs", "assertEqual", "assertTrue", "assertFalse")
    )
    + "for _hook in (_assertIs, _assertEqual, _assertTrue, _assertFalse):\n"
    + "    typing.get_type_hints(_hook)\n\n\n"
    + "def leap_year(year: int) -> bool:\n    return year > 0\n"
)
# The same text built at run time, so no string of the file reads as code: typing turns the
# subscript's string into a reference it evaluates. Only the guard, which compares what the
# tests call before and after, can see this one.
BUILT_ANNOTATIONS = (
    "import typing\n\n"
    'HALF = "setattr(__imp"\n'
    'for _name in ("assertIs", "assertEqual", "assertTrue", "assertFalse"):\n\n'
    "    def _hook(x: typing.List[HALF + \"ort__('unittest').TestCase, '\" + _name\n"
    '                             + "\', lambda *a, **k: None)"]) -> None:\n'
    "        pass\n\n"
    "    typing.get_type_hints(_hook)\n\n\n"
    "def leap_year(year: int) -> bool:\n    return year > 0\n"
)


@pytest.mark.docker
@pytest.mark.usefixtures("images")
@pytest.mark.parametrize(
    ("source", "caught"),
    [(EVALUATED_ANNOTATIONS, "policy"), (BUILT_ANNOTATIONS, "TestCase.assertIs")],
    ids=["literal", "built at run time"],
)
def test_code_that_patches_the_tracks_assertions_through_an_annotation_scores_nothing(
    tmp_path: Path, imported: Path, source: str, caught: str
) -> None:
    document = scored(tmp_path, imported / "leap", "python", {"leap.py": source})
    assert document["passed"] == 0, document
    assert caught in document["why"], document


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_rust_code_that_exports_its_own_assert_macros_scores_nothing(
    tmp_path: Path, imported: Path
) -> None:
    # The track's tests `use leap::*`: exported macros named as the standard ones would
    # shadow them in the tests if a glob import could. rustc refuses the ambiguity (E0659),
    # so the tests do not build and nothing passes: the question Go's `false` raised,
    # asked of Rust (issue #46).
    code = (
        "#[macro_export]\nmacro_rules! assert {\n    ($($t:tt)*) => {};\n}\n\n"
        "#[macro_export]\nmacro_rules! assert_eq {\n    ($($t:tt)*) => {};\n}\n\n"
        "pub fn is_leap_year(_year: u64) -> bool {\n    true\n}\n"
    )
    document = scored(tmp_path, imported / "leap", "rust", {"src/lib.rs": code})
    assert document["passed"] == 0, document


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_go_code_that_redefines_false_for_the_tests_scores_nothing(
    tmp_path: Path, imported: Path
) -> None:
    # The track's tests share the code's package: with `false` true in them, a leap year
    # function that always says true passed every case, 100% (issue #46).
    code = (
        "// Package leap answers yes.\npackage leap\n\nconst false = true\n\n"
        "// IsLeapYear says yes.\nfunc IsLeapYear(year int) bool {\n\treturn year > 0\n}\n"
    )
    document = scored(tmp_path, imported / "leap", "go", {"leap.go": code})
    assert document["passed"] == 0, document
    assert "predeclared" in document["why"], document


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_go_code_that_reads_the_tracks_cases_scores_nothing_and_the_probe_says_so(
    tmp_path: Path, imported: Path
) -> None:
    # Exercism's Go tests share the code's package, so `go test` compiles the code with
    # cases_test.go: the code can look each answer up in the track's own table, by a name
    # no policy knows. 1/1 before; the probe (the cases' expected values changed, run again)
    # sees the code answer the changed values too (issue #46).
    code = (
        "// Package leap looks its answers up.\npackage leap\n\n"
        "// IsLeapYear answers as the table does.\nfunc IsLeapYear(year int) bool {\n"
        "\tfor _, tc := range testCases {\n\t\tif tc.year == year {\n"
        "\t\t\treturn tc.expected\n\t\t}\n\t}\n\treturn false\n}\n"
    )
    document = scored(tmp_path, imported / "leap", "go", {"leap.go": code})
    assert document["passed"] == 0, document
    assert "answers" in document["cases"][0]["detail"], document
    assert document["probed"] == 1, document


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_a_stub_is_formatted_at_import_and_one_that_fails_its_gates_is_set_aside(
    tmp_path: Path,
) -> None:
    # A stub laid out otherwise than the language's formatter would was refused (format gate
    # failed), where a model's edit in the same state is formatted: 6 of Python's 34 and 24
    # of C++'s 26 in aider's polyglot set.
    source = tmp_path / "leap"
    shutil.copytree(PYTHON / "leap", source)
    (source / "leap.py").write_text("def leap_year( year ):\n    pass\n")  # not formatted
    result = run_cli("katas", "import", str(source), "--out", str(tmp_path / "out"))
    assert result.returncode == 0, result.stdout + result.stderr[-1500:]
    assert "leap (python): the stub formatted by the language's formatter: leap.py" in result.stdout
    assert "leap (python): proved (reference 5/5, stub 0/5)" in result.stdout
    stub = tmp_path / "out" / "leap" / "scaffold" / "python" / "leap.py"
    assert stub.read_text() == "def leap_year(year):\n    pass\n"
    # A run starts from the stub, and a HEAD that fails its gates cannot start a cycle: what
    # no formatter mends (an unused import, which the lint gate refuses) was named, and the
    # kata not proved. The stub is set aside now, shown in kata.md as the outline.
    (source / "leap.py").write_text("import os\n\n\ndef leap_year(year):\n    pass\n")
    result = run_cli("katas", "import", str(source), "--out", str(tmp_path / "out"))
    assert result.returncode == 0, result.stdout + result.stderr[-1500:]
    assert "the stub fails its gates as it stands (lint" in result.stdout
    assert "leap (python): proved (reference 5/5, stub 0/5)" in result.stdout
    kata = tmp_path / "out" / "leap"
    assert not (kata / "scaffold" / "python" / "leap.py").exists()
    assert "import os" in load_kata(kata / "kata.md").text


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_a_go_stub_naming_a_type_the_solution_defines_becomes_an_outline(tmp_path: Path) -> None:
    # Nine of Exercism's Go stubs name a type the solution is to define (`func NewGame()
    # *Game`, no type Game): go vet refused the start, and the kata was not proved.
    source = tmp_path / "leap"
    shutil.copytree(GO / "leap", source)
    stub = (source / "leap.go").read_text()
    (source / "leap.go").write_text(stub + "\nfunc (c *Calendar) Year() int {\n\tpanic(0)\n}\n")
    out = tmp_path / "out"
    result = run_cli("katas", "import", str(source), "--out", str(out))
    assert result.returncode == 0, result.stdout + result.stderr[-1500:]
    assert "leap (go): the stub fails its gates as it stands (lint" in result.stdout
    assert "leap (go): proved (reference 1/1, stub 0/1)" in result.stdout
    assert "func (c *Calendar) Year() int" in load_kata(out / "leap" / "kata.md").text


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_a_given_file_that_builds_only_with_the_solution_goes_into_the_outline_with_it(
    tmp_path: Path,
) -> None:
    # Go's robot-simulator gives defs.go, whose `var _ fmt.Stringer = Dir(1729)` needs the
    # String method the stub defines, beside a stub naming types the solution defines: with
    # the stub set aside, defs.go alone still failed go vet, and the kata was not proved.
    config = json.loads((GO / "leap" / ".meta" / "config.json").read_text())
    config["files"]["editor"].append("defs.go")
    defs = (
        'package leap\n\nimport "fmt"\n\n// Era is what the calendar counts in.\n'
        "type Era int\n\nvar _ fmt.Stringer = Era(0)\n"
    )
    method = "\n// String names the era.\nfunc (e Era) String() string {\n\t{body}\n}\n"
    calendar = "\n// NewCalendar makes a calendar.\nfunc NewCalendar() *Calendar {\n\t{body}\n}\n"
    stub = (GO / "leap" / "leap.go").read_text()
    example = (GO / "leap" / ".meta" / "example.go").read_text()
    source = _leap_from(
        tmp_path,
        GO,
        {
            ".meta/config.json": json.dumps(config),
            "defs.go": defs,
            "leap.go": stub + (method + calendar).replace("{body}", "panic(0)"),
            ".meta/example.go": example
            + method.replace("{body}", 'return "AD"')
            + calendar.replace("{body}", "return &Calendar{}")
            + "\n// Calendar counts years.\ntype Calendar struct{}\n",
        },
    )
    printed = _imported(tmp_path, source)
    assert "leap (go): proved (reference 1/1, stub 0/1)" in printed, printed
    kata = tmp_path / "out" / "leap"
    assert not (kata / "scaffold" / "go" / "defs.go").exists()
    outline = load_kata(kata / "kata.md").text
    assert "var _ fmt.Stringer = Era(0)" in outline
    assert "func NewCalendar() *Calendar" in outline


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_a_go_exercise_asking_for_a_newer_go_than_the_image_s_imports_and_says_so(
    tmp_path: Path,
) -> None:
    # Today's track's go.mod said `go 1.26` to Debian 13's Go 1.24, which refused every gate
    # ("go.mod requires go >= 1.26"), the stub's and the reference's: 0 of 6 exercises proved.
    # The image's Go is newer now; a go.mod newer still stands for the next such track.
    newer = f"go 1.{TOOLCHAIN[1] + 2}"
    mod = f"module leap\n\n{newer}\n\ntoolchain {newer.replace(' ', '')}.1\n"
    printed = _imported(tmp_path, _leap_from(tmp_path, GO, {"go.mod": mod}))
    out = tmp_path / "out"
    ours = "{}.{}".format(*TOOLCHAIN)
    assert f"leap (go): go.mod asks for Go {newer[3:]}; the image has Go {ours}" in printed
    assert "leap (go): proved (reference 1/1, stub 0/1)" in printed
    scaffolded = (out / "leap" / "scaffold" / "go" / "go.mod").read_text()
    assert scaffolded == f"module leap\n\ngo {ours}\n\n"


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_what_a_reference_needs_beyond_the_policy_is_allowed_for_its_kata_alone(
    tmp_path: Path,
) -> None:
    # Exercism's grep reads files by design: its reference was refused by the policy, the
    # suite was never proved, and the kata could not be scored.
    reference = (
        "def leap_year(year):\n"
        "    if year < 0:\n"
        "        with open('/dev/null') as ignored:\n"
        "            ignored.read()\n"
        "    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)\n"
    )
    source = _leap_from(tmp_path, PYTHON, {".meta/example.py": reference})
    printed = _imported(tmp_path, source)
    assert "leap (python): the reference uses call:open, which the policy refuses" in printed
    assert "leap (python): proved (reference 5/5, stub 0/5)" in printed
    kata = load_kata(tmp_path / "out" / "leap" / "kata.md")
    assert kata.allowed_rules("python") == {"call:open"}
    assert kata.allowed_rules("go") == frozenset()
    assert kata.title == "Leap"


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_a_kata_whose_suite_cannot_be_scored_is_a_line_and_the_others_are_proved(
    tmp_path: Path,
) -> None:
    # A track whose tests this tool's runner does not collect (Jest's leap.spec.js) stopped
    # the whole import at its first exercise, proving none of the rest.
    for slug in ("aaa-leap", "leap"):
        shutil.copytree(PYTHON / "leap", tmp_path / "src" / slug)
    (tmp_path / "src" / "aaa-leap" / "leap_test.py").write_text("def helper():\n    pass\n")
    result = run_cli("katas", "import", str(tmp_path / "src"), "--out", str(tmp_path / "out"))
    assert result.returncode == 1, result.stdout + result.stderr[-1500:]
    assert "aaa-leap (python): not proved: aaa-leap: acceptance/python/ defines no test" in (
        result.stdout
    )
    assert "leap (python): proved (reference 5/5, stub 0/5)" in result.stdout
    assert not (tmp_path / "out" / "aaa-leap" / "reference" / "python").exists()


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_a_rust_exercise_with_crates_builds_offline_and_its_todo_stub_proves_the_suite(
    tmp_path: Path,
) -> None:
    # Its stub names anyhow and its example num-traits: neither resolved without a network
    # ("can't find crate"), and the todo!() stub, which passes the #[should_panic] test,
    # was refused for passing a case.
    out = tmp_path / "out"
    result = run_cli("katas", "import", str(RUST / "number-words"), "--out", str(out))
    assert result.returncode == 0, result.stdout + result.stderr[-1500:]
    assert "number-words (rust): proved (reference 4/4, stub 1/4)" in result.stdout


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_an_example_written_for_a_newer_rust_is_refused_naming_the_image_s_rust(
    tmp_path: Path,
) -> None:
    # Today's leap example called u64::is_multiple_of, stable only after Debian's rustc 1.85:
    # that rustc called it an unstable feature, and the import said only that. The image's
    # Rust is newer now: an example on an API unstable in it stands for the next such one.
    leap = tmp_path / "leap"
    shutil.copytree(RUST / "leap", leap)
    (leap / ".meta" / "example.rs").write_text(
        "pub fn is_leap_year(year: u64) -> bool {\n    let d: Vec<bool> = [4, 100, 400].into_iter()"
        ".map(|n| year % n == 0).intersperse(false).collect();\n    d[0] && (!d[2] || d[4])\n}\n"
    )
    result = run_cli("katas", "import", str(leap), "--out", str(tmp_path / "out"))
    assert "leap (rust): not proved" in result.stdout, result.stdout + result.stderr[-1500:]
    assert "unstable library feature `iter_intersperse`" in result.stdout
    newer = "(stable only in a Rust newer than the image's {}.{})".format(*RUST_TOOLCHAIN)
    assert newer in result.stdout


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_a_case_the_do_nothing_stub_passes_scores_nothing(tmp_path: Path) -> None:
    # The todo!() stub passes the #[should_panic] case: a model that wrote nothing at all
    # scored 1 of 4 (Exercism's grains, 2 of 10). Such a case says nothing about the code.
    out = tmp_path / "out"
    result = run_cli("katas", "import", str(RUST / "number-words"), "--out", str(out))
    assert result.returncode == 0, result.stdout + result.stderr[-1500:]
    # Judged as data, its tests transcribed: a #[should_panic] naming no message is passed
    # by any panic, the stub's too.
    assert "number-words (rust): judged as data" in result.stdout
    assert (
        "number-words (rust): 1 case the stub passes is left out of the score: "
        "unwrapping another word panics"
    ) in result.stdout
    stub = (RUST / "number-words" / "src" / "lib.rs").read_text()
    document = scored(tmp_path, out / "number-words", "rust", {"src/lib.rs": f"// no\n{stub}"})
    assert (document["passed"], document["total"]) == (0, 3), document
    assert document["left_out"] == ["unwrapping another word panics"]
    reference = out / "number-words" / "reference" / "rust"
    solved = {p.relative_to(reference).as_posix(): p.read_text() for p in reference.rglob("*.*")}
    document = scored(tmp_path / "solved", out / "number-words", "rust", solved)
    assert (document["passed"], document["total"]) == (3, 3), document


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_a_javascript_exercise_with_jest_specs_imports_and_proves(tmp_path: Path) -> None:
    # Exercism's JavaScript track writes Jest (`leap.spec.js`: describe, test, xtest,
    # expect; an import without its extension): the import found no test it could run.
    out = tmp_path / "out"
    result = run_cli("katas", "import", str(JAVASCRIPT / "leap"), "--out", str(out))
    assert result.returncode == 0, result.stdout + result.stderr[-1500:]
    assert "leap (javascript): proved (reference 5/5, stub 0/5)" in result.stdout
    assert "the stub formatted by the language's formatter: leap.js" in result.stdout
    suite = (out / "leap" / "acceptance" / "javascript" / "test" / "leap.test.js").read_text()
    assert "from '../leap.js'" in suite
    assert "xtest" not in suite
    # The scaffold's package (an ES module) is the repository's, not the track's Jest one.
    assert not (out / "leap" / "scaffold" / "javascript" / "package.json").exists()


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_a_javascript_spec_that_imports_jest_s_globals_as_today_s_track_does_proves(
    tmp_path: Path,
) -> None:
    # Today's track opens each spec with an import of Jest's globals: the converted file
    # declared them twice and no test ran ("Identifier 'describe' has already been declared").
    source = tmp_path / "leap"
    shutil.copytree(JAVASCRIPT / "leap", source)
    spec = source / "leap.spec.js"
    opening = "import { describe, expect, test, xtest } from '@jest/globals';\n"
    spec.write_text(opening + spec.read_text())
    out = tmp_path / "out"
    result = run_cli("katas", "import", str(source), "--out", str(out))
    assert result.returncode == 0, result.stdout + result.stderr[-1500:]
    assert "leap (javascript): proved (reference 5/5, stub 0/5)" in result.stdout


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_a_javascript_reference_written_as_commonjs_proves_as_an_es_module(
    tmp_path: Path,
) -> None:
    # word-search's example ends `module.exports = WordSearch;`: in the kata's ES module
    # package, "does not provide an export named ...", and the kata was not proved.
    reference = (
        "const isLeap = (year) =>\n"
        "  year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);\n\n"
        "module.exports = { isLeap };\n"
    )
    source = _leap_from(tmp_path, JAVASCRIPT, {".meta/proof.ci.js": reference})
    printed = _imported(tmp_path, source)
    assert "leap (javascript): the reference's leap.js is CommonJS" in printed
    assert "leap (javascript): proved (reference 5/5, stub 0/5)" in printed


@pytest.mark.docker
@pytest.mark.usefixtures("images")
@pytest.mark.parametrize(
    "forgery",
    [
        # Routes the policy does not see (defineProperty, Reflect.set, a prototype's
        # assignment and a Proxy it refuses by name: tests/grading/test_policy.py).
        "Object.is = () => true;",
        "const O = Object;\nO.is = () => true;",
        "Object['i' + 's'] = () => true;",
    ],
    ids=["assigned", "aliased", "computed"],
)
def test_javascript_code_that_replaces_a_built_in_the_matchers_use_scores_nothing(
    tmp_path: Path, forgery: str
) -> None:
    # Jest's expect compares through the global Object.is: one line of the code made every
    # toBe, toEqual and toStrictEqual pass, 4/5 on leap with no leap logic (issue #46).
    out = tmp_path / "out"
    result = run_cli("katas", "import", str(JAVASCRIPT / "leap"), "--out", str(out))
    assert result.returncode == 0, result.stdout + result.stderr[-1500:]
    code = f"{forgery}\n\nexport const isLeap = (year) => year > 0;\n"
    document = scored(tmp_path, out / "leap", "javascript", {"leap.js": code})
    assert document["passed"] == 0, document


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_a_stub_that_already_solves_the_kata_is_never_shown_as_its_outline(tmp_path: Path) -> None:
    # Refactoring exercises (Exercism's ledger) start from working code. JavaScript's failed
    # the type check, was set aside, and kata.md then showed the whole solution as an outline.
    source = tmp_path / "leap"
    shutil.copytree(PYTHON / "leap", source)
    solved = (source / ".meta" / "example.py").read_text()
    lint = solved.replace("(year):\n", "(year):\n    unused = 1\n")  # an unused variable
    (source / "leap.py").write_text(lint)
    out = tmp_path / "out"
    result = run_cli("katas", "import", str(source), "--out", str(out))
    assert result.returncode == 1, result.stdout + result.stderr[-1500:]
    assert "leap (python): not proved (reference 5/5, stub 5/5)" in result.stdout
    assert "unused = 1" not in load_kata(out / "leap" / "kata.md").text


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_a_java_exercise_with_assertj_in_a_gradle_layout_imports_and_proves(
    tmp_path: Path,
) -> None:
    # Exercism's Java track lays code out as Gradle does (src/main/java, src/test/java),
    # asserts with AssertJ, disables all tests but the first, and gives its reference a helper
    # class the solution does not name: the stub failed the lint gate, no reference was kept,
    # and no test compiled (`package org.assertj does not exist`). 0 of aider's 47 proved.
    out = tmp_path / "out"
    result = run_cli("katas", "import", str(JAVA / "leap"), "--out", str(out))
    assert result.returncode == 0, result.stdout + result.stderr[-1500:]
    assert "leap (java): proved (reference 5/5, stub 0/5)" in result.stdout
    kata = out / "leap"
    assert (kata / "reference" / "java" / "src" / "main" / "java" / "Divisibility.java").is_file()
    suite = next((kata / "acceptance" / "java").rglob("LeapTest.java")).read_text()
    assert "assertThatExceptionOfType" in suite
    # The Gradle build is the track's, which the sandbox does not run: not a starting file.
    assert not list((kata / "scaffold" / "java").rglob("*gradle*"))


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_a_cpp_exercise_with_catch2_imports_proves_and_scores(tmp_path: Path) -> None:
    # Exercism's C++ track writes Catch2 (`TEST_CASE("...")`, REQUIRE), includes its copy of
    # the single header (`test/catch.hpp`) and gates all but the first test behind
    # EXERCISM_RUN_ALL_TESTS; the pack ran GoogleTest alone: no test found, 0 of aider's 26.
    out = tmp_path / "out"
    result = run_cli("katas", "import", str(CPP / "leap"), "--out", str(out))
    assert result.returncode == 0, result.stdout + result.stderr[-1500:]
    assert "leap (cpp): proved (reference 5/5, stub 0/5)" in result.stdout
    assert "the stub formatted by the language's formatter: leap.cpp, leap.h" in result.stdout
    kata = out / "leap"
    assert (kata / "acceptance" / "cpp" / "tests" / "leap_test.cpp").is_file()
    assert not list(kata.rglob("catch.hpp"))
    assert not list(kata.rglob("tests-main.cpp"))
    # A repository started from the stub and holding the reference's code scores it in full.
    repo = tmp_path / "repo"
    made = run_cli("init", str(repo), "--kata", str(kata / "kata.md"), "-l", "cpp")
    assert made.returncode == 0, made.stderr
    for name in ("leap.h", "leap.cpp"):
        shutil.copy(kata / "reference" / "cpp" / name, repo / name)
    git(repo, "-c", "user.name=m", "-c", "user.email=m@x", "commit", "-qam", "feat: leap")
    score = run_cli("score", str(kata), "--repo", str(repo), "--json", "-l", "cpp")
    assert score.returncode == 0, score.stderr
    assert (json.loads(score.stdout)["passed"], json.loads(score.stdout)["total"]) == (5, 5)


# What a model writes to play the six imported leaps (a first test, then the track's answer).
SIX_TESTS = {
    **TESTS,
    "javascript": (
        "test/leap.test.js",
        'import { test } from "node:test";\nimport assert from "node:assert/strict";\n'
        'import { isLeap } from "../leap.js";\n\n'
        'test("2015 is a common year", () => {\n  assert.equal(isLeap(2015), false);\n});\n',
    ),
    "java": (
        "src/test/java/LeapFirstTest.java",
        "import static org.junit.jupiter.api.Assertions.assertFalse;\n\n"
        "import org.junit.jupiter.api.Test;\n\nclass LeapFirstTest {\n  @Test\n"
        "  void commonYear() {\n    assertFalse(new Leap().isLeapYear(2015));\n  }\n}\n",
    ),
    "cpp": (
        "tests/leap_first_test.cpp",
        '#include <gtest/gtest.h>\n\n#include "leap.h"\n\n'
        "TEST(Leap, CommonYear) { EXPECT_FALSE(leap::is_leap_year(2015)); }\n",
    ),
}
_CPP_LEAP = (
    '#include "leap.h"\n\n#include <stdexcept>\n\nnamespace leap {\n\n'
    "bool is_leap_year(int year) {\n"
    '  if (year < 1582) throw std::domain_error("before the Gregorian calendar");\n'
    "  return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);\n}\n\n}  // namespace leap\n"
)
_CPP_HEADER = (
    "#if !defined(LEAP_H)\n#define LEAP_H\n\nnamespace leap {\n\nbool is_leap_year(int year);\n\n"
    "}  // namespace leap\n\n#endif  // LEAP_H\n"
)
_JAVA_META = JAVA / "leap" / ".meta" / "src" / "reference" / "java"
SIX_SOLUTIONS: dict[str, list[tuple[str, str]]] = {
    **{language: [answer] for language, answer in SOLUTIONS.items()},
    "javascript": [("leap.js", (JAVASCRIPT / "leap" / ".meta" / "proof.ci.js").read_text())],
    "java": [
        (f"src/main/java/{name}", (_JAVA_META / name).read_text())
        for name in ("Leap.java", "Divisibility.java")
    ],
    "cpp": [("leap.h", _CPP_HEADER), ("leap.cpp", _CPP_LEAP)],
}


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_bench_over_a_kata_imported_in_six_languages_scores_each_by_its_track(
    tmp_path: Path,
) -> None:
    # The six tracks' leap, imported into one kata and benchmarked as a user would: every
    # language runs end to end, and the leaderboard says how each was judged.
    katas = tmp_path / "katas"
    sources = [PYTHON / "leap", RUST / "leap", GO / "leap", JAVASCRIPT / "leap"]
    result = run_cli("katas", "import", *map(str, [*sources, JAVA / "leap", CPP / "leap"]),
                     "--out", str(katas))  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr[-1500:]
    languages = sorted(SIX_TESTS)  # the order a sequential bench runs its jobs in
    script: dict[str, list[Any]] = {"m-tester": [], "m-impl": [], "m-ref": []}
    for language in languages:
        path, text = SIX_TESTS[language]
        solution = SIX_SOLUTIONS[language]
        if language == "python":
            text, solution = formatted(text), [(p, formatted(t)) for p, t in solution]
        script["m-tester"] += [plan((path, text), message="test(leap): 2015"), done()]
        script["m-impl"] += [plan(*solution, message="feat(leap): leap years")]
        script["m-ref"] += [no_change()]
    config = tmp_path / "bench.yaml"
    config.write_text(
        "bench:\n  models:\n    m: {tester: custom:m-tester, implementer: custom:m-impl, "
        "refactorer: custom:m-ref}\n"
    )
    out = tmp_path / "out"
    with FakeLLM(script) as fake:
        result = run_cli(
            "bench", "--models", "m", "--katas", str(katas), "--languages", ",".join(languages),
            "--cycles", "2", "--out", str(out), "--config", str(config),
            env={"TDD_SANDBOX_LLM__BASE_URL": fake.base_url},
        )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert {r["language"]: (r["status"], r["acceptance_pass_rate"]) for r in rows} == dict.fromkeys(
        languages, ("completed", 1.0)
    ), [(r["language"], r.get("why") or r.get("error")) for r in rows]
    board = (out / "leaderboard.md").read_text()
    assert "## Acceptance by language (mean)" in board
    assert "## Katas judged as data, by language" in board
    # Without canonical data, the tracks whose tests transcribe are judged as data: C++,
    # Java and Rust (Go's tests compare in `if`s, JavaScript's leap asserts `.not.toBe`,
    # Python's `assertIs`, which no rule reads yet).
    assert "| m | 1 / 1 | 0 / 1 | 1 / 1 | 0 / 1 | 0 / 1 | 1 / 1 |" in board, board


SPECS = FIXTURES / "problem-specifications" / "exercises"


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_with_canonical_data_an_imported_kata_is_judged_as_data(tmp_path: Path) -> None:
    # Imported with problem-specifications beside the track, the kata was still judged by
    # the track's test files, which run beside the code (it could read them): the calls are
    # now read off the track, proved with the reference, and the score is data.
    out = tmp_path / "out"
    tracks = [PYTHON, GO, JAVASCRIPT, RUST, JAVA, CPP, TYPESCRIPT]
    result = run_cli("katas", "import", *(str(t / "leap") for t in tracks), str(SPECS / "leap"),
                     "--out", str(out))  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr[-1500:]
    assert "leap (python): judged as data: the reference passes every case" in result.stdout
    # The tracks call leapYear IsLeapYear (Go), isLeap (JavaScript), is_leap_year (Rust) and
    # isLeapYear (Java, a method of a Leap made for the call): the stub's one function.
    assert "leap (go): a data suite of 3 cases" in result.stdout
    assert "leap (javascript): a data suite of 3 cases" in result.stdout
    # TypeScript's Jest test, `.ts` imports and typed stub: the same call as JavaScript's.
    assert "leap (typescript): a data suite of 3 cases" in result.stdout
    assert "(leapYear: isLeap(${year}))" in result.stdout
    assert "(leapYear: leap::is_leap_year(${year}))" in result.stdout
    assert "(leapYear: new Leap().isLeapYear(${year}))" in result.stdout
    # C++'s stub declares an empty namespace: the call is the one its tests make.
    [cpp] = [line for line in result.stdout.splitlines() if "(cpp): a data suite" in line]
    assert "(leapYear: leap::is_leap_year(${year}))" in cpp
    assert "leap (cpp): judged as data: the reference passes every case" in result.stdout
    tallies = "(cpp 1/1, go 1/1, java 1/1, javascript 1/1, python 1/1, rust 1/1, typescript 1/1)"
    assert f"proved: 7 {tallies}" in result.stdout
    assert f"judged as data: 7 {tallies}" in result.stdout
    repo = tmp_path / "repo"
    made = run_cli("init", str(repo), "--kata", str(out / "leap" / "kata.md"))
    assert made.returncode == 0, made.stderr
    shutil.copy(PYTHON / "leap" / ".meta" / "example.py", repo / "leap.py")
    git(repo, "-c", "user.name=m", "-c", "user.email=m@x", "commit", "-qam", "feat: leap")
    score = run_cli("score", str(out / "leap"), "--repo", str(repo), "--json")
    assert score.returncode == 0, score.stderr
    document = json.loads(score.stdout)
    assert (document["judged"], document["passed"], document["total"]) == ("data", 2, 2)


def _leap_from(tmp_path: Path, track: Path, files: dict[str, str]) -> Path:
    """A copy of a track's leap fixture with `files` (paths in the exercise) written over."""
    source = tmp_path / "leap"
    shutil.copytree(track / "leap", source)
    for path, text in files.items():
        (source / path).write_text(text)
    return source


def _imported(tmp_path: Path, *sources: Path, returncode: int = 0) -> str:
    """What `katas import` of `sources` into `tmp_path/out` printed, having exited so."""
    result = run_cli("katas", "import", *(str(s) for s in sources), "--out", str(tmp_path / "out"))
    assert result.returncode == returncode, result.stdout + result.stderr[-1500:]
    return result.stdout


def _leap_data() -> dict[str, Any]:
    """problem-specifications' leap, as the fixture has it, to change."""
    data: dict[str, Any] = json.loads((SPECS / "leap" / "canonical-data.json").read_text())
    return data


def _leap_with(*more: tuple[str, object, object]) -> dict[str, Any]:
    """The leap data with more cases, each (uuid, year, expected)."""
    data = _leap_data()
    data["cases"] += [
        {"uuid": uuid, "description": str(year), "property": "leapYear",
         "input": {"year": year}, "expected": expected}
        for uuid, year, expected in more
    ]  # fmt: skip
    return data


def _leap_specs(tmp_path: Path, data: dict[str, Any]) -> Path:
    """A copy of the leap specification with `data` as its canonical data."""
    specs = tmp_path / "specs" / "leap"
    shutil.copytree(SPECS / "leap", specs)
    (specs / "canonical-data.json").write_text(json.dumps(data))
    return specs


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_derived_calls_the_reference_does_not_pass_give_way_to_the_tracks_tests(
    tmp_path: Path,
) -> None:
    # Canonical data the track's reference disagrees with (a case changed upstream since the
    # track's tests were made) must not judge anyone: the track's tests do.
    data = _leap_data()
    data["cases"][1]["expected"] = False  # 2000 is a leap year
    specs = _leap_specs(tmp_path, data)
    out = tmp_path / "out"
    result = run_cli("katas", "import", str(PYTHON / "leap"), str(specs), "--out", str(out))
    assert result.returncode == 0, result.stdout + result.stderr[-1500:]
    assert "leap (python): judged by its track's tests: the derived calls did not prove" in (
        result.stdout
    )
    assert "leap (python): proved (reference 5/5, stub 0/5)" in result.stdout
    assert not (out / "leap" / "acceptance" / "calls.yaml").exists()


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_an_error_the_track_reports_its_own_way_is_left_out_and_the_rest_judge(
    tmp_path: Path,
) -> None:
    # JavaScript's go-counting and ocr-numbers keep to the data but on a few errors (an
    # `{error}` returned where the data throws): the whole kata fell back to its track's
    # tests, which run beside the code, for the sake of those few. A value answered otherwise
    # keeps every case (the test before this one).
    data = _leap_with(("ac227e82-ee82-4a09-9eb6-4f84331ffdb0", 1970, False),
                      ("4fe9b84c-8e65-489e-970b-856d60b8b78e", 1996, True),
                      ("78a7848f-9667-4192-ae53-87b30c9a02dd", 2100, {"error": "no"}))  # fmt: skip
    printed = _imported(tmp_path, PYTHON / "leap", _leap_specs(tmp_path, data))
    out = tmp_path / "out"
    assert (
        "leap (python): judged as data: the reference passes every case of the data suite but "
        "1 error the track reports its own way, left out: 78a7848f-9667-4192-ae53-87b30c9a02dd"
    ) in printed
    assert "leap (python): proved (reference 4/4, stub 0/4)" in printed
    calls = yaml.safe_load((out / "leap" / "acceptance" / "calls.yaml").read_text())
    assert "78a7848f-9667-4192-ae53-87b30c9a02dd" in calls["python"]["exclude"]


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_a_track_whose_no_answer_is_an_error_keeps_every_case_as_data(tmp_path: Path) -> None:
    # Go's alphametics returns an error for a puzzle without a solution, where the data's
    # answer is null: the kata fell back to its track's tests for the sake of that case.
    data = _leap_with(("ac227e82-ee82-4a09-9eb6-4f84331ffdb0", None, None))
    printed = _imported(tmp_path, PYTHON / "leap", _leap_specs(tmp_path, data))
    out = tmp_path / "out"
    assert (
        "leap (python): judged as data: the reference passes every case of the data suite, "
        "where the track's no answer and an error stand for each other"
    ) in printed, printed
    calls = yaml.safe_load((out / "leap" / "acceptance" / "calls.yaml").read_text())
    assert calls["python"]["none_is_error"] is True
    assert "ac227e82-ee82-4a09-9eb6-4f84331ffdb0" not in calls["python"]["exclude"]


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_cases_the_reference_needs_more_time_for_are_given_it_beside_another_reading(
    tmp_path: Path,
) -> None:
    # Rust's alphametics searches past a case's 5 s at a debug build's speed, where the
    # track's tests run under the whole run's limit: the kata fell back to those tests.
    # With a case whose no answer the reference reports as an error, too: two readings.
    data = _leap_with(("ac227e82-ee82-4a09-9eb6-4f84331ffdb0", 1970, False),
                      ("4fe9b84c-8e65-489e-970b-856d60b8b78e", 1996, True),
                      ("78a7848f-9667-4192-ae53-87b30c9a02dd", None, None))  # fmt: skip
    specs = _leap_specs(tmp_path, data)
    slow = (
        "import time\n\n\ndef leap_year(year):\n    if year == 1996:\n"
        "        time.sleep(6)\n"
        "    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)\n"
    )
    source = _leap_from(tmp_path, PYTHON, {".meta/example.py": slow})
    printed = _imported(tmp_path, source, specs)
    out = tmp_path / "out"
    assert (
        "leap (python): judged as data: the reference passes every case of the data suite, "
        "where the track's no answer and an error stand for each other, "
        "given 20 s a case, as the reference needs"
    ) in printed, printed
    calls = yaml.safe_load((out / "leap" / "acceptance" / "calls.yaml").read_text())
    assert calls["python"]["timeout_s"] == 20
    assert calls["python"]["none_is_error"] is True


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_derived_calls_that_cannot_be_performed_give_way_to_the_tracks_tests(
    tmp_path: Path,
) -> None:
    # Inputs a language cannot write as arguments (a list of maps, for Go: Exercism's
    # ledger and tree-building) raised out of the proof: the kata was not proved at all,
    # where its track's tests had proved it before the calls were derived.
    data = _leap_data()
    data["cases"][0]["input"] = {"year": [{"in": 2015}]}
    specs = _leap_specs(tmp_path, data)
    out = tmp_path / "out"
    result = run_cli("katas", "import", str(GO / "leap"), str(specs), "--out", str(out))
    assert result.returncode == 0, result.stdout + result.stderr[-1500:]
    assert "leap (go): judged by its track's tests: the derived calls cannot be performed" in (
        result.stdout
    )
    assert "leap (go): proved (reference 1/1, stub 0/1)" in result.stdout


@pytest.mark.docker
@pytest.mark.usefixtures("images")
def test_a_go_kata_the_track_restates_in_its_table_is_judged_as_its_tables_data(
    tmp_path: Path,
) -> None:
    # The data's hand is a list of cards ("JC"), the Go track's one string ("4♤,J♧") that its
    # test passes through a helper of its own: the data's values fit no call, so the
    # track's tests judged, beside the code. Its generated table is data in its terms.
    said = _imported(tmp_path, GO / "high-card", SPECS / "high-card")
    assert "high-card (go): judged as data: the reference passes every case" in said, said
    assert "high-card (go): proved (reference 4/4, stub 1/4)" in said, said
    kata = tmp_path / "out" / "high-card"
    honest = (GO / "high-card" / ".meta" / "example.go").read_text()
    document = scored(tmp_path, kata, "go", {"high_card.go": honest})
    assert (document["passed"], document["total"]) == (3, 3), document
    # An answer read off the track's table: none there to read, the build fails.
    lookup = honest.replace(
        "\tcards := strings.Fields(hand)",
        "\tfor _, tc := range testCases {\n"
        '\t\tif tc.hand == strings.ReplaceAll(hand, " ", ",") {\n'
        "\t\t\treturn tc.expected, nil\n\t\t}\n\t}\n\tcards := strings.Fields(hand)",
    )
    document = scored(tmp_path / "lookup", kata, "go", {"high_card.go": lookup})
    assert document["passed"] == 0, document


def test_katas_list_piped_is_one_whole_line_a_kata_and_json_on_asking() -> None:
    # Piped, the table cut names and titles to 80 columns ("string-calcu…").
    listed = run_cli("katas", "list", str(ROOT / "katas"))
    assert listed.returncode == 0, listed.stderr
    rows = [line.split("\t") for line in listed.stdout.splitlines()]
    assert ["string-calculator", "String Calculator"] in [row[:2] for row in rows]
    assert all(set(row[2].split(",")) == set(LANGUAGES) for row in rows)  # every one in all six
    document = json.loads(run_cli("katas", "list", str(ROOT / "katas"), "--json").stdout)
    assert {kata["kata"] for kata in document} == {row[0] for row in rows}


def test_katas_import_says_what_it_made_as_json(tmp_path: Path) -> None:
    out = tmp_path / "katas"
    result = run_cli("katas", "import", str(PYTHON / "leap"), "--no-prove", "--out", str(out),
                     "--json")  # fmt: skip
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert [Path(path).name for path in document["written"]] == ["leap"]
    assert (document["problems"], document["katas"]) == ([], [])  # nothing proved: asked not to
