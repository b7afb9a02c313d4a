"""The Rust pack's table of the image's crates (`languages/rust/crates.py`), and the Rust it
names, against the built image: a manifest asks for what is there, a note names its rustc."""

from __future__ import annotations

import docker
import pytest

from tdd_sandbox.languages.rust.crates import IMAGE_CRATES
from tdd_sandbox.languages.rust.reader import TOOLCHAIN

pytestmark = pytest.mark.docker


def test_every_crate_version_the_pack_names_is_in_the_images_registry(
    docker_client: docker.DockerClient, images: dict[str, str]
) -> None:
    listing = docker_client.containers.run(
        images["rust"], ["ls", "/usr/share/cargo/registry"], remove=True, network_disabled=True
    )
    held: dict[str, set[str]] = {}
    for entry in listing.decode().split():
        name, _, version = entry.rpartition("-")
        held.setdefault(name, set()).add(version)
    for crate, versions in IMAGE_CRATES.items():
        assert set(versions) <= held.get(crate, set()), (crate, sorted(held.get(crate, ())))
        newest = max(held[crate], key=lambda v: tuple(int(p) for p in v.split(".")))
        assert versions[-1] == newest, crate  # the one a manifest is told to ask for


def test_the_pack_names_the_rust_the_image_holds(
    docker_client: docker.DockerClient, images: dict[str, str]
) -> None:
    # The prompts and the import's "stable only in a Rust newer than the image's" say it.
    shown = docker_client.containers.run(
        images["rust"], ["rustc", "--version"], remove=True, network_disabled=True
    )
    assert shown.decode().startswith("rustc {}.{}.".format(*TOOLCHAIN)), shown
