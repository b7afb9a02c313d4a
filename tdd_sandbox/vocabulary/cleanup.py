"""What a clean-up reports: each thing removed or kept, and why. `gc`, a resumed run and
each owner of leftovers (the sandbox's containers, the repository's worktrees) share it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Item:
    """One thing gc removed (or would remove)."""

    kind: str
    name: str
    reason: str
    bytes: int = 0


@dataclass
class GcReport:
    """What gc did."""

    dry_run: bool
    removed: list[Item] = field(default_factory=list)
    kept: list[Item] = field(default_factory=list)

    @property
    def freed_bytes(self) -> int:
        """Bytes freed (or that would be)."""
        return sum(item.bytes for item in self.removed)


def dir_size(path: Path) -> int:
    """Bytes in the files under `path` (symbolic links not followed)."""
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())
