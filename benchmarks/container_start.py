"""Container start under each OCI runtime: a hardened sandbox container created and started
(as the warm pool does), and the same with the snapshot shipped and a first command run (what
a gate waits for when no warm container is ready). Median of N, each runtime in turn.

Beside each wall time, the machine's busy CPU seconds the step cost (`benchmarks/cpu.py`: the
engine, the runtime and the container together), and those of one more supervised command
(`true`) and of removing the container. On a machine whose cores are all busy, as in a run's
cycles, CPU seconds are what a step really costs: `loop_overhead.py` prints how many
containers and execs a cycle asks for.

Then a check's start in each design (`sandbox.isolation`), as a run meets it: N checks one
after another from a warm provider, each opened with its snapshot, given one command (`true`)
and closed. `start` is open to the command's result; `cpu/check` the machine's busy CPU
seconds over all N checks (the warm pool's starts, removals and wipes included, waited for at
the end) per check. `container`: a container per check; `namespace`: a warm container
emptied between checks, each command in fresh namespaces.

Last, what a Python check's commands cost with and without the warm interpreter that forks
them (`sandbox/zygote.py`, runc, namespace): the guarded pytest of a one-test kata, and the
readers' batch (ruff twice, mypy), median of N, one check after another.

Usage: python benchmarks/container_start.py [--runs 10] [--runtimes runc,runsc]
"""

from __future__ import annotations

import argparse
import secrets
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.cpu import busy_and_stolen
from tdd_sandbox.images.builder import ensure_image
from tdd_sandbox.languages.registry import LANGUAGES
from tdd_sandbox.sandbox.client import connect
from tdd_sandbox.sandbox.docker_provider import DockerSandboxProvider
from tdd_sandbox.sandbox.snapshot import Snapshot
from tdd_sandbox.settings import ImageSettings, SandboxSettings
from tdd_sandbox.vocabulary.results import GateKind

SNAPSHOT = Snapshot({"kata.py": b"x = 1\n", "tests/test_kata.py": b"def test_x(): pass\n"})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--runtimes", default="runc,runsc")
    args = parser.parse_args()
    client = connect()
    image = ensure_image(client, "python", ImageSettings())
    runtimes = args.runtimes.split(",")
    figures = ("start", "start cpu", "first", "first cpu", "exec cpu", "remove cpu")
    seen: dict[str, dict[str, list[float]]] = {
        name: {figure: [] for figure in figures} for name in runtimes
    }
    providers = {
        name: DockerSandboxProvider(
            SandboxSettings(runtime=name, warm=0), run_id="bench-start", client=client
        )
        for name in runtimes
    }
    try:
        for _ in range(args.runs):
            for name, provider in providers.items():  # in turn: load weighs on both alike
                into = seen[name]
                clock, cpu = time.perf_counter(), busy_and_stolen()[0]
                container = provider.take_container(image)
                into["start"].append(time.perf_counter() - clock)
                into["start cpu"].append(busy_and_stolen()[0] - cpu)
                cpu = busy_and_stolen()[0]
                provider.destroy(container)
                into["remove cpu"].append(busy_and_stolen()[0] - cpu)
                clock, cpu = time.perf_counter(), busy_and_stolen()[0]
                box = provider.open(image, SNAPSHOT)
                try:
                    assert box.exec(["true"]).exit_code == 0
                    into["first"].append(time.perf_counter() - clock)
                    into["first cpu"].append(busy_and_stolen()[0] - cpu)
                    cpu = busy_and_stolen()[0]
                    assert box.exec(["true"]).exit_code == 0
                    into["exec cpu"].append(busy_and_stolen()[0] - cpu)
                finally:
                    box.close()
    finally:
        for provider in providers.values():
            provider.close()
    print(f"container start, python image, median of {args.runs}")
    print(f"{'runtime':<8}" + "".join(f"{figure:>12}" for figure in figures))
    for name in runtimes:
        row = (statistics.median(seen[name][figure]) for figure in figures)
        print(f"{name:<8}" + "".join(f"{value:>12.2f}" for value in row))
    print("start: created and started; first: + snapshot shipped + a first command")
    print()
    print(f"a check's start, warm, {args.runs} checks one after another")
    print(f"{'runtime':<8}{'isolation':>12}{'start':>12}{'cpu/check':>12}")
    for name in runtimes:
        for isolation in ("container", "namespace"):
            start, cpu = checks(client, image, name, isolation, args.runs)
            print(f"{name:<8}{isolation:>12}{start:>12.3f}{cpu:>12.3f}")
    print()
    print(f"a Python check's commands, runc, namespace, median of {args.runs}")
    print(f"{'interpreter':<12}{'pytest':>12}{'readers':>12}")
    for label, preload in (("fresh", ()), ("warm", LANGUAGES["python"].preload)):
        pytest_s, readers_s = python_commands(client, image, preload, args.runs)
        print(f"{label:<12}{pytest_s:>12.3f}{readers_s:>12.3f}")


def python_commands(
    client: Any, image: str, preload: tuple[str, ...], runs: int
) -> tuple[float, float]:
    """Median seconds of the guarded pytest and of the readers' batch on a one-test kata."""
    python = LANGUAGES["python"]
    files = {
        "kata.py": b"def f() -> int:\n    return 1\n",
        "tests/test_kata.py": (
            b"from kata import f\n\n\ndef test_f() -> None:\n    assert f() == 1\n"
        ),
    }
    gates = {gate.kind: gate.command for gate in python.gates()}
    test = python.guard(gates[GateKind.TEST], secrets.token_hex(8))
    assert test is not None
    sealed = python.sealed_input(files, python.sealed_tests(files))
    readers = [gates[GateKind.FORMAT], gates[GateKind.LINT], gates[GateKind.TYPECHECK]]
    timed: dict[str, list[float]] = {"pytest": [], "readers": []}
    with DockerSandboxProvider(
        SandboxSettings(warm=1), run_id="bench-python", client=client
    ) as made:
        made.prewarm(image, preload=preload)
        made.take_container(image)  # the first start and its interpreters' imports: not a check's
        made.prewarm(image)
        time.sleep(3)
        for _ in range(runs):
            with made.open(image, Snapshot(files)) as box:
                clock = time.perf_counter()
                assert box.exec(list(test), stdin=sealed, sealed=True).exit_code is not None
                timed["pytest"].append(time.perf_counter() - clock)
                clock = time.perf_counter()
                assert all(r.exit_code == 0 for r in box.exec_each(readers))
                timed["readers"].append(time.perf_counter() - clock)
    return statistics.median(timed["pytest"]), statistics.median(timed["readers"])


def checks(client: Any, image: str, runtime: str, isolation: str, runs: int) -> tuple[float, float]:
    """Median start of a check and busy CPU seconds per check, over `runs` checks."""
    settings = SandboxSettings.model_validate({"runtime": runtime, "isolation": isolation})
    starts = []
    provider = DockerSandboxProvider(settings, run_id="bench-check", client=client)
    try:
        provider.prewarm(image)
        provider.take_container(image)  # waits for the pool's first start: not a check's
        provider.close()
        provider = DockerSandboxProvider(settings, run_id="bench-check", client=client)
        provider.prewarm(image)
        time.sleep(3)  # the pool filled, as between a run's checks
        cpu = busy_and_stolen()[0]
        for _ in range(runs):
            clock = time.perf_counter()
            box = provider.open(image, SNAPSHOT)
            assert box.exec(["true"]).exit_code == 0
            starts.append(time.perf_counter() - clock)
            box.close()
        provider.close()  # waits for the removals and wipes still under way
        used = busy_and_stolen()[0] - cpu
    finally:
        provider.close()
    return statistics.median(starts), used / runs


if __name__ == "__main__":
    main()
