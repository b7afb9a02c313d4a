"""Formatting a model's files inside a real sandbox, for each language."""

from __future__ import annotations

import pytest

from tdd_sandbox.execution.formatting import changed_paths, format_files
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.sandbox.docker_provider import DockerSandboxProvider
from tdd_sandbox.sandbox.snapshot import Snapshot

pytestmark = [pytest.mark.docker]

PY_MESSY = b"def test_x(n:int)->str:\n  assert n%15==0,'x'\n"
PY_TIDY = b'def test_x(n: int) -> str:\n    assert n % 15 == 0, "x"\n'
RS_MESSY = b"pub fn f( a:u32)->u32{a+1}\n"
RS_TIDY = b"pub fn f(a: u32) -> u32 {\n    a + 1\n}\n"


def test_changed_paths() -> None:
    before = {"a.py": b"1", "b.py": b"2"}
    assert changed_paths(before, {"a.py": b"1", "b.py": b"3", "c.py": b""}) == ["b.py", "c.py"]


def test_python_files_are_formatted_and_broken_ones_left_alone(
    provider: DockerSandboxProvider, images: dict[str, str]
) -> None:
    python = get_language("python")
    files = {
        **{p: t.encode() for p, t in python.scaffold().items()},
        "tests/test_x.py": PY_MESSY,
        "broken.py": b"def (:\n",
        "notes.txt": b"  spaced  \n",
    }
    with provider.open(images["python"], Snapshot(files)) as box:
        out = format_files(box, python, files, ["tests/test_x.py", "broken.py", "notes.txt"])
    assert out["tests/test_x.py"] == PY_TIDY
    assert out["broken.py"] == b"def (:\n"
    assert out["notes.txt"] == b"  spaced  \n"
    assert {p: d for p, d in out.items() if p != "tests/test_x.py"} == {
        p: d for p, d in files.items() if p != "tests/test_x.py"
    }


def test_rust_files_are_formatted(provider: DockerSandboxProvider, images: dict[str, str]) -> None:
    rust = get_language("rust")
    files = {**{p: t.encode() for p, t in rust.scaffold().items()}, "src/lib.rs": RS_MESSY}
    with provider.open(images["rust"], Snapshot(files)) as box:
        out = format_files(box, rust, files, ["src/lib.rs", "Cargo.toml"])
    assert out["src/lib.rs"] == RS_TIDY
    assert out["Cargo.toml"] == files["Cargo.toml"]
