"""Hostile tests, run through the real test gate: each ends non-green, correctly
classified, within its limit, with the host untouched and no container left behind."""

from __future__ import annotations

import hashlib
import ipaddress
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import docker
import pytest

from tdd_sandbox.execution.steps import run_gates, with_sealable_tests
from tdd_sandbox.grading.gates import GateResult, GateStatus
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.sandbox.docker_provider import DockerSandboxProvider
from tdd_sandbox.sandbox.labels import LABEL, RUN_LABEL
from tdd_sandbox.sandbox.snapshot import Snapshot
from tdd_sandbox.vocabulary.results import GateKind
from tests.conftest import ON_EVERY_RUNTIME
from tests.helpers.listener import Listener, host_addresses
from tests.helpers.repos import (
    cpp_repo,
    go_repo,
    java_repo,
    javascript_repo,
    python_repo,
    rust_repo,
    typescript_repo,
    write_repo,
)

pytestmark = [pytest.mark.docker]

TIMEOUT_S = 4.0
SLOWER = {"runc": 1.0, "runsc": 3.0}
"""How much longer a gate takes under each runtime: gVisor's system calls cost more, and a
cargo test run that takes 2 s under runc takes 5-6 s under runsc."""
ROOMY_S = 30.0
"""The limit for a test that ends by itself: CI's load once took a Rust test run past 4 s."""
SHAPED_BY_GVISOR = frozenset({"unbounded_memory", "fork_bomb"})
"""Attacks whose ending gVisor's own kernel decides: it refuses memory past the limit (the
allocation fails, or the sandbox is ended) where runc's cgroup OOM-kills the process, and
refuses a fork past the process limit where runc's pids cgroup stalls the bomb until its
deadline. So does any attack that may end out of memory on runc (a flood that Node buffers
without bound: CI saw gVisor end that sandbox mid-write, "WaitPID failed: EOF"). What must
hold holds on both: never green, ended within the limit, host untouched."""
EXHAUSTING = frozenset({"fork_bomb"})
"""The attacks that take every process their sandbox may have (`exhausts`)."""
NOT_GREEN = frozenset({GateStatus.OOM, GateStatus.FAILED, GateStatus.TIMEOUT, GateStatus.ERROR})
CANARY = "sk-canary-4f1d9a"
FINE_PY = "\n\ndef test_fine() -> None:\n    assert True\n"
FINE_RS = "\n#[test]\nfn fine() {\n    assert!(true);\n}\n"


@pytest.fixture(scope="module")
def gateway(docker_client: docker.DockerClient) -> str:
    config = docker_client.networks.get("bridge").attrs["IPAM"]["Config"][0]
    # Older engines leave Gateway out of IPAM; the bridge then takes the subnet's first host.
    return str(config.get("Gateway") or ipaddress.ip_network(config["Subnet"])[1])


@pytest.fixture
def listener() -> Iterator[Listener]:
    with Listener() as made:
        yield made


def _tree_digest(root: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        digest.update(str(path.relative_to(root)).encode())
        if path.is_file():
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _run_test_gate(
    provider: DockerSandboxProvider,
    image: str,
    language: str,
    files: dict[str, str],
    root: Path,
    timeout_s: float = TIMEOUT_S,
) -> GateResult:
    """Write the repo as a real git repo, run its test gate, and check the host is untouched."""
    repo = write_repo(root / "repo", files)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
    before = _tree_digest(root)
    snapshot = Snapshot.from_directory(repo)
    with provider.open(image, with_sealable_tests(get_language(language), snapshot)) as box:
        report = run_gates(
            box,
            get_language(language),
            snapshot.files,
            only=frozenset({GateKind.TEST}),
            timeout_s=timeout_s,
        )
    assert _tree_digest(root) == before, "a gate changed a host file"
    # A language that seals its tests builds them first (`run_gates`): the test gate is last.
    gate = report.gate(GateKind.TEST)
    assert gate is not None
    assert report.gates[-1] is gate
    return gate


PY_ATTACKS: dict[str, tuple[str, set[GateStatus]]] = {
    "fork_bomb": (
        "import os\n\ndef test_bomb() -> None:\n    while True:\n        try:\n"
        "            os.fork()\n        except OSError:\n            pass\n",
        {GateStatus.TIMEOUT},
    ),
    "unbounded_memory": (
        "def test_hog() -> None:\n    hog = []\n    while True:\n"
        "        hog.append(bytearray(b'x' * 10_000_000))\n",
        {GateStatus.OOM},
    ),
    "endless_loop": (
        "def test_loop() -> None:\n    while True:\n        pass\n",
        {GateStatus.TIMEOUT},
    ),
    "ignores_sigterm": (
        "import signal\nimport time\n\ndef test_stubborn() -> None:\n"
        "    signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        "    while True:\n        time.sleep(1)\n",
        {GateStatus.TIMEOUT},
    ),
    "leaves_a_daemon": (
        "import subprocess\n\ndef test_daemon() -> None:\n    subprocess.Popen(['sleep', '1000'],"
        " start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n",
        {GateStatus.ERROR},
    ),
    "prints_without_end": (
        "import pytest\n\ndef test_flood(capsys: pytest.CaptureFixture[str]) -> None:\n"
        "    with capsys.disabled():\n        while True:\n            print('x' * 1000)\n",
        {GateStatus.OUTPUT_LIMIT},
    ),
    "os_exit_zero": (
        "import os\n\ndef test_exit() -> None:\n    os._exit(0)\n",
        {GateStatus.ERROR},
    ),
    "sys_exit_zero": (
        "import sys\n\ndef test_exit() -> None:\n    sys.exit(0)\n",
        {GateStatus.FAILED},
    ),
    "skips_itself": (
        "import pytest\n\ndef test_skip() -> None:\n    pytest.skip('not today')\n",
        {GateStatus.FAILED},
    ),
    "exits_zero_at_import": ("import os\nos._exit(0)\n", {GateStatus.ERROR}),
}


@ON_EVERY_RUNTIME
def test_python_network_is_unreachable_from_every_host_address(
    provider: DockerSandboxProvider,
    images: dict[str, str],
    docker_client: docker.DockerClient,
    listener: Listener,
    gateway: str,
    tmp_path: Path,
) -> None:
    targets = [gateway, *host_addresses()]
    probe = (
        "import socket\nfrom pathlib import Path\n\n"
        f"TARGETS = {targets!r}\n\n"
        "def test_connect() -> None:\n"
        "    reached = []\n"
        "    for host in TARGETS:\n"
        "        try:\n"
        f"            socket.create_connection((host, {listener.port}), timeout=2).close()\n"
        "            reached.append(host)\n"
        "        except OSError:\n"
        "            pass\n"
        "    assert reached\n\n"
        "def test_default_route() -> None:\n"
        "    assert len(Path('/proc/net/route').read_text().splitlines()) > 1\n"
    )
    gate = _run_test_gate(provider, images["python"], "python", python_repo(tests=probe), tmp_path)
    assert gate.status is GateStatus.FAILED
    assert gate.counts.failed == 2
    assert listener.connections == 0
    # The control: the same image on a networked container does reach the listener, so the
    # zero above is the sandbox's doing and not a broken listener.
    control = docker_client.containers.run(
        images["python"],
        [
            "python3",
            "-c",
            f"import socket; socket.create_connection(('{gateway}', {listener.port}), 5)",
        ],
        network_mode="bridge",
        labels={LABEL: "1", RUN_LABEL: "pytest"},
        detach=True,
    )
    try:
        assert control.wait(timeout=30)["StatusCode"] == 0
    finally:
        control.remove(force=True)
    assert listener.connections == 1


@ON_EVERY_RUNTIME
def test_python_secrets_and_host_files_stay_out(
    provider: DockerSandboxProvider,
    images: dict[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / ".netrc").write_text(f"password {CANARY}\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("OPENAI_API_KEY", CANARY)
    repo_on_host = tmp_path / "repo"
    probe = (
        "import os\nfrom pathlib import Path\n\n"
        "def test_env() -> None:\n"
        "    print(dict(os.environ))\n"
        "    assert 'OPENAI_API_KEY' in os.environ\n\n"
        "def test_home() -> None:\n"
        f"    print(Path({str(home / '.netrc')!r}).read_text())\n\n"
        "def test_write_outside() -> None:\n"
        "    Path('/etc/owned').write_text('x')\n\n"
        "def test_write_repo() -> None:\n"
        "    Path('tests/test_fizzbuzz.py').write_text('def test_ok(): pass')\n\n"
        "def test_write_git() -> None:\n"
        "    Path('.git').mkdir()\n"
        "    Path('.git/config').write_text('[core]\\n\\tfsmonitor = evil')\n\n"
        "def test_write_host_repo() -> None:\n"
        f"    Path({str(repo_on_host / 'tests' / 'test_fizzbuzz.py')!r}).write_text('x')\n"
    )
    gate = _run_test_gate(provider, images["python"], "python", python_repo(tests=probe), tmp_path)
    assert gate.status is GateStatus.FAILED
    assert gate.counts.failed == 6
    assert CANARY not in gate.result.stdout + gate.result.stderr


RS_ATTACKS: dict[str, tuple[str, set[GateStatus]]] = {
    "endless_loop": ("#[test]\nfn spin() {\n    loop {}\n}\n", {GateStatus.TIMEOUT}),
    # Exit 0 with tests still to run: an error. Unless another test thread is unwinding as
    # exit tears the process down, which can abort it (seen once in CI): then the binary
    # failed, with the same tests missing. Green never.
    "process_exit_zero": (
        "#[test]\nfn leave() {\n    std::process::exit(0);\n}\n",
        {GateStatus.ERROR, GateStatus.FAILED},
    ),
    "leaves_a_daemon": (
        '#[test]\nfn daemon() {\n    std::process::Command::new("sleep").arg("1000")'
        ".stdout(std::process::Stdio::null()).spawn().unwrap();\n}\n",
        {GateStatus.ERROR},
    ),
    "unbounded_memory": (
        "#[test]\nfn hog() {\n    let mut hog = Vec::new();\n    loop {\n"
        "        hog.push(vec![1u8; 10_000_000]);\n    }\n}\n",
        {GateStatus.OOM},
    ),
    "prints_without_end": (
        "use std::io::Write;\n#[test]\nfn flood() {\n    let out = std::io::stdout();\n"
        "    let mut raw = out.lock();\n    loop {\n"
        "        let _ = raw.write_all(&[b'x'; 1000]);\n    }\n}\n",
        {GateStatus.OUTPUT_LIMIT, GateStatus.OOM},
    ),
    "ignored_test": ("#[test]\n#[ignore]\nfn skipped() {}\n", {GateStatus.FAILED}),
}


GO_FINE = "\nfunc TestFine(t *testing.T) {}\n"
GO_ATTACKS: dict[str, tuple[str, set[GateStatus]]] = {
    "endless_loop": ('import "testing"\n\nfunc TestSpin(t *testing.T) {\n\tfor {\n\t}\n}\n',
                     {GateStatus.TIMEOUT}),
    "fork_bomb": ('import (\n\t"os/exec"\n\t"testing"\n)\n\nfunc TestBomb(t *testing.T) {\n'
                  '\tfor {\n\t\t_ = exec.Command("sleep", "100").Start()\n\t}\n}\n',
                  # Stopped by the pids limit: the Go runtime dies when it cannot make a thread.
                  {GateStatus.TIMEOUT, GateStatus.ERROR}),
    "os_exit_zero": ('import (\n\t"os"\n\t"testing"\n)\n\nfunc TestLeave(t *testing.T) {\n'
                     "\tos.Exit(0)\n}\n", {GateStatus.FAILED, GateStatus.ERROR}),
    "exits_zero_in_init": ('import (\n\t"os"\n\t"testing"\n)\n\nfunc init() {\n\tos.Exit(0)\n}\n'
                           "\nfunc TestNever(t *testing.T) {}\n", {GateStatus.ERROR}),
    "leaves_a_daemon": ('import (\n\t"os/exec"\n\t"syscall"\n\t"testing"\n)\n\n'
                        "func TestDaemon(t *testing.T) {\n"
                        '\tcmd := exec.Command("sleep", "1000")\n'
                        "\tcmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}\n"
                        "\t_ = cmd.Start()\n}\n", {GateStatus.ERROR}),
    "unbounded_memory": ('import "testing"\n\nvar hog [][]byte\n\nfunc TestHog(t *testing.T) {\n'
                         "\tfor {\n\t\tchunk := make([]byte, 10_000_000)\n"
                         "\t\tfor i := range chunk {\n\t\t\tchunk[i] = 1\n\t\t}\n"
                         "\t\thog = append(hog, chunk)\n\t}\n}\n", {GateStatus.OOM}),
    "prints_without_end": ('import (\n\t"os"\n\t"testing"\n)\n\nfunc TestFlood(t *testing.T) {\n'
                           '\tline := make([]byte, 1000)\n\tfor {\n'
                           "\t\t_, _ = os.Stdout.Write(line)\n\t}\n}\n",
                           {GateStatus.OUTPUT_LIMIT, GateStatus.OOM}),
    "skips_itself": ('import "testing"\n\nfunc TestSkip(t *testing.T) {\n'
                     '\tt.Skip("not today")\n}\n', {GateStatus.FAILED}),
}  # fmt: skip


JS_FINE = '\ntest("fine", () => {});\n'
_SPAWN = 'import { spawn } from "node:child_process";\n'
JS_ATTACKS: dict[str, tuple[str, set[GateStatus]]] = {
    "endless_loop": ('test("spin", () => {\n  for (;;) {}\n});\n', {GateStatus.TIMEOUT}),
    "fork_bomb": (_SPAWN + 'test("bomb", () => {\n  for (;;) {\n    try {\n'
                  '      spawn("sleep", ["100"]);\n    } catch {}\n  }\n});\n',
                  # Node keeps a handle and pipes per child: the memory limit may stop it
                  # before the pids limit does (seen in CI); either way it is not green.
                  {GateStatus.TIMEOUT, GateStatus.ERROR, GateStatus.OOM}),
    "process_exit_zero": ('test("leave", () => {\n  process.exit(0);\n});\n',
                          {GateStatus.FAILED, GateStatus.ERROR}),
    "exits_zero_at_import": ("process.exit(0);\n", {GateStatus.FAILED, GateStatus.ERROR}),
    # Node's permission model refuses the spawn itself (ERR_ACCESS_DENIED): no daemon is
    # left to find, and the test fails (before, the daemon was left and found: an error).
    "leaves_a_daemon": (_SPAWN + 'test("daemon", () => {\n  spawn("sleep", ["1000"], '
                        '{ detached: true, stdio: "ignore" }).unref();\n});\n',
                        {GateStatus.FAILED}),
    "unbounded_memory": ('const hog = [];\ntest("hog", () => {\n  for (;;) {\n'
                         "    hog.push(Buffer.alloc(10_000_000, 1));\n  }\n});\n",
                         {GateStatus.OOM}),
    "prints_without_end": ('test("flood", () => {\n  for (;;) {\n'
                           '    process.stdout.write("x".repeat(1000));\n  }\n});\n',
                           {GateStatus.OUTPUT_LIMIT, GateStatus.OOM, GateStatus.TIMEOUT}),
    "skips_itself": ('test("skip", (t) => {\n  t.skip("not today");\n});\n',
                     {GateStatus.FAILED}),
}  # fmt: skip


CPP_FINE = "\nTEST(Fine, Runs) { SUCCEED(); }\n"
CPP_ATTACKS: dict[str, tuple[str, set[GateStatus]]] = {
    "endless_loop": ("\nTEST(Attack, Spin) {\n  while (true) {\n  }\n}\n",
                     {GateStatus.TIMEOUT}),
    "fork_bomb": ("#include <unistd.h>\n\nTEST(Attack, Bomb) {\n  for (;;) fork();\n}\n",
                  {GateStatus.TIMEOUT, GateStatus.ERROR}),
    "exit_zero": ("#include <cstdlib>\n\nTEST(Attack, Leave) { std::exit(0); }\n",
                  {GateStatus.ERROR}),
    "exit_zero_before_main": ("#include <cstdlib>\n\n"
                              "[[maybe_unused]] static int leave = (std::exit(0), 0);\n",
                              {GateStatus.ERROR}),
    "leaves_a_daemon": ("#include <cstdlib>\n\nTEST(Attack, Daemon) {\n"
                        '  std::system("setsid sleep 1000 >/dev/null 2>&1 &");\n}\n',
                        {GateStatus.ERROR}),
    "unbounded_memory": ("#include <cstring>\n#include <vector>\n\nTEST(Attack, Hog) {\n"
                         "  std::vector<char*> hog;\n  for (;;) {\n"
                         "    char* chunk = new char[10000000];\n"
                         "    std::memset(chunk, 1, 10000000);\n    hog.push_back(chunk);\n"
                         "  }\n}\n", {GateStatus.OOM}),
    "prints_without_end": ("#include <cstdio>\n\nTEST(Attack, Flood) {\n"
                           '  for (;;) std::fputs("xxxxxxxxxxxxxxxxxxxxxxxxxxxx", stdout);\n}\n',
                           {GateStatus.OUTPUT_LIMIT}),
    "skips_itself": ('\nTEST(Attack, Skip) { GTEST_SKIP() << "not today"; }\n',
                     {GateStatus.FAILED}),
}  # fmt: skip


JAVA_ATTACKS: dict[str, tuple[str, set[GateStatus]]] = {
    "endless_loop": ("  @Test\n  void spin() {\n    while (true) {}\n  }\n", {GateStatus.TIMEOUT}),
    "exit_zero": ("  @Test\n  void leave() {\n    System.exit(0);\n  }\n", {GateStatus.ERROR}),
    "halt_zero_at_load": ("  static {\n    Runtime.getRuntime().halt(0);\n  }\n",
                          {GateStatus.ERROR}),
    "fork_bomb": ("  @Test\n  void bomb() throws Exception {\n    while (true) {\n"
                  '      try {\n        new ProcessBuilder("sleep", "100").start();\n'
                  "      } catch (Exception e) {\n      }\n"
                  "    }\n  }\n",
                  # The JVM keeps a Process per child, so memory may run out before pids.
                  {GateStatus.TIMEOUT, GateStatus.ERROR, GateStatus.OOM}),
    "leaves_a_daemon": ("  @Test\n  void daemon() throws Exception {\n"
                        '    new ProcessBuilder("setsid", "sleep", "1000").start();\n  }\n',
                        {GateStatus.ERROR}),
    "unbounded_memory": ("  @Test\n  void hog() {\n"
                         "    java.util.List<byte[]> hog = new java.util.ArrayList<>();\n"
                         "    while (true) {\n      hog.add(new byte[10_000_000]);\n    }\n  }\n",
                         {GateStatus.OOM, GateStatus.FAILED}),
    "prints_without_end": ("  @Test\n  void flood() {\n    while (true) {\n"
                           '      System.out.print("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");\n'
                           "    }\n  }\n", {GateStatus.OUTPUT_LIMIT}),
    "skips_itself": ('  @Test\n  void skip() {\n    Assumptions.assumeTrue(false, "not today");\n'
                     "  }\n", {GateStatus.FAILED}),
}  # fmt: skip


def _rust_probe(host: str, port: int) -> str:
    return (
        "#[test]\nfn connect() {\n"
        f'    std::net::TcpStream::connect(("{host}", {port})).unwrap();\n}}\n'
    )


def _go_probe(host: str, port: int) -> str:
    return (
        'import (\n\t"net"\n\t"testing"\n)\n\nfunc TestConnect(t *testing.T) {\n'
        f'\tif _, err := net.Dial("tcp", "{host}:{port}"); err != nil {{\n'
        "\t\tt.Fatal(err)\n\t}\n}\n"
    )


def _javascript_probe(host: str, port: int) -> str:
    return (
        'import net from "node:net";\n\ntest("connect", async () => {\n'
        "  await new Promise((resolve, reject) => {\n"
        f'    net.connect({port}, "{host}", resolve).on("error", reject);\n'
        "  });\n});\n"
    )


def _cpp_probe(host: str, port: int) -> str:
    return (
        "#include <arpa/inet.h>\n#include <sys/socket.h>\n#include <unistd.h>\n\n"
        "TEST(Net, Connect) {\n  int s = socket(AF_INET, SOCK_STREAM, 0);\n"
        "  sockaddr_in to{};\n  to.sin_family = AF_INET;\n"
        f"  to.sin_port = htons({port});\n"
        f'  inet_pton(AF_INET, "{host}", &to.sin_addr);\n'
        "  ASSERT_EQ(connect(s, reinterpret_cast<sockaddr*>(&to), sizeof to), 0);\n}\n"
    )


def _java_probe(host: str, port: int) -> str:
    return (
        "  @Test\n  void connect() throws Exception {\n"
        f'    new java.net.Socket("{host}", {port}).close();\n  }}\n'
    )


@dataclass(frozen=True)
class Arsenal:
    """One language's hostile tests, the passing test they sit beside, and how long the gate
    may take: its limit, plus what building the tests first costs before the limit applies."""

    repo: Callable[[str], dict[str, str]]
    attacks: dict[str, tuple[str, set[GateStatus]]]
    fine: str = ""
    network_probe: Callable[[str, int], str] | None = None
    timeout_s: float = TIMEOUT_S
    build_s: float = 20.0


ARSENALS: dict[str, Arsenal] = {
    "python": Arsenal(lambda tests: python_repo(tests=tests), PY_ATTACKS, FINE_PY),
    "rust": Arsenal(lambda tests: rust_repo(tests=tests), RS_ATTACKS, FINE_RS, _rust_probe,
                    build_s=60.0),
    "go": Arsenal(go_repo, GO_ATTACKS, GO_FINE, _go_probe),
    "javascript": Arsenal(javascript_repo, JS_ATTACKS, JS_FINE, _javascript_probe),
    # JavaScript's attacks run as TypeScript: the same runtime, entered through type stripping.
    "typescript": Arsenal(typescript_repo, JS_ATTACKS, JS_FINE, _javascript_probe),
    # The test gate compiles the tests first (no build gate ran): seconds of its limit.
    "cpp": Arsenal(cpp_repo, CPP_ATTACKS, CPP_FINE, _cpp_probe, timeout_s=15.0),
    "java": Arsenal(java_repo, JAVA_ATTACKS, "", _java_probe, timeout_s=15.0),
}  # fmt: skip


ATTACK_CLASSES: dict[str, frozenset[str]] = {
    "exits": frozenset({
        "exits_zero_at_import", "os_exit_zero", "sys_exit_zero", "process_exit_zero",
        "exit_zero", "exit_zero_before_main", "halt_zero_at_load", "exits_zero_in_init",
    }),
    "skips": frozenset({"skips_itself", "ignored_test"}),
}  # fmt: skip
"""Attacks that are one class under different names; any other attack is a class of its own."""
ON_GVISOR: frozenset[tuple[str, str]] = frozenset({
    *(("python", attack) for attack in PY_ATTACKS),
    # Where gVisor itself once failed a case, that case stays: Go's fork bomb starved the
    # Sentry's memory (d4eefe0), the engine refused a removal after JavaScript's flood (d2852c8).
    ("go", "fork_bomb"), ("javascript", "prints_without_end"),
    # One compiled language, so a build under gVisor still meets a limit.
    ("rust", "endless_loop"), ("rust", "unbounded_memory"),
})  # fmt: skip
"""The attacks that run under runsc as well as runc. gVisor is the runtime's concern, not the
language's: what it must enforce (time, memory, processes, output, exits and skips read from
the runner) is met once per attack class. Each case under runsc costs 3 times its runc time,
and the JVM's and the compilers' cases 50-72 s each: every case on both runtimes was a third
of CI."""


def _attack_class(attack: str) -> str:
    return next((name for name, members in ATTACK_CLASSES.items() if attack in members), attack)


def _attack_cases() -> list[Any]:
    """Every attack on runc; under runsc, `ON_GVISOR`, which must stand for every class. A
    fork bomb takes every process of its sandbox (`exhausts`)."""
    everything = [
        (lang, attack) for lang, arsenal in ARSENALS.items() for attack in arsenal.attacks
    ]
    missing = {_attack_class(a) for _, a in everything} - {_attack_class(a) for _, a in ON_GVISOR}
    unknown = ON_GVISOR - set(everything)
    if missing or unknown:
        raise ValueError(f"runsc lacks attack classes {missing} or names unknown ones {unknown}")
    cases = [(lang, attack, "runc") for lang, attack in everything]
    cases += [(lang, attack, "runsc") for lang, attack in everything if (lang, attack) in ON_GVISOR]
    exhausting = [pytest.mark.exhausts]
    return [
        pytest.param(*case, marks=exhausting if case[1] in EXHAUSTING else ()) for case in cases
    ]


@pytest.mark.parametrize(
    ("language", "attack", "sandbox_runtime"), _attack_cases(), indirect=["sandbox_runtime"]
)
def test_attack_is_classified(
    language: str,
    attack: str,
    provider: DockerSandboxProvider,
    images: dict[str, str],
    tmp_path: Path,
) -> None:
    arsenal = ARSENALS[language]
    source, statuses = arsenal.attacks[attack]
    started = time.monotonic()
    files = arsenal.repo(source + arsenal.fine)
    limit = arsenal.timeout_s * SLOWER[provider.settings.runtime]
    if provider.settings.runtime == "runsc" and (
        attack in SHAPED_BY_GVISOR or GateStatus.OOM in statuses
    ):
        statuses = set(statuses) | NOT_GREEN
    if GateStatus.TIMEOUT not in statuses:
        # An attack that ends by itself gets room: a loaded machine must not turn its
        # verdict into a timeout (only the attacks that must reach the limit wait for it).
        limit = max(limit, ROOMY_S)
    gate = _run_test_gate(provider, images[language], language, files, tmp_path, limit)
    assert gate.status in statuses, (gate.status, gate.reason, gate.output_tail[-800:])
    assert time.monotonic() - started < limit + arsenal.build_s * SLOWER[provider.settings.runtime]


# Each language's own way out onto the network, on runc: the network itself is the engine's
# (`network_mode="none"`), and Python's test above meets it on both runtimes.
@pytest.mark.parametrize(
    "language", [language for language, arsenal in ARSENALS.items() if arsenal.network_probe]
)
def test_network_is_unreachable(
    language: str,
    provider: DockerSandboxProvider,
    images: dict[str, str],
    listener: Listener,
    gateway: str,
    tmp_path: Path,
) -> None:
    arsenal = ARSENALS[language]
    assert arsenal.network_probe is not None
    files = arsenal.repo(arsenal.network_probe(gateway, listener.port))
    limit = max(arsenal.timeout_s * SLOWER[provider.settings.runtime], ROOMY_S)
    gate = _run_test_gate(provider, images[language], language, files, tmp_path, limit)
    assert gate.status is GateStatus.FAILED, (gate.reason, gate.output_tail[-800:])
    assert gate.counts.failed == 1
    assert listener.connections == 0


# Threads started until the kernel refuses one, then the process ended as if every test had.
AT_THE_LIMIT_THEN_EXIT_ZERO = (
    "import os\nimport threading\nimport time\n\ndef test_leave() -> None:\n"
    "    try:\n        while True:\n"
    "            threading.Thread(target=time.sleep, args=(30,), daemon=True).start()\n"
    "    except RuntimeError:\n        os._exit(0)\n"
)


@pytest.mark.docker
def test_meeting_the_process_limit_on_purpose_does_not_hide_an_ended_runner(
    provider: DockerSandboxProvider, images: dict[str, str], tmp_path: Path
) -> None:
    """The attack on the process-limit verdict (a failed run that met the limit is that
    limit, not tamper): code meets the limit, then ends its runner with exit 0. That exit is
    still the code's, not the kernel's: never green, and still tamper."""
    files = python_repo(tests=AT_THE_LIMIT_THEN_EXIT_ZERO + FINE_PY)
    gate = _run_test_gate(provider, images["python"], "python", files, tmp_path, ROOMY_S)
    assert gate.status is GateStatus.ERROR
    assert gate.tamper is not None, gate.reason
    assert "process limit" not in gate.reason, gate.reason
    assert "exit code 0" in gate.reason, gate.reason
