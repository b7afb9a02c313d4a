"""Rust's acceptance driver, host side: generates a binary that links the model's library
(its `src/` only, under a manifest of the tool's) and performs one case per process."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path

from tdd_sandbox.languages.driving import DRIVER_DIR, FramedDriver, Prepared, render_calls
from tdd_sandbox.languages.framing import RESULTS, case_script
from tdd_sandbox.languages.literal import LiteralSyntax
from tdd_sandbox.languages.rust.reader import newer_rust
from tdd_sandbox.vocabulary.cases import CallMap, Case, Observed

_TEMPLATE = Path(__file__).with_name("driver.rs")
_CRATE = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,63}")

# Built in a copy under /tmp, so cargo may write its lock file; one process per case, each
# under `timeout`, its output capped, so a case that hangs or floods fails alone.
_SCRIPT = case_script(
    "mkdir -p /tmp/crate && cp -R /work/. /tmp/crate/ && cd /tmp/crate || exit 3",
    "cargo build --offline --quiet --bin tdd_acceptance",
    '"${CARGO_TARGET_DIR:-target}/debug/tdd_acceptance"',
)


class RustDriver(FramedDriver):
    """Builds the library with a generated driver binary, then runs it once per case."""

    source = _TEMPLATE

    def prepare(
        self, files: Mapping[str, bytes], cases: Sequence[Case], calls: CallMap, nonce: str
    ) -> Prepared:
        """`src/` of the model's tree, the tool's manifest and the generated driver."""
        crate, edition, dependencies = _package(files.get("Cargo.toml", b""))
        answers = render_calls(
            calls,
            cases,
            RUST_LITERALS.render,
            lambda call: f"Plain::report(&({call}), out)",
            lambda call: f"out.push_str(&({call}))",
            transcribes=True,
        )
        arms = "\n".join(f"        {i} => {answer}," for i, answer in enumerate(answers))
        source = self.source.read_text().replace("/*USES*/", calls.setup).replace("/*CASES*/", arms)
        manifest = (
            f'[package]\nname = "{crate}"\nversion = "0.1.0"\nedition = "{edition}"\n'
            "build = false\nautobins = false\nautotests = false\nautoexamples = false\n"
            'autobenches = false\n\n[lib]\npath = "src/lib.rs"\n\n'
            f'[[bin]]\nname = "tdd_acceptance"\npath = "{DRIVER_DIR}/driver.rs"\n\n'
            f"[dependencies]\n{dependencies}"
        )
        shipped = {p: d for p, d in files.items() if p.startswith("src/")}
        shipped["Cargo.toml"] = manifest.encode()
        shipped[f"{DRIVER_DIR}/driver.rs"] = source.encode()
        limit = f"{calls.timeout_s:g}"
        command = ("sh", "-c", _SCRIPT, "acceptance", nonce, str(len(cases)), limit)
        return Prepared(shipped, command, RESULTS)

    def read(
        self, data: bytes | None, nonce: str, cases: Sequence[Case]
    ) -> tuple[dict[str, Observed], str]:
        """Each case's framed line; a build that failed on a feature this Rust calls unstable
        says the code needs a newer Rust (`reader.newer_rust`)."""
        observed, problem = super().read(data, nonce, cases)
        note = newer_rust((data or b"").decode("utf-8", "replace")) if problem else ""
        return observed, f"{problem} ({note})" if note else problem


def _package(manifest: bytes) -> tuple[str, str, str]:
    """The crate's name and edition (`kata`, 2021 when unreadable) and its dependencies,
    from its manifest: the kata's, since a model cannot write runner config."""
    try:
        document = tomllib.loads(manifest.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        document = {}
    package = document.get("package", {})
    name = str(package.get("name", "kata"))
    edition = str(package.get("edition", "2021"))
    return (
        name if _CRATE.fullmatch(name) else "kata",
        edition if edition in ("2015", "2018", "2021", "2024") else "2021",
        _dependencies(document.get("dependencies", {})),
    )


_SPEC_KEYS = ("version", "features", "default-features", "package")


def _dependencies(table: object) -> str:
    """The `[dependencies]` lines, each re-spelt from its parsed value: a crate of the
    registry's by its version, features and package name only. A path, git or other
    registry's crate is dropped, and so is a key of any other kind: the driver links the
    library and what the image's registry holds, nothing else."""
    if not isinstance(table, dict):
        return ""
    lines = []
    for crate, spec in table.items():
        if not _CRATE.fullmatch(crate):
            continue
        given = {"version": spec} if isinstance(spec, str) else spec
        if not isinstance(given, dict) or not isinstance(given.get("version"), str):
            continue
        if any(source in given for source in ("path", "git", "registry")):
            continue
        kept = {k: given[k] for k in _SPEC_KEYS if k in given and _plain(given[k])}
        fields = ", ".join(f"{k} = {json.dumps(v)}" for k, v in kept.items())
        lines.append(f"{crate} = {{ {fields} }}\n")
    return "".join(lines)


def _plain(value: object) -> bool:
    """A string, a boolean or a list of strings: all a kept key may hold."""
    if isinstance(value, list):
        return all(isinstance(item, str) for item in value)
    return isinstance(value, str | bool)


def _decimal(value: float) -> str:
    text = repr(value)
    return text if any(c in text for c in ".eE") else text + ".0"


def _rust_char(char: str) -> str:
    escapes = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t", "\0": "\\0"}
    if char in escapes:
        return escapes[char]
    return f"\\u{{{ord(char):x}}}" if ord(char) < 32 or ord(char) == 127 else char


RUST_LITERALS = LiteralSyntax(
    language="Rust",
    null="None",
    string=lambda text: '"' + "".join(_rust_char(c) for c in text) + '"',
    sequence=lambda _, items: f"vec![{items}]",
    typed=False,
    decimal=_decimal,
)
"""Rust's spelling: lists are `vec![...]` (their type inferred), null `None`."""
