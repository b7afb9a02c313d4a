"""Rust's types driven by a script (`scripting`): a type of the crate with a `new` that takes
the case's other inputs, and its methods of `&self` or `&mut self`, each an operation's. The
driver's `tdd_script!` makes the value, then takes each step, a closure on it, and reports
what it answers as a call's (an `Err` is the step's error, a panic too). A group run at once
is not performed: a value shared by threads is no `&mut`, so no script is derived there."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tdd_sandbox.languages.rust.types import read_impls
from tdd_sandbox.languages.scripting import (
    STEPS,
    Script,
    choose_script,
    is_group,
    is_script,
    passed_kind,
    scripted,
    step_templates,
)
from tdd_sandbox.vocabulary.cases import CallMap, Case

_KINDS: dict[type | None, str] = {int: "i64", bool: "bool"}
"""The type argument of a generic type whose operations pass values of one kind."""

HELPER = """
macro_rules! tdd_script {
    ($made:expr $(, $step:expr)* $(,)?) => {{
        let mut tdd_made = $made;
        let mut tdd_line = String::from("{\\"value\\":[");
        let mut tdd_first = true;
        $(
            if !tdd_first {
                tdd_line.push(',');
            }
            tdd_first = false;
            tdd_line.push_str(&tdd_take(&mut tdd_made, $step));
        )*
        tdd_line.push_str("]}");
        tdd_line
    }};
}
fn tdd_take<T, F: FnOnce(&mut T) -> String>(made: &mut T, step: F) -> String {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| step(made))) {
        Ok(said) => said,
        Err(payload) => panicked(payload),
    }
}
fn tdd_said<R: Plain>(answer: R) -> String {
    let mut out = String::new();
    answer.report(&mut out);
    out
}
"""
"""A script's line, each step's outcome read at once (a later step cannot change it)."""


def derive_rust_scripts(
    cases: Sequence[Case],
    code: str,
    crate: str,
    names: Callable[[str], list[str]],
    argument: Callable[[str, str], str],
    readable: Callable[[str, str], str],
) -> CallMap | None:
    """The calls that perform every case by a script on the one type `code` (literals and
    comments blank) implements whose methods perform every operation, each argument as
    `argument(input, its type)` writes it and each call as `readable(call, what it
    returns)` reads its errors; None where no one type does, or a group runs at once."""
    if not is_script(cases) or any(is_group(op) for c in cases for op in c.input["operations"]):
        return None
    found: list[tuple[Script, dict[str, tuple[list[str], str]], list[str], bool]] = []
    for impl in read_impls(code):
        if impl.made is None:
            continue
        arities = {method: len(kinds) for method, (kinds, _) in impl.methods.items()}
        script = choose_script(cases, impl.owner, arities, len(impl.made), names)
        if isinstance(script, Script):
            found.append((script, impl.methods, impl.made, impl.generic))
    if len(found) != 1:
        return None
    script, methods, made, generic = found[0]
    owner = f"{crate}::{script.owner}"
    if generic:
        if (kind := _KINDS.get(passed_kind(cases, script))) is None:
            return None
        owner += f"::<{kind}>"

    def step(method: str, given: tuple[str, ...]) -> str:
        # An operation's fields are the data's scalars: each its literal.
        call = readable(f"tdd_made.{method}({', '.join(given)})", methods[method][1])
        return f"|tdd_made| tdd_said({call})"

    steps = step_templates(script, step, lambda _: "")  # no group: refused above
    made_with = ", ".join(
        argument(name, kind) for name, kind in zip(script.made_with, made, strict=True)
    )
    call = f"tdd_script!({owner}::new({made_with}), {STEPS})"
    return scripted(cases, call, steps, setup=HELPER)
