"""`with` support for anything that has a `close()`."""

from __future__ import annotations

from types import TracebackType
from typing import Self


class Closing:
    """Mixin: `with thing:` closes `thing` however the block ends."""

    def close(self) -> None:
        """Release what the object holds."""
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
