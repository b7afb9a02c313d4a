"""Every trick in `tests.helpers.hidden_code` is real: the language's own toolchain, in the
tool's sandbox, runs the payload the policy once failed to see (tests/grading/
test_policy_lexing.py shows the policy sees it now)."""

from __future__ import annotations

import pytest

from tdd_sandbox.sandbox.docker_provider import DockerSandboxProvider
from tdd_sandbox.sandbox.snapshot import Snapshot
from tests.conftest import ON_EVERY_RUNTIME
from tests.helpers.hidden_code import HIDDEN, Hidden

pytestmark = [pytest.mark.docker, ON_EVERY_RUNTIME]


@pytest.mark.parametrize("hidden", HIDDEN, ids=lambda h: f"{h.language}-{h.name}")
def test_the_hidden_payload_runs(
    hidden: Hidden, provider: DockerSandboxProvider, images: dict[str, str]
) -> None:
    snapshot = Snapshot({hidden.path: hidden.source.encode()})
    with provider.open(images[hidden.language], snapshot) as box:
        result = box.exec(["sh", "-c", f"cp -r . /tmp/w && {hidden.run}"], timeout_s=60)
    assert result.exit_code == 42, (result.stdout + result.stderr)[-2000:]
