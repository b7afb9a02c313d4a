"""Python read on the host from several threads at once: an attempt race, `bench --jobs` and
an import's proof each read code in threads of one process."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator

import pytest

from tdd_sandbox.languages.registry import get_language

PYTHON = get_language("python")
SOURCE = "".join(
    f"def test_{i}():\n    assert [[[(x, {i}, {{'a': [1, (2, 3)]}})] for x in []]] == []\n\n"
    for i in range(150)
).encode()


class _Finalised:
    """Garbage whose collection runs Python code, so a thread can switch mid-parse."""

    def __del__(self) -> None:
        sum(range(50))


@pytest.fixture
def switching() -> Iterator[None]:
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(before)


@pytest.mark.usefixtures("switching")
def test_threads_reading_python_at_once_never_crash_the_parser() -> None:
    # CPython 3.11's ast module counts its recursion per interpreter, not per thread: two
    # threads parsing at once (a collection switching between them) raised "SystemError: AST
    # constructor recursion depth mismatch" out of `katas import`, an internal error.
    errors: list[BaseException] = []

    def read() -> None:
        for _ in range(5):  # fails at the first of them without the lock (23 runs of 23)
            junk = [_Finalised() for _ in range(200)]
            for first, second in zip(junk[::2], junk[1::2], strict=True):
                first.other, second.other = second, first  # type: ignore[attr-defined]
            del junk
            try:
                assert len(PYTHON.expected_tests({"tests/test_k.py": SOURCE})) == 150
            except BaseException as exc:  # noqa: BLE001 - any error fails the test below
                errors.append(exc)
                return

    threads = [threading.Thread(target=read) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
