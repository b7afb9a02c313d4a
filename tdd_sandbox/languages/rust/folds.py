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
    fn tdd_failed(self) -> bool;
}
impl TddStep for () {
    fn tdd_failed(self) -> bool {
        false
    }
}
impl TddStep for bool {
    fn tdd_failed(self) -> bool {
        false
    }
}
impl<T, E> TddStep for Result<T, E> {
    fn tdd_failed(self) -> bool {
        self.is_err()
    }
}
fn tdd_step_failed(ran: std::thread::Result<bool>) -> bool {
    // A panic's payload is the code's, and so is its `Drop`: never run outside the step.
    ran.unwrap_or_else(|tdd_panic| {
        std::mem::forget(tdd_panic);
        true
    })
}
"""
"""What a step's answer says: an `Err` failed; nothing, or a yes or no, did not. The answer
is read, and dropped, inside the step's `catch_unwind` (`tdd_failed` takes it): an error whose
`Drop` panicked, dropped after it, reached the driver as the asked call's error."""


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
        step = f"tdd_made.{fold.step}(tdd_item)"
        if fold.reads:
            stepped = returns[fold.owner, fold.step]
            if not stepped.startswith("Result"):
                return None  # only a `Result` says a step's error
            # The last step's `Err` is the case's error; else the member is read after them.
            read = (
                "match tdd_outcome.and_then(|tdd_ran| match tdd_ran { Ok(tdd_said) => "
                "tdd_said.err(), Err(tdd_panic) => std::panic::resume_unwind(tdd_panic) }) { "
                "Some(tdd_said) => Err(tdd_said), "
                f"None => Ok(tdd_made.{fold.member}().to_owned()) }}"
            )
            built = _replay(crate, fold.owner, f"${{{fold.items}}}", step, read)
            calls[prop] = readable(built, stepped)
            continue
        if fold.replayed:
            # The step the case asks is the replay's last: its answer is the case's.
            answer = (
                "match tdd_outcome.unwrap() { Ok(tdd_said) => tdd_said, "
                "Err(tdd_panic) => std::panic::resume_unwind(tdd_panic) }"
            )
            items = f"${{{fold.items}+{fold.given[0]}}}"
            built = _replay(crate, fold.owner, items, step, answer)
            calls[prop] = readable(built, returns[fold.owner, fold.member])
            continue
        built = (
            f"{{ let mut tdd_made = {crate}::{fold.owner}::new(); "
            f"for tdd_item in ${{{fold.items}}} {{ "
            "if tdd_step_failed(std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| "
            f"{step}.tdd_failed()))) {_FAILED} }} "
            f"tdd_made.{fold.member}({given}) }}"
        )
        calls[prop] = readable(built, returns[fold.owner, fold.member])
    return CallMap(setup=HELPER, calls=calls)


def _replay(crate: str, owner: str, items: str, step: str, then: str) -> str:
    """A value of `owner` made, then each of `items` given to `step` (a call) from one call
    site, the last too, so no caller tells them apart: a step before the last that fails
    fails the case, its answer read and dropped inside its `catch_unwind`; the last one's
    outcome (`tdd_outcome`: None where there are no items) goes to `then`, the block's
    value."""
    return (
        f"{{ let mut tdd_made = {crate}::{owner}::new(); let tdd_items = {items}; "
        "let tdd_last = tdd_items.len().wrapping_sub(1); let mut tdd_outcome = None; "
        "for (tdd_at, tdd_item) in tdd_items.into_iter().enumerate() { "
        "let tdd_keep = tdd_at == tdd_last; "
        "let tdd_ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| { "
        f"let tdd_done = {step}; "
        "if tdd_keep { (false, Some(tdd_done)) } else { (tdd_done.tdd_failed(), None) } })); "
        "if tdd_keep { tdd_outcome = Some(tdd_ran.map(|(_, tdd_kept)| tdd_kept.unwrap())); "
        "break; } "
        f"if tdd_step_failed(tdd_ran.map(|(tdd_failed, _)| tdd_failed)) {_FAILED} }} "
        f"{then} }}"
    )
