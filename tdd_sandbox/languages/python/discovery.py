"""What pytest collects from a test module, and why a new test fails through its own fault,
read from the source without running it."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable

NO_FIXTURE = re.compile(r"fixture '(?P<name>\w+)' not found")


UNDEFINED = re.compile(r"NameError: name '(?P<name>\w+)' is not defined")


BUILTIN_FIXTURES = frozenset(
    {
        "cache", "capfd", "capfdbinary", "caplog", "capsys", "capsysbinary", "doctest_namespace",
        "monkeypatch", "pytestconfig", "record_property", "record_testsuite_property",
        "record_xml_attribute", "recwarn", "request", "tmp_path", "tmp_path_factory", "tmpdir",
        "tmpdir_factory",
    }
)  # fmt: skip


def unknown_fixture(tree: ast.Module, test: str, has_conftest: bool) -> str | None:
    """The first argument of top-level test function `test` that no fixture can fill: none
    is defined in the module or a conftest, it is not pytest's own, and no decorator (such
    as parametrize) supplies it."""
    if has_conftest:
        return None
    defined = {
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.decorator_list
    }
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == test:
            if node.decorator_list:
                return None
            for arg in node.args.posonlyargs + node.args.args:
                if arg.arg not in BUILTIN_FIXTURES and arg.arg not in defined:
                    return arg.arg
    return None


def module_names(tree: ast.Module) -> set[str] | None:
    """Names bound at the top level of a module; None when `import *` makes that unknowable."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                if alias.name == "*":
                    return None
                names.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        else:
            names.update(
                target.id
                for sub in ast.walk(node)
                if isinstance(sub, ast.Assign | ast.AnnAssign | ast.AugAssign | ast.NamedExpr)
                for target in (sub.targets if isinstance(sub, ast.Assign) else [sub.target])
                if isinstance(target, ast.Name)
            )
    return names


RUNNERS = frozenset({"pytest", "unittest"})


TEST_CASE_BASES = frozenset({"TestCase", "IsolatedAsyncioTestCase"})
"""unittest's case classes: pytest collects their subclasses whatever they are called."""


def collected_ids(path: str, tree: ast.Module) -> Iterable[str]:
    """What pytest collects from a module: `test*` functions; `test*` methods, inherited ones
    included, of `Test*` classes without `__init__` and of unittest.TestCase subclasses of
    any name (Exercism's `LeapTest`)."""
    classes: dict[str, tuple[bool, list[str]]] = {}  # name -> (a TestCase?, its test methods)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
            "test"
        ):
            yield f"{path}::{node.name}"
        elif isinstance(node, ast.ClassDef):
            bases = [name_of(base) for base in node.bases]
            methods = [name for base in bases for name in classes.get(base, (False, []))[1]]
            defined = [
                item.name for item in node.body
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
            ]  # fmt: skip
            methods += [name for name in defined if name.startswith("test")]
            unit_case = any(b in TEST_CASE_BASES or classes.get(b, (False,))[0] for b in bases)
            classes[node.name] = (unit_case, list(dict.fromkeys(methods)))
            if unit_case or (node.name.startswith("Test") and "__init__" not in defined):
                yield from (f"{path}::{node.name}::{name}" for name in classes[node.name][1])


def name_of(node: ast.expr) -> str:
    """`TestCase` of `TestCase` and of `unittest.TestCase`."""
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""
