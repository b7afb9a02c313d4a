"""The real-model lane: a real small model (Qwen2.5-Coder 0.5B) behind llama.cpp's server on
loopback drives a kata through the real sandbox. What is asserted is the harness, not the
model: no crash, a clear status, every commit on main green, usage and records kept."""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import docker
import pytest

from tdd_sandbox.engine.session import run_kata
from tdd_sandbox.execution.steps import run_gates, with_sealable_tests
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.llm.chat import ChatRequest
from tdd_sandbox.llm.client import OpenAIBackend
from tdd_sandbox.llm.endpoint import Endpoint
from tdd_sandbox.llm.stream import REPEATING, WINDOW
from tdd_sandbox.sandbox.docker_provider import DockerSandboxProvider
from tdd_sandbox.sandbox.snapshot import Snapshot
from tdd_sandbox.settings import SandboxSettings, load_settings

pytestmark = [pytest.mark.docker, pytest.mark.real_model, pytest.mark.usefixtures("images")]
ROOT = Path(__file__).resolve().parents[1]


def _lane() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "real_models", ROOT / "scripts" / "real_models.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def qwen() -> Iterator[str]:
    """The base URL of llama-server serving the 0.5B coder on a free loopback port."""
    lane = _lane()
    model = lane.CACHE / lane.MODELS["qwen"]["file"]
    if lane.server_binary() is None or not model.exists():
        if os.environ.get("CI"):
            pytest.fail("CI runs the real-model lane: `python scripts/real_models.py fetch` first")
        pytest.skip("the real-model lane is not installed (python scripts/real_models.py fetch)")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    lane_script = str(ROOT / "scripts" / "real_models.py")
    server = subprocess.Popen(
        [sys.executable, lane_script, "serve", "qwen", "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                with urllib.request.urlopen(f"{base}/models", timeout=5) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            assert server.poll() is None, "llama-server exited"
            assert time.monotonic() < deadline, "llama-server did not come up"
            time.sleep(1)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_a_small_real_model_drives_fizzbuzz_without_breaking_the_harness(
    qwen: str, tmp_path: Path, docker_client: docker.DockerClient, images: dict[str, str]
) -> None:
    roles = {role: {"model": "custom:qwen2.5-coder-0.5b", "edit_format": "whole"}
             for role in ("tester", "implementer", "refactorer")}  # fmt: skip
    settings = load_settings(
        overrides={
            "language": "python", "cycles": 2, "max_attempts_per_agent": 2,
            "llm": {"base_url": qwen, "timeout_s": 240, "max_retries": 1, "max_tokens": 600},
            "roles": roles,
        }
    )  # fmt: skip
    repo = tmp_path / "kata"
    summary = run_kata(ROOT / "katas" / "fizzbuzz" / "kata.md", settings, repo_dir=repo)
    assert summary.status in ("completed", "max_cycles", "stuck"), summary.reason
    assert summary.tokens["total"] > 0
    assert summary.usage["tester"]["requests"] >= 1
    run_dir = repo / ".tdd" / "runs" / summary.run_id
    recorded = json.loads((run_dir / "summary.json").read_text())
    assert recorded["status"] == summary.status
    events = [
        json.loads(line)["event"] for line in (run_dir / "log.jsonl").read_text().splitlines()
    ]
    assert events[0] == "start"
    assert events[-1] == "end"
    # Whatever the model did, only green states reached main.
    shas = subprocess.run(
        ["git", "-C", str(repo), "rev-list", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.split()
    python = get_language("python")
    with DockerSandboxProvider(
        SandboxSettings(warm=0), run_id="pytest-real", client=docker_client
    ) as provider:
        for sha in shas:
            subprocess.run(["git", "-C", str(repo), "checkout", "-q", sha], check=True)
            snapshot = Snapshot.from_directory(repo)
            with provider.open(images["python"], with_sealable_tests(python, snapshot)) as box:
                assert run_gates(box, python, snapshot.files).ok, sha


def test_a_real_answer_that_repeats_itself_is_stopped_and_the_server_writes_no_more(
    qwen: str,
) -> None:
    # The stop ends the reading and closes the stream: llama.cpp must end the answer there,
    # or the stop saves nothing (its slot would write on to the token limit for nobody).
    # The answer is begun for the model, as a loop: greedy decoding carries it on.
    model = "qwen2.5-coder-0.5b"
    backend = OpenAIBackend(Endpoint("custom", qwen, model, None), timeout_s=240, max_retries=0)
    messages = [
        {"role": "user", "content": "Write the word tick, over and over, and nothing else."},
        {"role": "assistant", "content": "tick tick tick tick tick tick tick tick tick tick"},
    ]
    request = ChatRequest(role="implementer", model=model, messages=messages,
                          temperature=0.0, max_tokens=4096)  # fmt: skip
    reply = backend.complete(request)
    assert reply.finish_reason == REPEATING
    assert len(reply.text) >= WINDOW
    assert 0 < reply.completion_tokens < 4096
    slots = qwen.removesuffix("/v1") + "/slots"
    deadline = time.monotonic() + 60
    while any(slot["is_processing"] for slot in json.load(urllib.request.urlopen(slots))):
        assert time.monotonic() < deadline, "the server wrote on after the stream was closed"
        time.sleep(0.2)
