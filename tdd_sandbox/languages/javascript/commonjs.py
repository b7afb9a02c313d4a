"""A track's CommonJS reference read as the ES module the kata's package is: older examples
(`.meta/proof.ci.js`) end `module.exports = WordSearch;` where the stub and the tests
`export` and `import`, and Node refuses `module` in an ES module. Each top-level form is
rewritten as its ES one: `module.exports = Name` as `export default Name`, `module.exports
= { a, b: c }` as `export { a, c as b }`, `exports.name = ` as `export const name = `, and
`const x = require("m")` (or `{ a, b: c }`) as an import. A file that uses CommonJS any other
way (an export inside a branch, a `require` in an expression) stays as it is, and its proof
says what Node made of it."""

from __future__ import annotations

import re

from tdd_sandbox.languages.javascript.reader import read_javascript

_DEFAULT = re.compile(r"^module\.exports\s*=\s*([A-Za-z_$][\w$]*)\s*;?[ \t]*$", re.MULTILINE)
_OBJECT = re.compile(r"^module\.exports\s*=\s*\{([^{}]*)\}\s*;?[ \t]*$", re.MULTILINE)
_NAMED = re.compile(r"^(?:module\.)?exports\.([A-Za-z_$][\w$]*)\s*=\s*", re.MULTILINE)
_REQUIRE = re.compile(
    r"^(?:const|let|var)\s+(?:([A-Za-z_$][\w$]*)|\{([^{}]*)\})\s*=\s*"
    r"require\(\s*(['\"])([^'\"\n]+)\3\s*\)\s*;?[ \t]*$",
    re.MULTILINE,
)
_ESM = re.compile(r"^\s*(?:export|import)\b", re.MULTILINE)
_LEFT = re.compile(r"\b(?:module\.exports|exports\.|require\s*\()")
_NAME = r"[A-Za-z_$][\w$]*"


def as_es_module(text: str) -> str | None:
    """`text` as an ES module, or None where it is one already or is CommonJS in a way
    these forms do not cover."""
    code = read_javascript(text).code
    if _ESM.search(code) or not _LEFT.search(code):
        return None
    edits: list[tuple[int, int, str]] = []
    for match in _DEFAULT.finditer(code):
        edits.append((match.start(), match.end(), f"export default {match[1]};"))
    for match in _OBJECT.finditer(code):
        names = _pairs(match[1], exporting=True)
        if names is None:
            return None
        edits.append((match.start(), match.end(), f"export {{ {names} }};"))
    for match in _NAMED.finditer(code):
        edits.append((match.start(), match.end(), f"export const {match[1]} = "))
    for match in _REQUIRE.finditer(text):  # its module is a string, blank in the code
        if code[match.start() : match.start() + 3] != text[match.start() : match.start() + 3]:
            continue  # in a comment or a string
        module = match[4]
        if match[1]:
            edits.append((match.start(), match.end(), f'import {match[1]} from "{module}";'))
            continue
        names = _pairs(match[2], exporting=False)
        if names is None:
            return None
        edits.append((match.start(), match.end(), f'import {{ {names} }} from "{module}";'))
    rewritten = _apply(text, edits)
    return None if _LEFT.search(read_javascript(rewritten).code) else rewritten


def _pairs(body: str, *, exporting: bool) -> str | None:
    """An object pattern's `a, b: c` as ES names: `a, b as c` for an import, `a, c as b`
    for an export. None for anything else (a default value, a nested pattern)."""
    out = []
    for item in (part.strip() for part in body.split(",")):
        if not item:
            continue
        key, _, value = (side.strip() for side in item.partition(":"))
        if not re.fullmatch(_NAME, key) or (value and not re.fullmatch(_NAME, value)):
            return None
        if not value or value == key:
            out.append(key)
        else:
            out.append(f"{value} as {key}" if exporting else f"{key} as {value}")
    return ", ".join(out)


def _apply(text: str, edits: list[tuple[int, int, str]]) -> str:
    for start, end, replacement in sorted(edits, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text
