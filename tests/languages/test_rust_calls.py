"""Calls read off Exercism's Rust track: the crate's public functions perform the canonical
properties, each argument passed as its parameter's type wants it."""

from __future__ import annotations

from tdd_sandbox.languages import get_language
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
