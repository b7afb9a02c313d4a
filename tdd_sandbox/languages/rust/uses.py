"""Rust's objects made, then asked: the crate's types as the track's tests use them, made by
a function of the type (`Scale::chromatic("C")`, `HighScores::new(&scores)`), unwrapped
where it answers a `Result` or an `Option`, then asked a method (`.enumerate()`,
`.latest()`), in one expression or through a name bound in the same test. A property is
performed by the use whose method or maker is named for it, given as many inputs as the
property gives; the one property of a kata no name says is the one use of its arity left.
A maker's `Err` or `None` is the case's answer, as the tests' `unwrap` would fail it."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from tdd_sandbox.languages.deriving import Source, arguments_at
from tdd_sandbox.languages.lexing import block_end
from tdd_sandbox.languages.rust.types import Impl, read_impls
from tdd_sandbox.vocabulary.cases import CallMap, Case

_MAKING = re.compile(r"(?<![\w:])([A-Z]\w*)\s*::\s*([a-z_]\w*)\s*\(")
_BOUND = re.compile(r"\blet\s+(?:mut\s+)?(\w+)\s*(?::[^=;]+)?=\s*$")
_UNWRAP = re.compile(r"\s*(?:\.\s*(?:unwrap|expect)\s*\([^;]*?\)|\?)")
_ASKED = re.compile(r"\s*\.\s*([a-z_]\w*)\s*(\()?")
_TEST = re.compile(r"\bfn\s+\w+\s*\([^)]*\)[^{;]*\{")


@dataclass(frozen=True)
class Use:
    """An object of `owner` made by `maker` with `made_with` arguments, then asked `member`
    with `given` arguments."""

    owner: str
    maker: str
    made_with: int
    member: str
    given: int


def derive_rust_uses(
    cases: Sequence[Case],
    code: str,
    tests: Sequence[tuple[str, str]],
    crate: str,
    names: Callable[[str], list[str]],
    argument: Callable[[str, str], str],
    readable: Callable[[str, str], str],
    readers: Callable[[str, list[str]], str],
) -> CallMap | None:
    """The calls of the uses the tests (text, code) make of the types `code` implements, in
    `crate` and with the properties spelled as `names` spells them, each input passed as
    `argument(input, its type)` writes it, each answer read as `readable(call, what it
    returns)` reads its errors, and as `readers(crate, types returned)` sets up the
    crate's own types it returns; None where a property has none."""
    impls = {impl.owner: impl for impl in read_impls(code) if impl.makers}
    counted = Counter(use for test in tests for use in _uses(test, impls))
    chosen: dict[str, Use] = {}
    unnamed: list[str] = []
    for prop in dict.fromkeys(case.property for case in cases):
        arity = {len(case.input) for case in cases if case.property == prop}
        fitting = [use for use in counted if {use.made_with + use.given} == arity]
        spelled = names(prop)
        wanted = {*spelled, *(f"is_{name}" for name in spelled)}
        found = {use for use in fitting if use.member in wanted or use.maker in wanted}
        if len(found) > 1:  # the one the tests make most
            ranked = sorted(found, key=lambda use: counted[use], reverse=True)
            found = {ranked[0]} if counted[ranked[0]] > counted[ranked[1]] else found
        if len(found) == 1:
            chosen[prop] = found.pop()
        elif found:
            return None
        else:
            unnamed.append(prop)
    for prop in unnamed:
        arity = {len(case.input) for case in cases if case.property == prop}
        left = {u for u in counted if {u.made_with + u.given} == arity} - set(chosen.values())
        if len(unnamed) > 1 or len(left) != 1 or not chosen:
            return None
        chosen[prop] = left.pop()
    calls, returned = {}, []
    for prop, use in chosen.items():
        impl = impls[use.owner]
        params, made = impl.makers[use.maker]
        kinds, answer = impl.methods[use.member]
        returned.append(answer)
        inputs = _assigned(
            [name for name, _ in params], next(c for c in cases if c.property == prop).input
        )
        taken = [argument(i, kind) for i, (_, kind) in zip(inputs, params, strict=False)]
        given = [argument(i, k) for i, k in zip(inputs[len(params) :], kinds, strict=True)]
        maker = f"{crate}::{use.owner}::{use.maker}({', '.join(taken)})"
        asked = f"{use.member}({', '.join(given)})"
        if made.startswith(("Result<", "Option<")):
            calls[prop] = readable(f"{maker}.map(|tdd_made| tdd_made.{asked})", made)
        else:
            calls[prop] = readable(f"{maker}.{asked}", answer)
    return CallMap(calls=calls, setup=readers(crate, returned))


def _assigned(params: list[str], given: Mapping[str, object]) -> list[str]:
    """The inputs in the order the maker's `params`, then the method's, take them: an input
    named as a maker's parameter to it, the rest in the data's order (rail-fence-cipher's
    `RailFence::new(rails).encode(msg)` where the data gives msg first)."""
    keys = list(given)
    first = [p if p in keys else "" for p in params]
    rest = [key for key in keys if key not in first]
    return [p or rest.pop(0) for p in first] + rest


def _uses(test: tuple[str, str], impls: dict[str, Impl]) -> set[Use]:
    """The uses one test file makes, each once per test."""
    text, code = test
    found: set[Use] = set()
    for body in _bodies(code):
        bound: dict[str, tuple[str, str, int]] = {}
        for match in _MAKING.finditer(code, *body):
            owner, maker = match[1], match[2]
            if owner not in impls or maker not in impls[owner].makers:
                continue
            count, end = arguments_at(Source(code, text), match.end())
            if count is None:
                continue
            if unwrapped := _UNWRAP.match(code, end):
                end = unwrapped.end()
            before = code[body[0] : match.start()].rsplit(";", 1)[-1].rsplit("{", 1)[-1]
            if (binding := _BOUND.search(before)) and code[end:].lstrip().startswith(";"):
                bound[binding[1]] = (owner, maker, count)
            elif use := _asked(code, text, end, (owner, maker, count), impls):
                found.add(use)
        for name, made in bound.items():
            asked = re.compile(rf"(?<![\w.]){name}(?=\s*\.)")
            for match in asked.finditer(code, body[0], body[1]):
                if use := _asked(code, text, match.end(), made, impls):
                    found.add(use)
    return found


def _asked(
    code: str, text: str, at: int, made: tuple[str, str, int], impls: dict[str, Impl]
) -> Use | None:
    """The method the object made so is asked right after `at`, where it is one of its
    type's."""
    match = _ASKED.match(code, at)
    owner, maker, count = made
    if match is None or match[1] not in impls[owner].methods or match[2] is None:
        return None
    given, _ = arguments_at(Source(code, text), match.end())
    return None if given is None else Use(owner, maker, count, match[1], given)


def _bodies(code: str) -> list[tuple[int, int]]:
    """Where each function of the tests has its body (a test, or a helper a test calls)."""
    return [(match.end(), block_end(code, match.end())) for match in _TEST.finditer(code)]
