"""The package as a user installs it: a wheel in a clean virtual environment, outside any
clone, builds its images from the definitions it ships and runs the demo."""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = [pytest.mark.docker, pytest.mark.usefixtures("images")]
ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str | Path, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, check=False,
        timeout=600,
    )  # fmt: skip


def test_a_wheel_in_a_clean_venv_builds_its_images_and_runs_the_demo(
    tmp_path: Path, images: dict[str, str]
) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    # Built from the files a release is made of, copied: the build writes beside its source.
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    for name in ("tdd_sandbox", "images"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    built = _run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", tmp_path / "dist",
                 source, cwd=tmp_path, env=env)  # fmt: skip
    assert built.returncode == 0, built.stderr[-2000:]
    [wheel] = (tmp_path / "dist").glob("tdd_sandbox-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "tdd_sandbox/images/definitions/python/Dockerfile" in names
    assert "tdd_sandbox/images/definitions/tool/Dockerfile" in names
    venv = tmp_path / "venv"
    made = _run(sys.executable, "-m", "venv", venv, cwd=tmp_path, env=env)
    assert made.returncode == 0, made.stderr
    python, tool = venv / "bin" / "python", venv / "bin" / "tdd-sandbox"
    installed = _run(python, "-m", "pip", "install", "-q", "--no-deps", "--no-index", wheel,
                     cwd=tmp_path, env=env)  # fmt: skip
    assert installed.returncode == 0, installed.stderr[-2000:]
    # The dependencies come from this interpreter's packages, added as a plain path: its own
    # editable install of the checkout (a .pth hook) is not run, so only the wheel's code is.
    [site_packages] = (venv / "lib").glob("python3.*/site-packages")
    (site_packages / "host.pth").write_text(site.getsitepackages()[0] + "\n")
    where = _run(python, "-c", "import tdd_sandbox; print(tdd_sandbox.__file__)",
                 cwd=tmp_path, env=env)  # fmt: skip
    assert where.stdout.strip().startswith(str(site_packages)), where.stdout + where.stderr

    # The shipped definitions are the checkout's: the same content, so the same image.
    listed = _run(tool, "images", "list", cwd=tmp_path, env=env)
    assert listed.returncode == 0, listed.stderr[-2000:]
    assert images["python"] in listed.stdout
    build = _run(tool, "images", "build", "python", cwd=tmp_path, env=env)
    assert build.returncode == 0, build.stderr[-2000:]

    demo = ROOT / "katas" / "fizzbuzz" / "demo" / "python.jsonl"
    run = _run(tool, "run", ROOT / "katas" / "fizzbuzz" / "kata.md", "--replay", demo,
               "--repo", tmp_path / "fizzbuzz", "--json", "--language", "python",
               cwd=tmp_path, env={**env, "OPENAI_API_KEY": ""})  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    summary = json.loads(run.stdout)
    assert (summary["status"], len(summary["commits"])) == ("completed", 5)
