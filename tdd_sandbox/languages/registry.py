"""The language packs' one registry: every pack by name, each refused if it lacks a part
(never run with a default), so no language can run model code without a policy, a reader, a
driver or an image.

What a pack must have is read off each part's Protocol (`parts.PARTS`), so a member added to
a part is required of every pack from then on, and a pack that lacks one is told which part.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from tdd_sandbox.errors import TddSandboxError, UsageError
from tdd_sandbox.languages.base import TOOL_IMAGE, Language, image_root
from tdd_sandbox.languages.cpp.plugin import CPP
from tdd_sandbox.languages.go.plugin import GO
from tdd_sandbox.languages.java.plugin import JAVA
from tdd_sandbox.languages.javascript.plugin import JAVASCRIPT
from tdd_sandbox.languages.parts import PARTS
from tdd_sandbox.languages.python.plugin import PYTHON
from tdd_sandbox.languages.rust.plugin import RUST
from tdd_sandbox.languages.typescript.plugin import TYPESCRIPT

_TEXTS = ("name", "title", "collects", "prompt_note")
"""Members that must be non-empty text: an empty prompt note is a pack not finished."""


class PackError(TddSandboxError):
    """A language pack lacks a part (a policy, a reader, a driver, an image...)."""


def missing_parts(pack: object) -> list[str]:
    """What `pack` lacks of a complete language pack (empty: nothing)."""
    missing = []
    for part in PARTS:
        declared = {n: v for n, v in vars(part).items() if not n.startswith("_")}
        methods = [n for n, v in declared.items() if callable(v)]
        lacks = [n for n in part.__annotations__ if not hasattr(pack, n)]
        lacks += [n for n in methods if not callable(getattr(pack, n, None))]
        missing += [f"{part.__name__.lower()}.{n}" for n in lacks]
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


def register(*packs: Language, images: Path | None = None) -> dict[str, Language]:
    """The packs by name, each checked complete, and every language folder of `images`
    (default: `image_root()`) some pack's.

    Raises:
        PackError: a pack lacks a part, two share a name, or an image has no pack.
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
    root = image_root() if images is None else images
    owned = {pack.image.name for pack in packs} | {TOOL_IMAGE}
    for folder in sorted(root.iterdir()) if root.is_dir() else ():
        if folder.is_dir() and folder.name not in owned:
            raise PackError(
                f"images/{folder.name} is no language pack's image: add the pack "
                f"(tdd_sandbox/languages/{folder.name}/, docs/sandbox.md) or remove the folder"
            )
    return registry


# TypeScript before JavaScript: a TypeScript package has a package.json too.
LANGUAGES: dict[str, Language] = register(PYTHON, RUST, GO, TYPESCRIPT, JAVASCRIPT, CPP, JAVA)
"""Every pack by name, in the order detection tries them."""


def get_language(name: str) -> Language:
    """The plug-in registered as `name`.

    Raises:
        UsageError: no such language; the message lists the known ones.
    """
    try:
        return LANGUAGES[name.lower()]
    except KeyError:
        known = ", ".join(sorted(LANGUAGES))
        raise UsageError(f"unknown language {name!r}: choose one of {known}") from None


def detect_language(paths: Iterable[str]) -> Language:
    """The language of a repo holding `paths`.

    Raises:
        UsageError: no plug-in recognises the repo; pass --language.
    """
    listed = list(paths)
    for language in LANGUAGES.values():
        if language.detect(listed):
            return language
    known = ", ".join(sorted(LANGUAGES))
    raise UsageError(f"cannot tell the repo's language: pass --language ({known})")
