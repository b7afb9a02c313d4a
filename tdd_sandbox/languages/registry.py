"""Registering language packs: a pack that lacks a part is refused, never run with a default.

What a pack must have is read off the `Language` Protocol itself, so a member added there is
required of every pack from then on.
"""

from __future__ import annotations

from tdd_sandbox.errors import TddSandboxError
from tdd_sandbox.languages.base import Language

_TEXTS = ("name", "title", "collects", "prompt_note")
"""Members that must be non-empty text: an empty prompt note is a pack not finished."""


class PackError(TddSandboxError):
    """A language pack lacks a part (a policy, a reader, a driver, an image...)."""


def missing_parts(pack: object) -> list[str]:
    """What `pack` lacks of a complete language pack (empty: nothing)."""
    declared = {n: v for n, v in vars(Language).items() if not n.startswith("_")}
    methods = [n for n, v in declared.items() if callable(v)]
    missing = [n for n in Language.__annotations__ if not hasattr(pack, n)]
    missing += [n for n in methods if not callable(getattr(pack, n, None))]
    missing += [n for n in _TEXTS if hasattr(pack, n) and not getattr(pack, n)]
    if not getattr(pack, "source_suffixes", True):
        missing.append("source_suffixes (at least one)")
    source = getattr(getattr(pack, "driver", None), "source", None)
    if hasattr(pack, "driver") and (source is None or not source.is_file()):
        missing.append(f"driver.source (the driver program: {source})")
    for sample in ("sample", "test_sample"):
        try:
            getattr(pack, sample)
        except (AttributeError, OSError, StopIteration, TypeError):
            missing.append(f"{sample} (a file in its sample/ folder)")
    image = getattr(pack, "image", None)
    if image is None or not (image / "Dockerfile").is_file():
        missing.append(f"image/Dockerfile (in {image})")
    return missing


def register(*packs: Language) -> dict[str, Language]:
    """The packs by name, each checked complete.

    Raises:
        PackError: a pack lacks a part, or two share a name.
    """
    registry: dict[str, Language] = {}
    for pack in packs:
        name = getattr(pack, "name", None) or type(pack).__name__
        if missing := missing_parts(pack):
            raise PackError(
                f"language pack {name!r} is incomplete: it lacks {', '.join(missing)} "
                "(docs/sandbox.md, 'Adding a language', lists a pack's parts)"
            )
        if name in registry:
            raise PackError(f"two language packs are named {name!r}")
        registry[name] = pack
    return registry
