"""What the sandbox's own toolchains enforce behind the allow-list policies (#24), on Docker:
checks that hold whatever the code's text looks like, so they are shown with the static
policy out of the way."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator

import docker
import pytest

from tdd_sandbox.execution.base import GateCheck
from tdd_sandbox.execution.docker_checker import DockerChecker
from tdd_sandbox.grading.gates import GateStatus
from tdd_sandbox.languages.python.modules import IMAGE_MODULES, is_own
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.settings import load_settings
from tdd_sandbox.vocabulary.results import GateKind, TestStatus
from tests.helpers.answer_readers import FUNCTION_FROM_TEXT, READERS
from tests.helpers.katas import STEPS
from tests.helpers.repos import encode

pytestmark = [pytest.mark.docker, pytest.mark.usefixtures("images")]


@pytest.fixture(scope="module")
def checker() -> Iterator[DockerChecker]:
    """One checker for the module."""
    with DockerChecker(load_settings(), run_id="pytest-engine-guards") as made:
        yield made


@pytest.mark.parametrize("language", ["javascript", "typescript"])
def test_code_on_node_cannot_make_code_from_text(
    checker: DockerChecker, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    # The reader of #24 reached `process` through the Function constructor, a route the
    # block-list policy never saw, and got its test green. With the tests left readable
    # (sealing off), V8 now refuses to make the function, whatever route reached it.
    pack = get_language(language)
    monkeypatch.setattr(pack, "seals_tests", False)
    steps = STEPS[language]
    code = READERS[language].replace("process.", f"{FUNCTION_FROM_TEXT}.")
    assert "process" not in code
    files = encode({**pack.scaffold(), steps.test_path: steps.test_file(1), steps.code_path: code})
    gate = checker.check(GateCheck(pack, files)).report.gate(GateKind.TEST)
    assert gate is not None
    assert gate.status is GateStatus.FAILED, (gate.reason, gate.output_tail)
    said = gate.result.stdout + gate.result.stderr
    assert "Code generation from strings disallowed" in said, said[-2000:]
    assert not [o for o in gate.tests if "fizzbuzz" in o.id and o.status is TestStatus.PASSED]
    # Honest code that never makes code from text is untouched by it.
    honest = {**files, steps.code_path: steps.impls[0].encode()}
    assert checker.check(GateCheck(pack, honest)).report.ok


def test_python_names_the_image_has_are_never_the_katas_own(
    docker_client: docker.DockerClient, images: dict[str, str]
) -> None:
    # The policy takes a module that is neither the standard library's nor the image's for
    # the kata's own: that holds only while `IMAGE_MODULES` lists every package the image
    # installs, and the judge's standard library names every module the sandbox's has.
    script = (
        "import json, pkgutil, sys\n"
        "names = {m.name for m in pkgutil.iter_modules()} | set(sys.stdlib_module_names)\n"
        "print(json.dumps(sorted(names)))\n"
    )
    out = docker_client.containers.run(
        images["python"], ["python3", "-c", script], remove=True, network_disabled=True
    )
    names = json.loads(out)
    taken_for_own = [n for n in names if is_own(n)]
    assert taken_for_own == [], (taken_for_own, sorted(IMAGE_MODULES), sys.version)
