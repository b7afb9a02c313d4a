"""Kata descriptions: markdown with an optional YAML front matter.

```
---
language: python
---
# FizzBuzz
Free text (the description)...
## Requirements
- ...
## Constraints
- ...
## Examples
...
```
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from tdd_sandbox.errors import UsageError
from tdd_sandbox.languages.registry import LANGUAGES

MAX_KATA_BYTES = 64 * 1024
_FRONT_MATTER = re.compile(r"\A---\s*\n(.*?)\n---\s*(?:\n|\Z)", re.DOTALL)
_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$", re.MULTILINE)
_SECTIONS = {
    "requirements": "requirements",
    "rules": "requirements",
    "constraints": "constraints",
    "examples": "examples",
    "example": "examples",
    "description": "description",
}


class KataError(UsageError):
    """A kata file that cannot be used."""


@dataclass(frozen=True)
class Kata:
    """A parsed kata."""

    title: str
    description: str
    requirements: tuple[str, ...] = ()
    constraints: tuple[str, ...] = ()
    examples: str = ""
    metadata: dict[str, Any] = field(default_factory=dict)
    text: str = ""
    """The markdown body, as the models see it."""

    def allowed_rules(self, language: str) -> frozenset[str]:
        """Policy rules this kata allows in `language`, for katas whose code really needs
        what the policy refuses by default: front matter `allow: [call:open, ...]` (every
        language) or `allow: {go: [print]}` (one language's, as an import records what a
        track's reference needs)."""
        allowed = self.metadata.get("allow") or []
        if isinstance(allowed, dict):
            allowed = allowed.get(language) or []
        return frozenset(str(rule) for rule in allowed)

    @property
    def slug(self) -> str:
        """The title in lower-case-with-dashes."""
        return re.sub(r"[^a-z0-9]+", "-", self.title.lower()).strip("-") or "kata"


def load_kata(path: Path) -> Kata:
    """Read and parse a kata file.

    Raises:
        KataError: missing, unreadable, too large, or without a `# Title`.
    """
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise KataError(f"kata file {path} does not exist: pass the path of a kata.md") from None
    except IsADirectoryError:
        raise KataError(f"{path} is a directory: pass the kata.md inside it") from None
    except OSError as exc:
        raise KataError(f"cannot read kata file {path}: {exc.strerror}") from None
    if len(raw) > MAX_KATA_BYTES:
        raise KataError(f"kata file {path} is over {MAX_KATA_BYTES} bytes: shorten it")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise KataError(f"kata file {path} is not UTF-8 text: save it as UTF-8") from None
    return parse_kata(text, source=str(path))


def parse_kata(text: str, *, source: str = "kata") -> Kata:
    """Parse kata markdown.

    Raises:
        KataError: bad front matter, or no `# Title` heading.
    """
    metadata: dict[str, Any] = {}
    body = text.replace("\r\n", "\n")
    if match := _FRONT_MATTER.match(body):
        try:
            loaded = yaml.safe_load(match.group(1))
        except yaml.YAMLError:
            raise KataError(f"{source}: the front matter is not valid YAML: fix it") from None
        if loaded is not None and not isinstance(loaded, dict):
            raise KataError(f"{source}: the front matter must be a mapping of keys")
        metadata = loaded or {}
        _check_allow(metadata.get("allow"), source)
        body = body[match.end() :]
    headings = list(_HEADING.finditer(body))
    if not headings or len(headings[0].group(1)) != 1:
        raise KataError(f"{source}: a kata needs a '# Title' line before anything else")
    title = headings[0].group(2)
    sections: dict[str, str] = {}
    for index, heading in enumerate(headings):
        end = headings[index + 1].start() if index + 1 < len(headings) else len(body)
        content = body[heading.end() : end].strip()
        if index == 0:
            sections["description"] = content
            continue
        key = _SECTIONS.get(heading.group(2).strip().lower())
        if key is not None:
            joined = f"{sections[key]}\n\n{content}" if key in sections else content
            sections[key] = joined.strip()
    return Kata(
        title=title,
        description=sections.get("description", ""),
        requirements=_items(sections.get("requirements", "")),
        constraints=_items(sections.get("constraints", "")),
        examples=sections.get("examples", ""),
        metadata=metadata,
        text=body.strip(),
    )


def _check_allow(allow: object, source: str) -> None:
    """Raises KataError unless `allow` is absent, a list of rule names, or a map from
    language names to such lists."""
    def rules(value: object) -> bool:
        return isinstance(value, list) and all(isinstance(r, str) for r in value)

    lists = list(allow.values()) if isinstance(allow, dict) else [allow]
    if allow is None or (
        all(rules(v) for v in lists)
        and (not isinstance(allow, dict) or all(k in LANGUAGES for k in allow))
    ):
        return
    raise KataError(
        f"{source}: `allow:` must be a list of rules ([call:open]) or a map of languages "
        f"({', '.join(LANGUAGES)}) to such lists ({{go: [print]}}): fix the front matter"
    )


def allow_rules(path: Path, language: str, rules: Iterable[str]) -> None:
    """Record in the kata file at `path` that `language` may use `rules`, keeping its text
    and its other front matter (an allowance for every language stays one for each)."""
    text = path.read_text(encoding="utf-8").replace("\r\n", "\n")
    kata = parse_kata(text, source=str(path))
    match = _FRONT_MATTER.match(text)
    body = text[match.end() :] if match else text
    allow = kata.metadata.get("allow") or {}
    if isinstance(allow, list):
        allow = {name: list(allow) for name in LANGUAGES}
    allow[language] = sorted({*allow.get(language, []), *rules})
    metadata = {**kata.metadata, "allow": allow}
    front = yaml.safe_dump(metadata, sort_keys=False, default_flow_style=None).strip()
    path.write_text(f"---\n{front}\n---\n{body}", encoding="utf-8")


def _items(section: str) -> tuple[str, ...]:
    items = [
        re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+", "", line).strip()
        for line in section.splitlines()
        if re.match(r"^\s*(?:[-*+]|\d+[.)])\s+", line)
    ]
    return tuple(items) if items else ((section.strip(),) if section.strip() else ())
