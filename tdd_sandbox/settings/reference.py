"""The settings reference (`docs/configuration.md`), made from the fields themselves: each
one's YAML key, environment variable, default and the docstring under its declaration, so the
page cannot drift from the code. `python -m tdd_sandbox.settings.reference` prints it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from tdd_sandbox.settings.root import Settings

INTRO = """\
# Configuration

Settings come from `tdd.yaml` in the kata's repository (or `--config FILE`), then from
environment variables (`TDD_SANDBOX_` and the key in capitals, with `__` between nested keys:
`sandbox.timeout_s` is `TDD_SANDBOX_SANDBOX__TIMEOUT_S`), then from the command's flags, each
overriding the one before. An unknown key is an error, never ignored. A role's settings are
the same for `tester`, `implementer` and `refactorer`.

```yaml
language: python
roles:
  implementer: {model: "ollama:qwen2.5-coder", temperature: 0.2, edit_format: whole}
sandbox: {timeout_s: 120, memory: 1g, runtime: runsc}
gates: {python: {test: [python3, -m, pytest, -q]}}
```

This page is made from the settings' own declarations
(`python -m tdd_sandbox.settings.reference > docs/configuration.md`).
"""


def _section(info: FieldInfo) -> type[BaseModel] | None:
    kind = info.annotation
    return kind if isinstance(kind, type) and issubclass(kind, BaseModel) else None


def _default(info: FieldInfo) -> str:
    if info.default_factory is not None:
        value: Any = info.default_factory()  # type: ignore[call-arg]
    elif info.default is PydanticUndefined:
        return ""  # set by the section that holds it (each role's model)
    else:
        value = info.default
    if isinstance(value, BaseModel):
        return ""
    return f"`{json.dumps(value, default=str)}`"


def _entries(model: type[BaseModel], prefix: str) -> Iterator[tuple[str, str, FieldInfo]]:
    """(key, heading of its section, field) for every leaf setting under `model`."""
    for name, info in model.model_fields.items():
        key = f"{prefix}{name}"
        section = _section(info)
        if section is None:
            yield key, prefix.rstrip("."), info
            continue
        parts = {_section(part) for part in section.model_fields.values()}
        if len(parts) == 1 and (shared := parts.pop()) is not None:
            # Sections of one kind side by side (the three roles): listed once.
            names = "|".join(section.model_fields)
            yield from _entries(shared, f"{key}.<{names}>.")
        else:
            yield from _entries(section, f"{key}.")


def render() -> str:
    """The reference page: the run's own settings, then each section in declaration order."""
    groups: dict[str, list[str]] = {"": []}
    for key, section, info in _entries(Settings, ""):
        env = "TDD_SANDBOX_" + key.upper().replace(".", "__")
        default = _default(info)
        facts = [f"default {default}"] if default else []
        if "<" not in key:  # a role's key has one variable per role
            facts.append(f"`{env}`")
        said = " ".join((info.description or "").split())
        shown = f" ({', '.join(facts)})" if facts else ""
        groups.setdefault(section, []).append(f"- **`{key}`**{shown}: {said}")
    lines = [INTRO]
    for section, entries in groups.items():
        lines.append(f"\n## `{section}`\n" if section else "\n## The run\n")
        lines.extend(entries)
    return "\n".join(lines) + "\n"


def undocumented(model: type[BaseModel] = Settings) -> list[str]:
    """Keys of settings without a docstring: each one is a setting a user cannot look up."""
    return [key for key, _, info in _entries(model, "") if not info.description]


if __name__ == "__main__":
    print(render(), end="")
