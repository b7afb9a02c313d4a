"""The crates the Rust image carries (Debian's packaged sources, `images/rust/Dockerfile`),
and a track's manifest as the image builds it: a sandbox has no network, so a dependency
resolves only against these. A requirement none of them meets (an example's `itertools =
"0.5"`, `rand = "0.3"`) asks for the image's version instead, and the import says so; the
reference's proof then says whether the exercise builds with it.
`tests/images/test_rust_crates.py` checks this table against the built image."""

from __future__ import annotations

import re

IMAGE_CRATES: dict[str, tuple[str, ...]] = {
    "anyhow": ("1.0.95",),
    "counter": ("0.6.0",),
    "itertools": ("0.13.0",),
    "num-bigint": ("0.4.6",),
    "num-traits": ("0.2.19",),
    "permutohedron": ("0.2.4",),
    "rand": ("0.8.5",),
    "regex": ("1.11.1",),
    "thiserror": ("1.0.69", "2.0.11"),
    "time": ("0.3.37",),
}
"""Each crate a track names, and its versions in the image's registry."""

_DEPENDENCY = re.compile(
    r'^(?P<lead>(?P<name>[A-Za-z0-9_-]+)\s*=\s*(?:\{[^}\n]*?\bversion\s*=\s*)?)"(?P<req>[^"]*)"',
    re.MULTILINE,
)
_SECTION = re.compile(r"^\s*\[([^\]]+)\]", re.MULTILINE)
_CARET = re.compile(r"^\^?\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$")


def for_image(manifest: bytes) -> tuple[bytes, str]:
    """`manifest` with each dependency the image cannot meet asking for the image's version,
    and a line saying which (`""` when none changed). A requirement that is not a plain
    caret one (`>=1, <2`, `=0.5.1`) is left as it is, and so is a crate the image lacks."""
    text = manifest.decode("utf-8", "replace")
    changed: list[str] = []

    def ask(match: re.Match[str]) -> str:
        name, wanted = match["name"], match["req"].strip()
        versions = IMAGE_CRATES.get(name, ())
        if not versions or not _in_dependencies(text, match.start()):
            return match.group(0)
        if not (floor := _caret(wanted)) or any(_meets(floor, v) for v in versions):
            return match.group(0)
        ours = ".".join(versions[-1].split(".")[:2])
        changed.append(f"{name} {wanted} (the image has {versions[-1]})")
        return f'{match["lead"]}"{ours}"'

    mended = _DEPENDENCY.sub(ask, text)
    if not changed:
        return manifest, ""
    return mended.encode(), (
        f"Cargo.toml asks for {', '.join(changed)}: it asks for the image's versions instead "
        "(the reference's proof says whether the exercise builds with them)"
    )


def _in_dependencies(text: str, at: int) -> bool:
    """Whether the line at `at` lies in a dependencies table (`[dependencies]`,
    `[dev-dependencies]`, a target's)."""
    sections = [m for m in _SECTION.finditer(text) if m.start() < at]
    return bool(sections) and sections[-1][1].strip().endswith("dependencies")


def _caret(requirement: str) -> tuple[int, ...] | None:
    """A caret (or bare) requirement's version, as numbers; None for any other kind."""
    match = _CARET.match(requirement)
    if match is None:
        return None
    return tuple(int(part) for part in match.groups() if part is not None)


def _meets(floor: tuple[int, ...], version: str) -> bool:
    """Whether `version` meets the caret requirement `floor`: at least it, and the same in
    its leftmost part that is not zero (Cargo's rule)."""
    have = tuple(int(part) for part in version.split("."))
    padded = floor + (0,) * (3 - len(floor))
    if have < padded:
        return False
    significant = next((k for k, part in enumerate(floor) if part), len(floor) - 1)
    return have[: significant + 1] == floor[: significant + 1]
