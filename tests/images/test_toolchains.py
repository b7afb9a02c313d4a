"""The toolchain each pack names (in its prompts and in what the import says of a newer one)
against the one its built image really runs."""

from __future__ import annotations

import docker
import pytest

from tdd_sandbox.languages.go.reader import TOOLCHAIN as GO
from tdd_sandbox.languages.rust.reader import TOOLCHAIN as RUST

pytestmark = pytest.mark.docker


@pytest.mark.parametrize(
    ("language", "command", "shown"),
    [
        ("rust", ["rustc", "--version"], "rustc {}.{}.".format(*RUST)),
        ("go", ["go", "version"], "go version go{}.{}.".format(*GO)),
    ],
)
def test_the_pack_names_the_toolchain_its_image_holds(
    docker_client: docker.DockerClient,
    images: dict[str, str],
    language: str,
    command: list[str],
    shown: str,
) -> None:
    out = docker_client.containers.run(
        images[language], command, remove=True, network_disabled=True
    )
    assert out.decode().startswith(shown), out
