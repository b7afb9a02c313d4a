"""Gate overhead: the tool's test gate against the same command in a running container.

For a FizzBuzz kata with 20 tests in each language, prints the median over N runs of
  limit  - the test command by plain `docker exec` in an already running container of the
           same image that already holds the repo (the practical floor);
  gate   - the tool's test gate on a sandbox that already holds the repo: the supervised
           command, its results file handed back with it, parsing and judging;
  +open  - the same with opening the sandbox counted in (a warm container taken from the
           pool, the snapshot shipped as a tar: paid once per sandbox, not per gate);
  cold   - the same with the container started on the critical path too;
and their ratios to the limit. Rust, C++ and Java build then test on both sides
from nothing each time: the tool never reuses a build cache across snapshots, so the
floor must not either. The warm pool is refilled between runs, as model latency does in a
real run; the cold figure (container started on the critical path) is printed too. Go's floor
starts from the image's standard-library cache each time, as every sandbox does. The floor
and the tool take turns run by run, so a spell of load on the machine weighs on both alike.

Usage: python benchmarks/gate_overhead.py [--runs 10] [LANGUAGE...]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import docker

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tdd_sandbox.execution.steps import run_gates, with_sealable_tests
from tdd_sandbox.images.builder import ensure_image
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.sandbox.client import connect
from tdd_sandbox.sandbox.container import SANDBOX_USER
from tdd_sandbox.sandbox.docker_provider import DockerSandboxProvider
from tdd_sandbox.sandbox.snapshot import Snapshot
from tdd_sandbox.settings import ImageSettings, SandboxSettings
from tdd_sandbox.vocabulary.results import GateKind
from tests.helpers.solutions import SOLUTIONS

CARGO = "cargo --offline"
PY_IMPL = SOLUTIONS[("fizzbuzz", "python")][1]
RS_IMPL = SOLUTIONS[("fizzbuzz", "rust")][1]
GO_IMPL = SOLUTIONS[("fizzbuzz", "go")][1]
JS_IMPL = SOLUTIONS[("fizzbuzz", "javascript")][1]
CPP_IMPL = SOLUTIONS[("fizzbuzz", "cpp")][1]
JAVA_IMPL = SOLUTIONS[("fizzbuzz", "java")][1]


def _expected(n: int) -> str:
    return "FizzBuzz" if n % 15 == 0 else "Fizz" if n % 3 == 0 else "Buzz" if n % 5 == 0 else str(n)


def python_kata(tests: int = 20) -> Snapshot:
    """A green fizzbuzz kata with `tests` tests."""
    files = {k: v.encode() for k, v in get_language("python").scaffold().items()}
    files["fizzbuzz.py"] = PY_IMPL.encode()
    body = "from fizzbuzz import fizzbuzz\n" + "".join(
        f'\n\ndef test_{n}() -> None:\n    assert fizzbuzz({n}) == "{_expected(n)}"\n'
        for n in range(1, tests + 1)
    )
    files["tests/test_fizzbuzz.py"] = body.encode()
    return Snapshot(files)


def rust_kata(tests: int = 20) -> Snapshot:
    """A green fizzbuzz crate with `tests` integration tests."""
    files = {k: v.encode() for k, v in get_language("rust").scaffold().items()}
    files["src/lib.rs"] = RS_IMPL.encode()
    body = "use kata::fizzbuzz;\n" + "".join(
        f'\n#[test]\nfn n{n}() {{\n    assert_eq!(fizzbuzz({n}), "{_expected(n)}");\n}}\n'
        for n in range(1, tests + 1)
    )
    files["tests/fizzbuzz.rs"] = body.encode()
    return Snapshot(files)


def go_kata(tests: int = 20) -> Snapshot:
    """A green fizzbuzz module with `tests` tests."""
    files = {k: v.encode() for k, v in get_language("go").scaffold().items()}
    files["kata.go"] = GO_IMPL.encode()
    body = 'package kata\n\nimport "testing"\n' + "".join(
        f'\nfunc TestN{n}(t *testing.T) {{\n\tif FizzBuzz({n}) != "{_expected(n)}" {{\n'
        "\t\tt.Fail()\n\t}\n}\n"
        for n in range(1, tests + 1)
    )
    files["fizzbuzz_test.go"] = body.encode()
    return Snapshot(files)


def javascript_kata(tests: int = 20) -> Snapshot:
    """A green fizzbuzz package with `tests` tests."""
    files = {k: v.encode() for k, v in get_language("javascript").scaffold().items()}
    files["kata.js"] = JS_IMPL.encode()
    body = (
        'import { test } from "node:test";\nimport assert from "node:assert/strict";\n'
        'import { fizzBuzz } from "../kata.js";\n'
    ) + "".join(
        f'\ntest("n{n}", () => {{\n  assert.equal(fizzBuzz({n}), "{_expected(n)}");\n}});\n'
        for n in range(1, tests + 1)
    )
    files["test/fizzbuzz.test.js"] = body.encode()
    return Snapshot(files)


def cpp_kata(tests: int = 20) -> Snapshot:
    """A green fizzbuzz header with `tests` GoogleTest cases."""
    files = {k: v.encode() for k, v in get_language("cpp").scaffold().items()}
    files["kata.hpp"] = CPP_IMPL.encode()
    body = '#include <gtest/gtest.h>\n\n#include "kata.hpp"\n' + "".join(
        f'\nTEST(FizzBuzz, N{n}) {{ EXPECT_EQ(fizzbuzz({n}), "{_expected(n)}"); }}\n'
        for n in range(1, tests + 1)
    )
    files["tests/fizzbuzz_test.cpp"] = body.encode()
    return Snapshot(files)


def java_kata(tests: int = 20) -> Snapshot:
    """A green fizzbuzz class with `tests` JUnit tests."""
    files = {k: v.encode() for k, v in get_language("java").scaffold().items()}
    files["src/Kata.java"] = JAVA_IMPL.encode()
    body = (
        (
            "import static org.junit.jupiter.api.Assertions.assertEquals;\n\n"
            "import org.junit.jupiter.api.Test;\n\nclass KataTest {\n"
        )
        + "".join(
            f'  @Test\n  void n{n}() {{\n    assertEquals("{_expected(n)}", '
            f"Kata.fizzbuzz({n}));\n  }}\n"
            for n in range(1, tests + 1)
        )
        + "}\n"
    )
    files["test/KataTest.java"] = body.encode()
    return Snapshot(files)


KATAS: dict[str, Callable[[], Snapshot]] = {
    "python": python_kata,
    "rust": rust_kata,
    "go": go_kata,
    "javascript": javascript_kata,
    "cpp": cpp_kata,
    "java": java_kata,
}


def timed(action: Callable[[], object]) -> float:
    """Wall time of one call of `action`."""
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def limit_command(language: str) -> list[str]:
    """The bare test command, from nothing each time as a sandbox starts."""
    command = list(get_language(language).gates()[-1].command)
    if language == "rust":
        steps = ["rm -rf /tmp/target", f"{CARGO} build --all-targets -q", f"{CARGO} test -q"]
        command = ["sh", "-c", " && ".join(steps)]
    elif language == "go":
        command = ["sh", "-c", "rm -rf /tmp/go-cache\n" + command[2]]
    elif language in ("cpp", "java"):
        # The build and the tests, from nothing each time, as a sandbox does.
        build = get_language(language).gates()[-2].command[2]
        command = ["sh", "-c", "rm -rf /tmp/build /tmp/classes\n" + build.replace("exec ", "")
                   + command[2]]  # fmt: skip
    return command


def measure(
    client: docker.DockerClient, image: str, language: str, snapshot: Snapshot, runs: int, warm: int
) -> tuple[float, float, float]:
    """Medians of (the bare command by `docker exec` in a running container, the tool's test
    gate on an open sandbox, opening that sandbox). The two sides take turns, run by run, so
    that both are measured under the same load on the machine."""
    plugin = get_language(language)
    compiled = language in ("rust", "cpp", "java")
    kinds = frozenset({GateKind.BUILD, GateKind.TEST} if compiled else {GateKind.TEST})
    command = limit_command(language)
    limits, gates, opens = [], [], []
    with (
        DockerSandboxProvider(SandboxSettings(warm=0), run_id="bench-floor", client=client) as bare,
        bare.open(image, snapshot) as running,
        DockerSandboxProvider(
            SandboxSettings(warm=warm), run_id="bench-gate", client=client
        ) as tool,
    ):
        assert running.container_id is not None
        container = client.containers.get(running.container_id)

        def once() -> None:
            code, output = container.exec_run(command, user=SANDBOX_USER, workdir="/work")
            assert code == 0, output

        once()  # the first run warms the page cache; the tool's image is warm as well
        tool.prewarm(image)
        for _ in range(runs):
            time.sleep(1.0 if warm else 0.0)  # the pool refills while the model thinks
            limits.append(timed(once))
            started = time.perf_counter()
            box = tool.open(image, with_sealable_tests(plugin, snapshot))
            opened = time.perf_counter()
            report = run_gates(box, plugin, snapshot.files, only=kinds)
            gates.append(time.perf_counter() - opened)
            opens.append(opened - started)
            assert report.ok, [gate.reason for gate in report.gates]
            box.close()
    return statistics.median(limits), statistics.median(gates), statistics.median(opens)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("languages", nargs="*", default=list(KATAS), help="default: all")
    args = parser.parse_args()
    client = connect()
    print(f"gate overhead, median of {args.runs} runs each")
    print("gate: the tool's gate on an open sandbox; +open: with opening the sandbox (warm pool)")
    print("counted in; cold: with a container started on the critical path too")
    header = f"{'kata':<11}{'limit s':>9}{'gate s':>9}{'ratio':>7}{'+open s':>9}{'ratio':>7}"
    print(f"{header}{'cold s':>9}{'ratio':>7}")
    for language in args.languages:
        snapshot = KATAS[language]()
        image = ensure_image(client, language, ImageSettings())
        limit, gate, opening = measure(client, image, language, snapshot, args.runs, warm=1)
        _, cold_gate, cold_open = measure(
            client, image, language, snapshot, max(3, args.runs // 2), warm=0
        )
        warm_total, cold = gate + opening, cold_gate + cold_open
        row = f"{language:<11}{limit:>9.3f}{gate:>9.3f}{gate / limit:>7.2f}"
        row += f"{warm_total:>9.3f}{warm_total / limit:>7.2f}"
        print(f"{row}{cold:>9.3f}{cold / limit:>7.2f}")


if __name__ == "__main__":
    main()
