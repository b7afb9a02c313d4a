"""Rust's acceptance driver, host side: generates a binary that links the model's library
(its `src/` only, under a manifest of the tool's) and performs one case per process."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path

from tdd_sandbox.languages.driving import (
    DRIVER_DIR,
    RESULTS,
    FramedDriver,
    Prepared,
    case_script,
    render_call,
)
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
        crate, edition = _package(files.get("Cargo.toml", b""))
        rendered = [render_call(calls.calls[c.property], c, RUST_LITERALS.render) for c in cases]
        arms = "\n".join(
            f"        {i} => Plain::report(&({call}), out)," for i, call in enumerate(rendered)
        )
        source = self.source.read_text().replace("/*USES*/", calls.setup).replace("/*CASES*/", arms)
        manifest = (
            f'[package]\nname = "{crate}"\nversion = "0.1.0"\nedition = "{edition}"\n'
            "build = false\nautobins = false\nautotests = false\nautoexamples = false\n"
            'autobenches = false\n\n[lib]\npath = "src/lib.rs"\n\n'
            f'[[bin]]\nname = "tdd_acceptance"\npath = "{DRIVER_DIR}/driver.rs"\n\n'
            "[dependencies]\n"
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


def _package(manifest: bytes) -> tuple[str, str]:
    """The crate's name and edition from its manifest (`kata`, 2021 when unreadable)."""
    try:
        package = tomllib.loads(manifest.decode("utf-8")).get("package", {})
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        package = {}
    name = str(package.get("name", "kata"))
    edition = str(package.get("edition", "2021"))
    return (
        name if _CRATE.fullmatch(name) else "kata",
        edition if edition in ("2015", "2018", "2021", "2024") else "2021",
    )


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
