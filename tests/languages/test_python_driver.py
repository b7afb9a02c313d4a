"""The Python acceptance driver's words for code that did not import
(`tdd_sandbox/languages/python/sandbox_driver.py`), run on the host with the tree moved."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tdd_sandbox.languages.python import sandbox_driver


def _import_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str) -> str:
    monkeypatch.setattr(sandbox_driver, "TREE", f"{tmp_path}/")
    (tmp_path / "pkg").mkdir(exist_ok=True)
    (tmp_path / "pkg" / "kata.py").write_text(source)
    spec = importlib.util.spec_from_file_location("kata_under_test", tmp_path / "pkg/kata.py")
    assert spec is not None
    assert spec.loader is not None
    try:
        spec.loader.exec_module(importlib.util.module_from_spec(spec))
    except BaseException as exc:  # noqa: BLE001 - what the driver catches
        return sandbox_driver.told(exc)
    raise AssertionError("the source imported")


def test_an_error_on_import_says_the_line_of_the_code_that_raised_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = "def helper():\n    return missing\n\n\nVALUE = helper()\n"
    assert _import_error(tmp_path, monkeypatch, source) == (
        "NameError: name 'missing' is not defined (pkg/kata.py, line 2: `return missing`)"
    )


def test_a_syntax_error_says_where_once_and_an_unreadable_error_is_still_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    told = _import_error(tmp_path, monkeypatch, "def f(:\n    pass\n")
    assert told.startswith("SyntaxError: ")
    assert told.count("line 1") == 1
    hostile = (
        "class Loud(Exception):\n    def __str__(self):\n        raise RuntimeError\n\n\n"
        "raise Loud\n"
    )
    assert _import_error(tmp_path, monkeypatch, hostile) == (
        "Loud: (its text cannot be read) (pkg/kata.py, line 6: `raise Loud`)"
    )
