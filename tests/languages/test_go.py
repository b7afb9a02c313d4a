"""The Go plug-in on captured `go test -json` output and on source text (no Docker)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tdd_sandbox.grading.evidence import cross_check
from tdd_sandbox.grading.reconcile import reconcile
from tdd_sandbox.languages.go.plugin import GO
from tdd_sandbox.languages.go.policy import check_go
from tdd_sandbox.languages.go.reader import TOOLCHAIN
from tdd_sandbox.sandbox.base import ExecResult
from tdd_sandbox.vocabulary.results import TestStatus

# `go test -json -count=1 ./...` (go 1.24; the image's 1.27 prints the same) on a module `kata`
# with a passing test and its subtest, a failing one and a skipped one, beside a package
# `kata/broken` that does not compile.
EVENTS = (Path(__file__).parents[1] / "fixtures" / "go" / "events.jsonl").read_text()
NONCE = "0123456789abcdef"


def _result(stdout: str, code: int = 1) -> ExecResult:
    return ExecResult(exit_code=code, stdout=stdout, stderr="", duration_s=0.1)


def test_parses_each_test_end_subtests_by_full_name_and_build_failures() -> None:
    outcomes = {o.id: o for o in GO.parse_results(_result(EVENTS), None)}
    assert {i: o.status for i, o in outcomes.items()} == {
        "kata::TestFizz": TestStatus.PASSED,
        "kata::TestFizz/sub_one": TestStatus.PASSED,
        "kata::TestBuzz": TestStatus.FAILED,
        "kata::TestLater": TestStatus.SKIPPED,
        "kata/broken::<build>": TestStatus.ERROR,
    }
    assert 'FizzBuzz(5) = "5", want Buzz' in outcomes["kata::TestBuzz"].message
    assert "undefined: y" in outcomes["kata/broken::<build>"].message


def test_a_subtest_stands_for_its_test_and_a_missing_test_is_an_error() -> None:
    outcomes = GO.parse_results(_result(EVENTS), None)
    expected = {"kata::TestFizz", "kata::TestGone", "kata/broken::TestX"}
    missing = {o.id for o in reconcile(outcomes, expected) if o.message.startswith("expected")}
    assert missing == {"kata::TestGone", "kata/broken::TestX"}


def test_a_line_printed_by_a_test_is_output_not_an_event() -> None:
    forged = (
        '{"Action":"output","Package":"kata","Test":"TestBuzz",'
        '"Output":"{\\"Action\\":\\"pass\\"}\\n"}\n'
    )
    outcomes = GO.parse_results(_result(EVENTS + forged), None)
    assert [o.status for o in outcomes if o.id == "kata::TestBuzz"] == [TestStatus.FAILED]


def test_expected_tests_follow_go_test_rules() -> None:
    files = {
        "go.mod": b"module example.com/kata\n\ngo 1.24\n",
        "kata_test.go": b"""package kata

import (
	"testing"
	tt "testing"
)

func TestOne(t *testing.T) {}
func Test(t *testing.T) {}
func TestAliased(x *tt.T) {}
func Testlower(t *testing.T) {}
func TestBench(b *testing.B) {}
func helper(t *testing.T) {}
// func TestCommented(t *testing.T) {}
var s = `
func TestInRawString(t *testing.T) {}
`
""",
        "sub/more_test.go": b'package sub\n\nimport "testing"\n\nfunc TestTwo(t *testing.T) {}\n',
        "testdata/x_test.go": b'package x\n\nimport "testing"\n\nfunc TestData(t *testing.T) {}\n',
        "_skip/y_test.go": b'package y\n\nimport "testing"\n\nfunc TestHidden(t *testing.T) {}\n',
        "kata.go": b"package kata\n\nfunc TestNotATest(t *T) {}\n",
    }
    assert GO.expected_tests(files) == {
        "example.com/kata::TestOne",
        "example.com/kata::Test",
        "example.com/kata::TestAliased",
        "example.com/kata/sub::TestTwo",
    }


def test_paths_scaffold_and_detection() -> None:
    scaffold = {path: text.encode() for path, text in GO.scaffold().items()}
    assert GO.detect(scaffold)
    assert GO.expected_tests(scaffold) == {"kata::TestScaffold"}
    assert GO.suggest_paths(scaffold, "fizz-buzz") == ("fizz_buzz_test.go", ["kata.go"])
    assert GO.is_test_path("x_test.go")
    assert GO.is_test_path("testdata/cases.json")
    assert not GO.is_test_path("kata.go")
    assert GO.is_runner_config("go.mod")
    assert GO.is_runner_config("sub/go.work")
    assert GO.defines_tests("kata.go", 'package kata\n\nimport "testing"\n')
    assert not GO.defines_tests("kata.go", 'package kata\n\n// not "testing"\n')


def _guarded(events: str, packages: list[str], end: bool = True) -> ExecResult:
    frames = "".join(f"@@{NONCE} package {p}\n" for p in packages)
    return _result(frames + events + (f"\n@@{NONCE} end\n" if end else ""))


def _sentinel_events(package: str, passing: str, failing: str) -> str:
    return (
        f'{{"Action":"pass","Package":"{package}","Test":"{passing}"}}\n'
        f'{{"Action":"fail","Package":"{package}","Test":"{failing}"}}\n'
    )


def test_the_guard_runs_only_the_default_test_command() -> None:
    test = next(g for g in GO.gates() if g.kind.value == "test").command
    guarded = GO.guard(test, NONCE)
    assert guarded is not None
    assert guarded[4] == NONCE
    assert "func TestTddCheck012345(t *testing.T)" in guarded[5]
    assert "func TestTddCheck6789ab(t *testing.T)" in guarded[5]
    assert GO.guard(("go", "test", "./..."), NONCE) is None


def test_evidence_of_an_honest_run_agrees_and_hides_the_sentinels() -> None:
    events = (
        '{"Action":"pass","Package":"kata","Test":"TestFizz"}\n'
        + _sentinel_events("kata", "TestTddCheck012345", "TestTddCheck6789ab")
        + '{"Action":"fail","Package":"kata"}\n'
    )
    result = _guarded(events, ["kata"])
    evidence = GO.evidence(result, NONCE)
    assert evidence.ended
    own, code, tamper = cross_check(GO.parse_results(result, None), evidence, 1)
    assert tamper is None
    assert code == 0
    assert [o.id for o in own] == ["kata::TestFizz"]


def test_a_forged_pass_for_the_failing_sentinel_is_tamper() -> None:
    events = (
        '{"Action":"pass","Package":"kata","Test":"TestFizz"}\n'
        '{"Action":"pass","Package":"kata","Test":"TestTddCheck012345"}\n'
        '{"Action":"pass","Package":"kata","Test":"TestTddCheck6789ab"}\n'
        '{"Action":"pass","Package":"kata"}\n'
    )
    result = _guarded(events, ["kata"])
    _, _, tamper = cross_check(GO.parse_results(result, None), GO.evidence(result, NONCE), 0)
    assert tamper is not None
    assert "TestTddCheck6789ab" in tamper.detail


def test_a_package_without_its_end_or_a_test_reported_twice_is_not_a_finished_run() -> None:
    events = '{"Action":"pass","Package":"kata","Test":"TestFizz"}\n'
    assert not GO.evidence(_guarded(events, ["kata"]), NONCE).ended
    twice = events + '{"Action":"fail","Package":"kata","Test":"TestFizz"}\n'
    assert GO.evidence(_guarded(twice, ["kata"]), NONCE).conflicts == ("kata::TestFizz",)
    other = _result(f"@@{'f' * 16} end\n")
    assert not GO.evidence(other, NONCE).ended  # another nonce's frame counts for nothing


def test_what_people_read_is_the_text_go_test_prints() -> None:
    shown = GO.readable(f"@@{NONCE} package kata\n" + EVENTS + f"\n@@{NONCE} end\n")
    assert "--- FAIL: TestBuzz" in shown
    assert "undefined: y" in shown
    assert '"Action"' not in shown
    assert "@@" not in shown


@pytest.mark.parametrize(
    "declaration",
    [
        # Exercism's Go tests share the code's package: `false` is true in them too, and an
        # IsLeapYear that always says true passed every case (issue #46).
        "const false = true",
        "const (\n\tfalse = true\n\tx     = 1\n)",
        "var (\n\ta, true = 1, false\n)",
        "var nil = 1",
        "func len(s []int) int { return 0 }",
        "type string = int",
        "type (\n\tT     struct{ a int }\n\tbyte = rune\n)",
        "var x, append = 1, 2",
        "  const   iota=3",  # not formatted: the policy runs before the format gate
        "const a = 1; const false = true",
        'const (\n\ta = "x"\n\tfalse = true\n)',
        "const (\n\ta = 'x' // a comment\n\tfalse = true\n)",
    ],
)
def test_code_may_not_redeclare_a_predeclared_name_for_the_package(declaration: str) -> None:
    source = f"package leap\n\n{declaration}\n\nfunc IsLeapYear(y int) bool {{ return true }}\n"
    assert [v.rule for v in check_go("leap.go", source)] == ["predeclared"]


def test_names_inside_functions_types_and_calls_are_not_the_packages() -> None:
    source = (
        "package leap\n\n"
        "type T struct {\n\tlen   int\n\terror string\n}\n\n"
        'var (\n\tx = max(\n\t\t1,\n\t\tlen("ab"),\n\t)\n\ty = 1 +\n\t\tlen("c")\n)\n\n'
        "func (t T) len() int { return t.len }\n\n"
        "func F() bool {\n\tvar true = false\n\tlen := 3\n\treturn true && len > 0\n}\n\n"
        '// const false = true\nvar s = "const false = true"\n'
    )
    assert check_go("leap.go", source) == []


@pytest.mark.parametrize(
    ("go_mod", "expected", "said"),
    [
        (b"module leap\n\ngo 1.29\n", b"module leap\n\ngo 1.27\n", True),
        (b"module leap\n\ngo 1.28.3\ntoolchain go1.28.3\n", b"module leap\n\ngo 1.27\n", True),
        (b"module leap\n\ngo 1.27.2\n", b"module leap\n\ngo 1.27.2\n", False),
        (b"module leap\n\ngo 1.26\n", b"module leap\n\ngo 1.26\n", False),  # today's track
        (b"module leap\n\ngo 1.18\n", b"module leap\n\ngo 1.18\n", False),
        (b"module leap\n", b"module leap\n", False),
    ],
)
def test_a_track_s_go_mod_asks_for_the_image_s_go_at_most(
    go_mod: bytes, expected: bytes, said: bool
) -> None:
    assert TOOLCHAIN == (1, 27)
    data, note = GO.track_project("go.mod", go_mod)
    assert data == expected
    assert bool(note) is said


@pytest.mark.parametrize(
    ("path", "head", "collected"),
    [
        ("bonus_test.go", "//go:build bonus\n// +build bonus\n\n", False),
        ("bonus_test.go", "// Package doc.\n\n//go:build !bonus\n", True),
        ("both_test.go", "//go:build linux && (amd64 || arm64 || riscv64)\n", True),
        ("old_test.go", "//go:build go1.2 && !windows\n", True),
        ("new_test.go", "//go:build go1.99\n", False),
        ("win_test.go", "//go:build windows || (bonus && linux)\n", False),
        ("kata_windows_test.go", "", False),
        ("kata_linux_test.go", "", True),
        ("late_test.go", "package kata\n//go:build never\n", True),
        ("odd_test.go", "//go:build linux &&\n", False),
    ],
)
def test_a_test_file_go_test_does_not_build_defines_no_expected_test(
    path: str, head: str, collected: bool
) -> None:
    # Go's two-bucket keeps a bonus test behind `//go:build bonus`, which `go test` without
    # the tag never builds: the proof waited for it ("expected test did not run").
    package = "" if "package" in head else "package kata\n"
    body = f'{head}{package}\nimport "testing"\n\nfunc TestIt(t *testing.T) {{}}\n'
    files = {"go.mod": b"module kata\n\ngo 1.24\n", path: body.encode()}
    assert GO.expected_tests(files) == ({"kata::TestIt"} if collected else set())
