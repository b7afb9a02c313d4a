"""The C++ image as the pack's build uses it: each runner's header precompiled for the pack's
own compile options, so a test file's build loads it rather than parsing it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tdd_sandbox.execution.docker_checker import DockerChecker
from tdd_sandbox.languages.cpp.runner import FLAGS
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.sandbox.snapshot import Snapshot
from tdd_sandbox.settings import load_settings

pytestmark = [pytest.mark.docker, pytest.mark.usefixtures("images")]

CPP = get_language("cpp")


@pytest.fixture(scope="module")
def checker() -> Iterator[DockerChecker]:
    with DockerChecker(load_settings()) as opened:
        yield opened


@pytest.mark.parametrize(
    ("header", "body"),
    [
        ("catch2/catch.hpp", 'TEST_CASE("runs") { REQUIRE(1 == 1); }\n'),
        ("gtest/gtest.h", "TEST(Runs, Once) { EXPECT_EQ(1, 1); }\n"),
    ],
)
def test_a_test_file_compiles_against_the_precompiled_runner_header(
    checker: DockerChecker, header: str, body: str
) -> None:
    # As Exercism writes them: the exercise's own header first, the runner's after it.
    test = f'#include "kata.hpp"\n#include <{header}>\n\n{body}'
    files = {"kata.hpp": b"#pragma once\n", "tests/kata_test.cpp": test.encode()}
    with checker.open(CPP, Snapshot(files)) as box:
        # `-H` names each header read; a `!` marks a precompiled one GCC loaded.
        command = f"g++ {FLAGS} -include {header} -H -c tests/kata_test.cpp -o /tmp/t.o"
        result = box.exec(["sh", "-c", command])
    assert result.exit_code == 0, result.stderr
    loaded = [line for line in result.stderr.splitlines() if line.startswith("! ")]
    assert loaded, result.stderr[:500]
    assert loaded[0].endswith(f"{header}.gch")
