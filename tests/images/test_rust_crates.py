"""The Rust pack's table of the image's crates (`languages/rust/crates.py`) against the
registry the built image really holds: a manifest asks for what is there."""

from __future__ import annotations

import docker
import pytest

from tdd_sandbox.languages.rust.crates import IMAGE_CRATES

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
