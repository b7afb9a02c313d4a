"""Calls read off Exercism's Rust track, for a data suite: each canonical property is the
crate's public function of its snake_case name (`src/lib.rs`), or, for a kata of one property,
its one public function; the crate is named as its manifest names it. An argument is passed as
the parameter's type wants it: a slice borrowed (`&${rolls}`), a `String` owned."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence

from tdd_sandbox.languages.deriving import choose_functions, split_parameters
from tdd_sandbox.languages.rust.reader import rust_code
from tdd_sandbox.vocabulary.cases import CallMap, Case

_PUB_FN = re.compile(r"^pub\s+fn\s+(\w+)\s*(?:<[^>]*>)?\s*\(([^)]*)\)", re.MULTILINE)


def derive_rust_calls(cases: Sequence[Case], stub: Mapping[str, bytes]) -> CallMap | str:
    """The call mapping, or why there is none (the reference's proof confirms it)."""
    crate = _crate(stub.get("Cargo.toml", b""))
    code, _ = rust_code(stub.get("src/lib.rs", b"").decode("utf-8", "replace"))
    functions: dict[str, list[tuple[str, str]]] = {}
    for match in _PUB_FN.finditer(code):
        functions[match[1]] = [_param(p) for p in split_parameters(match[2])]
    declared = {name: [n for n, _ in params] for name, params in functions.items()}
    chosen = choose_functions(cases, declared, lambda prop: [_snake(prop)])
    if isinstance(chosen, str):
        return chosen
    calls = {}
    for prop, call in chosen.items():
        kinds = [kind for _, kind in functions[call.function]]
        arguments = [
            _argument(name, kind) for name, kind in zip(call.arguments, kinds, strict=True)
        ]
        calls[prop] = f"{crate}::{call.function}({', '.join(arguments)})"
    return CallMap(calls=calls)


def _argument(name: str, kind: str) -> str:
    placeholder = "${" + name + "}"
    compact = kind.replace(" ", "")
    if compact.startswith(("&[", "&Vec")):
        return "&" + placeholder
    if compact == "String":
        return placeholder + ".to_string()"
    return placeholder


def _param(text: str) -> tuple[str, str]:
    """`mut year: u64` -> (year, u64)."""
    name, _, kind = text.partition(":")
    return name.replace("mut ", "").strip(), kind.strip()


def _crate(manifest: bytes) -> str:
    """The crate's name as code writes it (`all-your-base` -> `all_your_base`)."""
    try:
        name = str(tomllib.loads(manifest.decode("utf-8", "replace"))["package"]["name"])
    except (tomllib.TOMLDecodeError, KeyError, TypeError):
        name = "kata"
    return name.replace("-", "_")


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()
