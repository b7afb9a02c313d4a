"""Rust's objects built step by step (`folding`): the crate's types with a `new()` of no
arguments, their methods of `&self` or `&mut self`, and a call that replays a list input on
one, then asks the property. A step that returns an `Err` or panics fails the case (the
driver's `failure`), never passes one that expects an error."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tdd_sandbox.languages.folding import choose_folds
from tdd_sandbox.languages.rust.types import read_impls
from tdd_sandbox.vocabulary.cases import CallMap, Case

_FAILED = r'{ out.push_str("{\"failure\":\"a step that builds the object failed\"}"); return; }'

HELPER = """
trait TddStep {
    fn tdd_failed(&self) -> bool;
}
impl TddStep for () {
    fn tdd_failed(&self) -> bool {
        false
    }
}
impl TddStep for bool {
    fn tdd_failed(&self) -> bool {
        false
    }
}
impl<T, E> TddStep for Result<T, E> {
    fn tdd_failed(&self) -> bool {
        self.is_err()
    }
}
fn tdd_step_failed<R: TddStep>(ran: std::thread::Result<R>) -> bool {
    ran.map(|done| done.tdd_failed()).unwrap_or(true)
}
"""
"""What a step's answer says: an `Err` failed; nothing, or a yes or no, did not."""


def derive_rust_folds(
    cases: Sequence[Case],
    code: str,
    crate: str,
    names: Callable[[str], list[str]],
    argument: Callable[[str, str], str],
    readable: Callable[[str, str], str],
) -> CallMap | None:
    """The calls of `folding.choose_folds` on the types `code` implements (blank literals
    and comments), a property spelled as `names` spells it, each argument as
    `argument(input, its type)` writes it and each call as `readable(call, what it returns)`
    reads its errors; None where no type is built so, or an item would be spread (a Rust list
    holds one type)."""
    classes: dict[str, dict[str, int]] = {}
    kinds: dict[tuple[str, str], list[str]] = {}
    returns: dict[tuple[str, str], str] = {}
    for impl in read_impls(code):
        if impl.generic or impl.made != []:
            continue  # a fold's type is made by a `new()` of no arguments
        classes[impl.owner] = {name: len(taken) for name, (taken, _) in impl.methods.items()}
        for name, (taken, answer) in impl.methods.items():
            kinds[impl.owner, name] = taken
            returns[impl.owner, name] = answer
    chosen = choose_folds(cases, classes, names, readers=True)
    if isinstance(chosen, str) or any(fold.spread for fold in chosen.values()):
        return None
    calls = {}
    for prop, fold in chosen.items():
        given = ", ".join(
            argument(name, kind)
            for name, kind in zip(fold.given, kinds[fold.owner, fold.member], strict=True)
        )
        step = f"std::panic::AssertUnwindSafe(|| tdd_made.{fold.step}(tdd_item))"
        if fold.reads:
            stepped = returns[fold.owner, fold.step]
            if not stepped.startswith("Result"):
                return None  # only a `Result` says a step's error
            # One call for every step, the last too: its `Err` is the case's error.
            built = (
                f"{{ let mut tdd_made = {crate}::{fold.owner}::new(); "
                f"let tdd_items = ${{{fold.items}}}; "
                f"let tdd_last = tdd_items.len().wrapping_sub(1); let mut tdd_error = None; "
                f"for (tdd_at, tdd_item) in tdd_items.into_iter().enumerate() {{ "
                f"let tdd_ran = std::panic::catch_unwind({step}); "
                f"if tdd_at == tdd_last {{ match tdd_ran {{ Ok(tdd_said) => tdd_error = "
                f"tdd_said.err(), Err(tdd_panic) => std::panic::resume_unwind(tdd_panic) }} "
                f"break; }} "
                f"if tdd_step_failed(tdd_ran) {_FAILED} }} "
                f"match tdd_error {{ Some(tdd_said) => Err(tdd_said), "
                f"None => Ok(tdd_made.{fold.member}().to_owned()) }} }}"
            )
            calls[prop] = readable(built, stepped)
            continue
        if fold.replayed:
            # One call for every step, the one the case asks too: no caller tells them apart.
            built = (
                f"{{ let mut tdd_made = {crate}::{fold.owner}::new(); "
                f"let tdd_items = ${{{fold.items}+{fold.given[0]}}}; "
                f"let tdd_last = tdd_items.len() - 1; let mut tdd_answer = None; "
                f"for (tdd_at, tdd_item) in tdd_items.into_iter().enumerate() {{ "
                f"let tdd_ran = std::panic::catch_unwind({step}); "
                f"if tdd_at == tdd_last {{ tdd_answer = Some(tdd_ran); break; }} "
                f"if tdd_step_failed(tdd_ran) {_FAILED} }} "
                f"match tdd_answer.unwrap() {{ Ok(tdd_said) => tdd_said, "
                f"Err(tdd_panic) => std::panic::resume_unwind(tdd_panic) }} }}"
            )
            calls[prop] = readable(built, returns[fold.owner, fold.member])
            continue
        built = (
            f"{{ let mut tdd_made = {crate}::{fold.owner}::new(); "
            f"for tdd_item in ${{{fold.items}}} {{ "
            f"if tdd_step_failed(std::panic::catch_unwind({step})) {_FAILED} }} "
            f"tdd_made.{fold.member}({given}) }}"
        )
        calls[prop] = readable(built, returns[fold.owner, fold.member])
    return CallMap(setup=HELPER, calls=calls)
