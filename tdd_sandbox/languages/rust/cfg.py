"""Which items `cargo test` compiles: a `#[cfg(...)]` predicate read as cargo sets it in the
image (the crate's default features, a Linux target, the test profile), so that a test
behind a feature that is off by default (Exercism's `#[cfg(feature = "advanced")]`) is no
expected test."""

from __future__ import annotations

import platform
import re
import tomllib
from collections.abc import Mapping

_CFG = re.compile(r"#\[\s*cfg\s*\((.*)\)\s*\]\s*$", re.DOTALL)
_TOKEN = re.compile(r'\s*("(?:[^"\\]|\\.)*"|\w+|[(),=])')
_SET = frozenset({"test", "unix", "debug_assertions"})
_SET_VALUES = {
    "target_os": "linux",
    "target_family": "unix",
    "target_env": "gnu",
    "target_arch": platform.machine().lower(),  # the images run on the host's architecture
    "target_pointer_width": "64",
    "target_endian": "little",
    "panic": "unwind",
}


def default_features(files: Mapping[str, bytes]) -> frozenset[str]:
    """The features `cargo test` turns on: the manifest's `default` ones, and those they name."""
    try:
        manifest = tomllib.loads(files.get("Cargo.toml", b"").decode("utf-8", "replace"))
    except tomllib.TOMLDecodeError:
        return frozenset()
    features = manifest.get("features", {})
    if not isinstance(features, dict):
        return frozenset()
    on: set[str] = set()
    waiting = list(features.get("default", []))
    while waiting:
        name = str(waiting.pop())
        if name not in on:
            on.add(name)
            named = features.get(name, [])
            waiting += [n for n in named if isinstance(n, str)] if isinstance(named, list) else []
    return frozenset(on)


def compiled(attributes: str, features: frozenset[str]) -> bool:
    """Whether an item with these outer attributes (`#[test] #[cfg(feature = "x")]`) is
    compiled; a predicate that cannot be read compiles nothing (cargo refuses it)."""
    for attribute in re.findall(r"#\[[^\]]*\]", attributes):
        match = _CFG.match(attribute)
        if match is None:
            continue
        tokens = _TOKEN.findall(match[1])
        if "".join(tokens) != re.sub(r"\s", "", match[1]):
            return False
        try:
            value, rest = _predicate(tokens, features)
        except (IndexError, ValueError):  # ended early, or a token out of place
            return False
        if rest or not value:
            return False
    return True


def _predicate(tokens: list[str], features: frozenset[str]) -> tuple[bool, list[str]]:
    head, rest = tokens[0], tokens[1:]
    if head in ("all", "any", "not") and rest[:1] == ["("]:
        values, rest = _list(rest[1:], features)
        if head == "not":
            if len(values) != 1:
                raise ValueError("not() takes one predicate")
            return not values[0], rest
        return (all(values) if head == "all" else any(values)), rest
    if not re.fullmatch(r"\w+", head):
        raise ValueError("a predicate starts with a name")
    if rest[:1] == ["="]:
        value = rest[1]
        if not value.startswith('"'):
            raise ValueError("a value is a string")
        text = value[1:-1]
        if head == "feature":
            return text in features, rest[2:]
        return _SET_VALUES.get(head) == text, rest[2:]
    return head in _SET, rest


def _list(tokens: list[str], features: frozenset[str]) -> tuple[list[bool], list[str]]:
    values: list[bool] = []
    while tokens[0] != ")":
        value, tokens = _predicate(tokens, features)
        values.append(value)
        if tokens[0] == ",":
            tokens = tokens[1:]
        elif tokens[0] != ")":
            raise ValueError("predicates are separated by commas")
    return values, tokens[1:]
