"""A track's Rust manifest as the image builds it: a dependency no crate of the image's
registry meets asks for the image's version."""

from __future__ import annotations

import pytest

from tdd_sandbox.languages.rust.plugin import RUST

EXAMPLE = b"""[package]
edition = "2021"
name = "alphametics"
version = "0.0.0"

[dependencies]
itertools = "0.5"
permutohedron = "0.2"
rand = { version = "^0.3.12", features = ["std"] }
regex = ">=0.2, <0.3"
unknown = "0.1"

[features]
itertools = "0.5"
"""


def test_a_requirement_the_image_cannot_meet_asks_for_the_images_version() -> None:
    # aider's alphametics, pig-latin, poker and robot-name examples ask for itertools 0.5,
    # regex 0.2, counter 0.5 and rand 0.3; Debian has 0.13, 1.11, 0.6 and 0.8, so their
    # references never built ("failed to select a version for the requirement").
    manifest, note = RUST.track_project("Cargo.toml", EXAMPLE)
    text = manifest.decode()
    assert 'itertools = "0.13"\n' in text
    assert 'permutohedron = "0.2"\n' in text  # met as it is
    assert 'rand = { version = "0.8", features = ["std"] }' in text
    assert 'regex = ">=0.2, <0.3"' in text  # not a caret requirement: left as it is
    assert 'unknown = "0.1"' in text  # no such crate in the image: nothing to ask for
    assert text.endswith('[features]\nitertools = "0.5"\n')  # not a dependency
    assert note == (
        "Cargo.toml asks for itertools 0.5 (the image has 0.13.0), rand ^0.3.12 (the image "
        "has 0.8.5): it asks for the image's versions instead (the reference's proof says "
        "whether the exercise builds with them)"
    )


@pytest.mark.parametrize("requirement", ["1", "1.0.2", "^1.0", "0.13", "0.13.0", "*"])
def test_a_requirement_the_image_meets_is_left_as_it_is(requirement: str) -> None:
    crate = "anyhow" if requirement.startswith(("1", "^1")) else "itertools"
    manifest = f'[dependencies]\n{crate} = "{requirement}"\n'.encode()
    assert RUST.track_project("Cargo.toml", manifest) == (manifest, "")
