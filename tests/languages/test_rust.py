from __future__ import annotations

import tomllib

import pytest

from tdd_sandbox.languages.rust.plugin import RUST
from tdd_sandbox.languages.rust.reader import TOOLCHAIN
from tdd_sandbox.sandbox.base import ExecResult
from tdd_sandbox.vocabulary.cases import CallMap, Case
from tdd_sandbox.vocabulary.results import TestStatus

# Captured from `cargo test` 1.65 (the format is unchanged in 1.97, the image's toolchain now).
OUTPUT = """\
    Finished test [unoptimized + debuginfo] target(s) in 0.00s
     Running unittests src/lib.rs (/tmp/target/debug/deps/kata-506b05c635b0b933)

running 1 test
test tests::inner ... ok

test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

     Running tests/fizzbuzz.rs (/tmp/target/debug/deps/fizzbuzz-2de0d7382b4cbf06)

running 5 tests
test fizz ... ok
test later ... ignored
test buzz ... FAILED
test more::two ... ok
test one ... ok

failures:

---- buzz stdout ----
thread 'buzz' panicked at 'assertion failed', tests/fizzbuzz.rs:15:5

test result: FAILED. 3 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s

   Doc-tests kata

running 0 tests

test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
"""


def _result(stdout: str, code: int = 101) -> ExecResult:
    return ExecResult(exit_code=code, stdout=stdout, stderr="", duration_s=0.1)


def test_parses_libtest_lines_per_binary() -> None:
    outcomes = {o.id: o.status for o in RUST.parse_results(_result(OUTPUT), None)}
    assert outcomes == {
        "lib::tests::inner": TestStatus.PASSED,
        "fizzbuzz::fizz": TestStatus.PASSED,
        "fizzbuzz::later": TestStatus.SKIPPED,
        "fizzbuzz::buzz": TestStatus.FAILED,
        "fizzbuzz::more::two": TestStatus.PASSED,
        "fizzbuzz::one": TestStatus.PASSED,
    }


def test_a_forged_result_line_disagrees_with_the_summary() -> None:
    forged = OUTPUT.replace("test one ... ok\n", "test one ... ok\ntest forged ... ok\n")
    outcomes = RUST.parse_results(_result(forged), None)
    assert outcomes[-1].status is TestStatus.ERROR
    assert "disagree" in outcomes[-1].message


def test_compile_error_gives_no_outcomes() -> None:
    assert RUST.parse_results(_result("error[E0425]: cannot find function `x`\n"), None) == []


def test_expected_tests_with_modules_attributes_and_comments() -> None:
    source = b"""
use kata::f;
// #[test] fn commented_out() {}
#[test]
fn one() { assert!(true); }
#[test]
#[should_panic(expected = "x")]
fn panics() { if true { panic!("x") } }
mod inner {
    #[test]
    fn two() {}
    mod deeper { #[test] fn three() {} }
}
#[test]
fn after_modules() {}
"""
    files = {"tests/fizz.rs": source, "src/lib.rs": b"#[test] fn unit() {}"}
    assert RUST.expected_tests(files) == {
        "fizz::one",
        "fizz::panics",
        "fizz::inner::two",
        "fizz::inner::deeper::three",
        "fizz::after_modules",
    }


def test_paths_and_scaffold() -> None:
    assert RUST.is_test_path("tests/fizz.rs")
    assert not RUST.is_test_path("src/lib.rs")
    assert RUST.is_runner_config("Cargo.toml")
    assert RUST.is_runner_config(".cargo/config.toml")
    scaffold = RUST.scaffold()
    assert 'name = "kata"' in scaffold["Cargo.toml"]
    assert "Cargo.lock" in scaffold
    assert RUST.detect(scaffold)


def test_should_panic_tests_keep_their_name() -> None:
    # libtest prints `test name - should panic ... ok`: the suffix is not part of the name,
    # which must match the expected `#[test]` (else green said "exit code 0 disagrees").
    lines = OUTPUT.replace(
        "test one ... ok\n", "test one ... ok\ntest panics - should panic ... ok\n"
    ).replace("3 passed; 1 failed; 1 ignored", "4 passed; 1 failed; 1 ignored")
    outcomes = {o.id: o.status for o in RUST.parse_results(_result(lines), None)}
    assert outcomes["fizzbuzz::panics"] is TestStatus.PASSED
    assert not any("should panic" in test_id for test_id in outcomes)


def test_a_failing_kata_test_named_after_the_sentinels_is_still_listed() -> None:
    # cargo lists failures by name: Exercism's leap has `year_...` tests, which sort after
    # the guard's `tdd_check_...`; the list's lines are each a whole report.
    run = (
        "test tdd_check_012345 ... ok\ntest tdd_check_6789ab ... FAILED\n"
        "test year_2015 ... FAILED\n\nfailures:\n\n---- tdd_check_6789ab stdout ----\n"
        "thread 'tdd_check_6789ab' panicked at tests/leap.rs:9:5:\n  left: 5\n right: 6\n\n"
        "---- year_2015 stdout ----\nnot yet implemented\n\n"
        "failures:\n    tdd_check_6789ab\n    year_2015\n\ntest result: FAILED. 1 passed\n"
    )
    shown = RUST.readable(run)
    assert "tdd_check" not in shown
    assert "test year_2015 ... FAILED" in shown
    assert "---- year_2015 stdout ----\nnot yet implemented" in shown
    assert "failures:\n    year_2015\n" in shown


# rustc 1.97 on an example that intersperses (unstable in it: Debian's 1.85 said the same of
# today's leap example's u64::is_multiple_of).
UNSTABLE = (
    "error[E0658]: use of unstable library feature `iter_intersperse`\n"
    " --> src/lib.rs:2:10\n  = note: see issue #79524 for more information\n"
)


def test_a_feature_this_rust_calls_unstable_is_named_a_newer_rust_s() -> None:
    note = RUST.toolchain_note(UNSTABLE)
    assert note == "stable only in a Rust newer than the image's {}.{}".format(*TOOLCHAIN)
    assert RUST.toolchain_note("error[E0425]: cannot find value `x` in this scope") == ""
    # Judged as data, the driver's build says the same.
    data = f"@@n1 build-failed\n{UNSTABLE}".encode()
    observed, problem = RUST.driver.read(data, "n1", [])
    assert observed == {}
    assert problem.startswith(
        "did not compile: src/lib.rs:2:10: error[E0658]: use of unstable library feature"
    )
    assert problem.endswith(f"({note})")


RUST_FEATURES = """\
#[cfg(feature = "io")]
use std::io::Read;

#[test]
fn plain() {}

#[test]
#[ignore]
#[cfg(feature = "exponentials")]
fn exponential() {}

#[cfg(all(feature = "advanced", not(windows)))]
#[test]
fn covariant() {}

#[cfg(any(unix, feature = "nope"))]
#[test]
fn on_unix() {}

#[cfg(all(target_pointer_width = "64", target_os = "linux", not(target_os = "windows")))]
#[test]
fn on_linux() {}

mod outer {
    #[cfg(feature = "io")]
    mod io {
        #[test]
        fn reads() {}
    }

    #[test]
    fn kept() {}
}
"""


@pytest.mark.parametrize(
    ("features", "expected"),
    [
        ("", {"plain", "on_unix", "on_linux", "outer::kept"}),
        (
            '[features]\ndefault = ["io"]\nio = []\n',
            {"plain", "on_unix", "on_linux", "outer::kept", "outer::io::reads"},
        ),
    ],
)
def test_a_test_cargo_does_not_compile_by_default_is_no_expected_test(
    features: str, expected: set[str]
) -> None:
    # Rust's wordy, doubly-linked-list and xorcism keep tests behind features that are not
    # on by default (`#[cfg(feature = "exponentials")]`): `cargo test` never compiles them,
    # and the proof waited for them ("expected test did not run").
    manifest = f'[package]\nname = "kata"\nversion = "0.1.0"\n{features}'
    files = {"Cargo.toml": manifest.encode(), "tests/kata.rs": RUST_FEATURES.encode()}
    assert RUST.expected_tests(files) == {f"kata::{name}" for name in expected}


def test_the_driver_links_the_crates_the_kata_depends_on_and_no_other_source() -> None:
    # The driver's manifest had an empty [dependencies]: a reference using itertools, regex,
    # anyhow or time failed to build ("can't find crate"), so the exercise could not be data.
    manifest = b"""\
[package]
name = "poker"
edition = "2021"

[dependencies]
itertools = "0.13"
regex = { version = "1.11", default-features = false, features = ["std"] }
local = { path = "../elsewhere" }
remote = { git = "https://example.invalid/x.git", version = "1" }
"bad name" = "1"

[dev-dependencies]
rand = "0.8"
"""
    calls = CallMap(calls={"best": "poker::best(${hands})"})
    case = Case(id="a", description="", property="best", input={"hands": []}, expected=[])
    files = {"Cargo.toml": manifest, "src/lib.rs": b"pub fn best() {}\n", "build.rs": b""}
    prepared = RUST.driver.prepare(files, [case], calls, "0123456789abcdef")
    shipped = tomllib.loads(prepared.files["Cargo.toml"].decode())
    assert shipped["package"]["name"] == "poker"
    assert shipped["dependencies"] == {
        "itertools": {"version": "0.13"},
        "regex": {"version": "1.11", "default-features": False, "features": ["std"]},
    }
    assert "dev-dependencies" not in shipped
    assert "build.rs" not in prepared.files
