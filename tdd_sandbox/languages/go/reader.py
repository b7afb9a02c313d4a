"""Reading Go source as the compiler does (its comments, raw strings, strings and runes),
and go.mod as the image's Go reads it."""

from __future__ import annotations

import re
from collections.abc import Mapping

GO_LEXEMES = re.compile(
    r"//[^\n]*|/\*.*?\*/|`[^`]*`|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.DOTALL
)
"""Go's comments, raw strings, strings and runes (first match wins at each position, so a
`//` inside a string stays part of the string)."""


_MODULE = re.compile(r'^module\s+"?([^"\s]+)"?', re.MULTILINE)


def module_path(files: Mapping[str, bytes]) -> str:
    """The module path go.mod declares (`kata` when there is none)."""
    match = _MODULE.search(files.get("go.mod", b"").decode("utf-8", "replace"))
    return match.group(1) if match else "kata"


TOOLCHAIN = (1, 27)
"""The Go of the image (Debian trixie-backports' `golang-go`; a test holds it to the image),
which runs with GOTOOLCHAIN=local: it fetches no other."""
GO_DIRECTIVE = "go {}.{}".format(*TOOLCHAIN)
"""The `go` directive of every go.mod the pack writes or lowers: the code may use all of
the image's Go."""
_GO_LINE = re.compile(rb"^go[ \t]+(\d+)\.(\d+)(?:\.\d+)?[ \t]*$", re.MULTILINE)
_TOOLCHAIN_LINE = re.compile(rb"^toolchain[ \t]+\S+[ \t]*\n?", re.MULTILINE)


def for_toolchain(go_mod: bytes) -> tuple[bytes, str]:
    """A track's go.mod as the image's Go builds it, and what changed: a `go` line newer
    than the image's Go refuses every build ("go.mod requires go >= 1.26", as today's track
    told Debian 13's 1.24), though the exercises use nothing newer; it is lowered to the
    image's, and a `toolchain` line dropped. The reference's proof then says whether the
    exercise builds."""
    found = _GO_LINE.search(go_mod)
    if found is None or (int(found[1]), int(found[2])) <= TOOLCHAIN:
        return go_mod, ""
    ours = "{}.{}".format(*TOOLCHAIN)
    lowered = _GO_LINE.sub(GO_DIRECTIVE.encode(), go_mod, count=1)
    asked = found[0].decode().split()[1]
    return _TOOLCHAIN_LINE.sub(b"", lowered), (
        f"go.mod asks for Go {asked}; the image has Go {ours}, so it asks for {ours} (the "
        "reference's proof says whether the exercise builds with it)"
    )
