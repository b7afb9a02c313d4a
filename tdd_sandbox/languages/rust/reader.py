"""Reading Rust source as rustc does: comments, raw strings, character literals, raw identifiers."""

from __future__ import annotations

import re

from tdd_sandbox.languages.lexing import spaced

RUST_LEXEMES = re.compile(
    r"//[^\n]*|/\*.*?\*/|(?<![\w])b?r(#*)\".*?\"\1|b?\"(?:\\.|[^\"\\])*\""
    r"|b?'(?:\\(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F_]{1,6}\}|.)|[^\\'\n])'",
    re.DOTALL,
)
"""Rust's comments, raw strings (`r#"..."#`, closed only by as many `#`), strings and
character literals (one character or escape, so a lifetime `'a` is code)."""


TOOLCHAIN = (1, 98)
"""The Rust of the image (Debian trixie-backports' `rustc`; a test holds it to the image)."""
_UNSTABLE = re.compile(r"use of unstable (?:library )?feature `(?P<feature>\w+)`")


def newer_rust(output: str) -> str:
    """Where rustc refused a feature as unstable, that this Rust is older than the code
    needs: an API or syntax stabilised after the image's (an Exercism example written for a
    newer stable Rust) reads as "unstable" here. `""` otherwise."""
    found = _UNSTABLE.search(output)
    if found is None:
        return ""
    return "stable only in a Rust newer than the image's {}.{}".format(*TOOLCHAIN)


def rust_code(text: str) -> tuple[str, list[int]]:
    """Rust code with comments and literals blanked and raw identifiers (`r#process`) read
    as names, and the offsets of block comments that open another inside them: Rust nests
    block comments, this reader does not, so those are for the policy to refuse."""
    nested: list[int] = []

    def spaces(match: re.Match[str]) -> str:
        lexeme = match.group(0)
        if lexeme.startswith("/*") and "/*" in lexeme[2:]:
            nested.append(match.start())
        return spaced(lexeme)

    code = re.sub(r"(?<![\w#])r#(?=[A-Za-z_])", "  ", RUST_LEXEMES.sub(spaces, text))
    return code, nested
