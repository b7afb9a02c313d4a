"""Calls read off Exercism's Rust track: the crate's public functions perform the canonical
properties, each argument passed as its parameter's type wants it."""

from __future__ import annotations

from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.vocabulary.cases import CallMap, Case

RUST = get_language("rust")
MANIFEST = b'[package]\nname = "all-your-base"\nversion = "1.0.0"\nedition = "2021"\n'


def _case(prop: str, **given: object) -> Case:
    return Case(id=f"{prop}-{len(given)}", description="", property=prop, input=given, expected=0)


def test_the_crates_function_of_the_snake_case_name_with_borrowed_slices_and_owned_strings() -> (
    None
):
    lib = (
        b"/// pub fn commented_out()\npub fn rebase(digits: &[u32], input_base: u32) -> u32 {\n"
        b"    todo!()\n}\n\npub fn greet(name: String) -> String {\n    todo!()\n}\n"
        b"fn private(x: u8) {}\n"
    )
    stub = {"Cargo.toml": MANIFEST, "src/lib.rs": lib}
    cases = [_case("rebase", digits=[1], inputBase=2), _case("greet", name="Alice")]
    calls = RUST.derive_calls(cases, stub, {})
    assert calls == CallMap(
        calls={
            "rebase": "all_your_base::rebase(&${digits}, ${inputBase})",
            "greet": "all_your_base::greet(${name}.to_string())",
        }
    )


def test_the_one_public_function_performs_the_one_property() -> None:
    stub = {
        "Cargo.toml": MANIFEST.replace(b"all-your-base", b"leap"),
        "src/lib.rs": b"pub fn is_leap_year(year: u64) -> bool {\n    todo!()\n}\n",
    }
    calls = RUST.derive_calls([_case("leapYear", year=2015)], stub, {})
    assert isinstance(calls, CallMap)
    assert calls.calls == {"leapYear": "leap::is_leap_year(${year})"}


def test_lines_given_as_a_list_are_one_text_where_the_function_takes_a_str() -> None:
    # ocr-numbers' `rows: [" _ ", "| |", ...]` went in as a vec! where `convert(&str)` wants
    # the text: "mismatched types", so the whole suite failed to build.
    stub = {
        "Cargo.toml": MANIFEST.replace(b"all-your-base", b"ocr-numbers"),
        "src/lib.rs": b"pub fn convert(input: &str) -> String {\n    todo!()\n}\n"
        b"pub fn owned(input: String) -> String {\n    todo!()\n}\n",
    }
    cases = [_case("convert", rows=[" _ ", "|_|"]), _case("owned", input=["a"])]
    calls = RUST.derive_calls(cases, stub, {})
    assert isinstance(calls, CallMap)
    assert calls.calls == {
        "convert": "ocr_numbers::convert(${rows|lines})",
        "owned": "ocr_numbers::owned(${input|lines}.to_string())",
    }
    text = RUST.derive_calls([_case("convert", rows="plain")], stub, {})
    assert isinstance(text, CallMap)
    assert text.calls == {"convert": "ocr_numbers::convert(${rows})"}


def test_an_error_of_the_crate_s_own_type_without_display_is_read_by_its_debug_form() -> None:
    # The driver reads an `Err` by its Display; ocr-numbers' `Error` derives only Debug,
    # so the driver did not build ("`Error` doesn't implement `std::fmt::Display`").
    lib = (
        b"#[derive(Debug)]\npub enum Error {\n    Rows(usize),\n}\n"
        b"pub fn convert(input: &str) -> Result<String, Error> {\n    todo!()\n}\n"
        b"#[derive(Debug)]\npub struct Shown;\n"
        b"impl std::fmt::Display for Shown {\n"
        b"    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result { Ok(()) }\n}\n"
        b"pub fn shown(input: &str) -> Result<u8, Shown> {\n    todo!()\n}\n"
        b"pub fn text(input: &str) -> Result<u8, String> {\n    todo!()\n}\n"
    )
    stub = {"Cargo.toml": MANIFEST.replace(b"all-your-base", b"ocr"), "src/lib.rs": lib}
    cases = [_case("convert", input="x"), _case("shown", input="x"), _case("text", input="x")]
    calls = RUST.derive_calls(cases, stub, {})
    assert isinstance(calls, CallMap)
    assert calls.calls == {
        "convert": 'ocr::convert(${input}).map_err(|e| format!("{e:?}"))',
        "shown": "ocr::shown(${input})",
        "text": "ocr::text(${input})",
    }


BUCKETS = b"""\
#[derive(PartialEq, Eq, Debug)]
pub enum Bucket {
    One,
    Two,
}

#[derive(PartialEq, Eq, Debug)]
pub struct BucketStats {
    pub moves: u8,
    #[allow(dead_code)]
    pub goal_bucket: Bucket,
    pub other_bucket: u8,
}

pub struct Hidden {
    secret: u8,
}

pub fn solve(capacity: u8, start_bucket: &Bucket) -> Option<BucketStats> {
    todo!()
}
"""


def test_the_crate_s_own_enumeration_and_struct_are_passed_and_read_as_the_data_spells_them() -> (
    None
):
    # two-bucket: `startBucket: "one"` went in as a string where `&Bucket` is wanted, and the
    # driver had no way to read a `BucketStats`: "mismatched types", no suite built.
    stub = {"Cargo.toml": MANIFEST.replace(b"all-your-base", b"two-bucket"), "src/lib.rs": BUCKETS}
    case = Case(
        id="a",
        description="",
        property="measure",
        input={"capacity": 3, "startBucket": "one"},
        expected={"moves": 4, "goalBucket": "two", "otherBucket": 5},
    )
    calls = RUST.derive_calls([case], stub, {})
    assert isinstance(calls, CallMap)
    assert calls.calls == {
        "measure": "two_bucket::solve(${capacity}, &(match ${startBucket} { "
        '"one" => two_bucket::Bucket::One, "two" => two_bucket::Bucket::Two, '
        '_ => panic!("no such Bucket") }))'
    }
    assert "impl Plain for two_bucket::Bucket {" in calls.setup
    assert 'two_bucket::Bucket::Two => quote("two", out)' in calls.setup
    assert "impl Plain for two_bucket::BucketStats {" in calls.setup
    assert calls.setup.index("self.moves") < calls.setup.index("self.goal_bucket")
    assert "Hidden" not in calls.setup  # a private field: the driver could not read it


def test_an_answer_the_tests_collect_into_a_set_or_sort_is_taken_in_any_order() -> None:
    # poker's tests collect `winning_hands(input)` into a HashSet: the reference's winners in
    # another order than the data's failed the case with two.
    stub = {
        "Cargo.toml": MANIFEST.replace(b"all-your-base", b"poker"),
        "src/lib.rs": b"pub fn winning_hands(hands: &[&str]) -> Vec<&str> {\n    todo!()\n}\n"
        b"pub fn order(hands: &[&str]) -> Vec<&str> {\n    todo!()\n}\n",
    }
    cases = [_case("winningHands", hands=["4S"]), _case("order", hands=["4S"])]
    for test in (
        "let output = winning_hands(input).into_iter().collect::<HashSet<_>>();",
        "let mut output = winning_hands(input);\n    output.sort();",
    ):
        tests = {"tests/poker.rs": f"fn t() {{\n    {test}\n    order(input);\n}}\n".encode()}
        calls = RUST.derive_calls(cases, stub, tests)
        assert isinstance(calls, CallMap)
        assert calls.unordered == {"winningHands"}
    in_order = {"tests/poker.rs": b"// winning_hands(x).collect::<HashSet<_>>()\n"}
    calls = RUST.derive_calls(cases, stub, in_order)
    assert isinstance(calls, CallMap)
    assert not calls.unordered


def test_a_date_time_of_the_time_crate_is_given_and_read_as_the_data_s_iso_text() -> None:
    # gigasecond's `after(start: DateTime)`, `DateTime` being `time::PrimitiveDateTime`: the
    # data's "2011-04-25" went in as a string and no answer read ("not satisfied: Plain").
    stub = {
        "Cargo.toml": MANIFEST.replace(b"all-your-base", b"gigasecond"),
        "src/lib.rs": b"use time::PrimitiveDateTime as DateTime;\n\n"
        b"pub fn after(start: DateTime) -> DateTime {\n    todo!()\n}\n",
    }
    calls = RUST.derive_calls([_case("add", moment="2011-04-25")], stub, {})
    assert isinstance(calls, CallMap)
    assert calls.calls == {"add": "gigasecond::after(tdd_datetime(${moment}))"}
    assert "fn tdd_datetime(text: &str) -> time::PrimitiveDateTime" in calls.setup
    assert "impl Plain for time::PrimitiveDateTime" in calls.setup
    plain = RUST.derive_calls(
        [_case("add", moment="x")], {**stub, "src/lib.rs": b"pub fn after(s: u8) -> u8 {}\n"}, {}
    )
    assert isinstance(plain, CallMap)
    assert "tdd_datetime" not in plain.setup  # nothing of the time crate where none is used


FREQUENCY = {
    "Cargo.toml": MANIFEST.replace(b"all-your-base", b"parallel-letter-frequency"),
    "src/lib.rs": b"use std::collections::HashMap;\n\npub fn frequency(input: &[&str], "
    b"worker_count: usize) -> HashMap<char, usize> {\n    todo!()\n}\n",
}


def _frequency_tests(*workers: str) -> dict[str, bytes]:
    calls = "".join(
        f'#[test]\nfn t{k}() {{\n    assert_eq!(frequency::frequency(&["a"], {w}), hm());\n}}\n'
        for k, w in enumerate(workers)
    )
    return {"tests/f.rs": f"use parallel_letter_frequency as frequency;\n{calls}".encode()}


def test_a_parameter_the_data_lacks_takes_the_one_literal_every_test_passes_it() -> None:
    # parallel-letter-frequency's `frequency(texts, worker_count)`: the data gives the texts
    # alone; the track's tests ask for 4 workers, and for 1 in a test of its own.
    cases = [_case("calculateFrequencies", texts=["a"])]
    calls = RUST.derive_calls(cases, FREQUENCY, _frequency_tests("4", "1", "4"))
    assert isinstance(calls, CallMap)
    assert calls.calls == {
        "calculateFrequencies": "parallel_letter_frequency::frequency(&${texts}, 4)"
    }


def test_a_parameter_no_literal_is_passed_in_most_tests_is_not_fixed() -> None:
    cases = [_case("calculateFrequencies", texts=["a"])]
    calls = RUST.derive_calls(cases, FREQUENCY, _frequency_tests("4", "1"))
    assert calls == "frequency takes 2 arguments where calculateFrequencies gives 1"
    assert RUST.derive_calls(cases, FREQUENCY, _frequency_tests("4", "4", "n")) == calls
    assert RUST.derive_calls(cases, FREQUENCY, {}) == calls


def test_a_record_taken_field_by_field_comes_before_a_literal_the_tests_pass() -> None:
    # affine-cipher's `encode(text, a, b)` takes its key's fields, though every test passes
    # the same literal as `b`.
    stub = {
        "Cargo.toml": MANIFEST.replace(b"all-your-base", b"affine-cipher"),
        "src/lib.rs": b"pub fn encode(plaintext: &str, a: i32, b: i32) -> String {\n"
        b"    todo!()\n}\n",
    }
    tests = {"tests/a.rs": b'#[test]\nfn t() {\n    assert_eq!(encode("yes", 5, 7), "x");\n}\n'}
    calls = RUST.derive_calls([_case("encode", phrase="yes", key={"a": 5, "b": 7})], stub, tests)
    assert isinstance(calls, CallMap)
    assert calls.calls == {"encode": "affine_cipher::encode(${phrase}, ${key.a}, ${key.b})"}


def test_a_type_built_step_by_step_replays_the_list_input_and_reads_its_error_by_debug() -> None:
    # Bowling: before, "no function of the stub performs the property score"; its Error has
    # no Display, which the driver reads errors by.
    lib = (
        b"#[derive(Debug)]\npub enum Error {\n    GameComplete,\n}\n\npub struct BowlingGame {}\n\n"
        b"impl BowlingGame {\n    pub fn new() -> Self {\n        todo!()\n    }\n\n"
        b"    pub fn roll(&mut self, pins: u16) -> Result<(), Error> {\n        todo!()\n    }\n\n"
        b"    pub fn score(&self) -> Option<u16> {\n        todo!()\n    }\n}\n"
    )
    manifest = MANIFEST.replace(b"all-your-base", b"bowling")
    cases = [_case("score", previousRolls=[0]), _case("roll", previousRolls=[10], roll=11)]
    calls = RUST.derive_calls(cases, {"Cargo.toml": manifest, "src/lib.rs": lib}, {})
    assert isinstance(calls, CallMap), calls
    assert calls.calls["score"].startswith("{ let mut tdd_made = bowling::BowlingGame::new(); ")
    assert "for tdd_item in ${previousRolls} {" in calls.calls["score"]
    assert calls.calls["score"].endswith(" tdd_made.score() }")
    roll = calls.calls["roll"]  # from where every roll before it is made
    assert "let tdd_items = ${previousRolls+roll}; " in roll
    assert roll.count("tdd_made.roll(") == 1
    assert roll.endswith('resume_unwind(tdd_panic) } }.map_err(|e| format!("{e:?}"))')
    assert "fn tdd_step_failed" in calls.setup


def test_a_result_the_crate_names_by_an_alias_is_read_as_what_it_stands_for() -> None:
    # forth's `eval` returns `Result`, the crate's `pub type Result = std::result::Result<(),
    # Error>`: before, its Debug-only Error went unread and the driver did not compile
    # ("`forth::Error` doesn't implement `std::fmt::Display`").
    lib = (
        b"pub type Result = std::result::Result<(), Error>;\n\n#[derive(Debug)]\n"
        b"pub enum Error {\n    StackUnderflow,\n}\n\npub struct Forth;\n\nimpl Forth {\n"
        b"    pub fn new() -> Forth {\n        todo!()\n    }\n\n"
        b"    pub fn stack(&self) -> &[i32] {\n        todo!()\n    }\n\n"
        b"    pub fn eval(&mut self, input: &str) -> Result {\n        todo!()\n    }\n}\n"
    )
    manifest = MANIFEST.replace(b"all-your-base", b"forth")
    cases = [_case("evaluate", instructions=["1 2 +"])]
    calls = RUST.derive_calls(cases, {"Cargo.toml": manifest, "src/lib.rs": lib}, {})
    assert isinstance(calls, CallMap), calls
    assert calls.calls["evaluate"].endswith('.map_err(|e| format!("{e:?}"))')
    assert "None => Ok(tdd_made.stack().to_owned())" in calls.calls["evaluate"]


FENCE_LIB = b"""\
#[derive(Debug)]
pub enum Error {
    NoRails,
}

pub struct Fence {
    rails: u32,
}

impl Fence {
    pub fn new(rails: u32) -> Result<Fence, Error> {
        todo!()
    }

    pub fn encode(&self, text: &str) -> String {
        todo!()
    }

    pub fn decode(&self, cipher: &str) -> String {
        todo!()
    }
}
"""
FENCE_TESTS = b"""\
use fence::*;

#[test]
fn encodes_with_two_rails() {
    let fence = Fence::new(2).unwrap();
    assert_eq!(fence.encode("XOXOXO"), "XXXOOO");
}

#[test]
fn decodes_with_three_rails() {
    assert_eq!(Fence::new(3).expect("rails").decode("TEITELHDVLSNHDTISEIIEA"), "THEDEVIL");
}
"""


def test_an_object_a_function_of_its_type_makes_is_asked_the_method_named_for_the_property() -> (
    None
):
    # Rust's rail-fence-cipher: `RailFence::new(rails)`, then `.encode(text)`; the data
    # gives the text first, the maker takes the input of its parameter's name. The maker's
    # Err is the case's answer, read by its Debug form (the crate's Error has no Display).
    stub = {"Cargo.toml": MANIFEST.replace(b"all-your-base", b"fence"), "src/lib.rs": FENCE_LIB}
    cases = [_case("encode", msg="ab", rails=2), _case("decode", msg="ab", rails=2)]
    calls = RUST.derive_calls(cases, stub, {"tests/fence.rs": FENCE_TESTS})
    assert isinstance(calls, CallMap)
    read = '.map_err(|e| format!("{e:?}"))'
    assert calls.calls == {
        "encode": f"fence::Fence::new(${{rails}}).map(|tdd_made| tdd_made.encode(${{msg}})){read}",
        "decode": f"fence::Fence::new(${{rails}}).map(|tdd_made| tdd_made.decode(${{msg}})){read}",
    }
    # Two makers the tests use as often for one property: which, nothing says.
    twice = FENCE_LIB.replace(b"    pub fn encode", b"    pub fn striped(rails: u32) -> Self {\n"
                              b"        todo!()\n    }\n\n    pub fn encode")  # fmt: skip
    tests = (
        FENCE_TESTS + b"\n#[test]\nfn striped() {\n    let s = Fence::striped(2);\n"
        b'    assert_eq!(s.encode("ab"), "ab");\n    assert_eq!(s.decode("ab"), "ab");\n}\n'
    )
    stub["src/lib.rs"] = twice
    assert isinstance(RUST.derive_calls(cases, stub, {"tests/fence.rs": tests}), str)
