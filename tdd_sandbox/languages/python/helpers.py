"""The helper methods of a track's test class (react's `callback_factory`): a transcribed
test may call one that asserts nothing and uses the test case for nothing, shipped as a
function of its own (`transcripts`). No other code of the track's tests is shipped."""

from __future__ import annotations

import ast
import copy
from collections.abc import Mapping

from tdd_sandbox.languages.python.assertions import is_self, uses_self

_HOOKS = ("test", "setUp", "tearDown")


def helper_methods(module: ast.Module) -> dict[str, ast.FunctionDef]:
    """The test classes' methods that are no test, use `self` for nothing and assert nothing
    (react's `callback_factory`), each as a function of its own."""
    found = {}
    for node in module.body:
        for item in node.body if isinstance(node, ast.ClassDef) else []:
            if not isinstance(item, ast.FunctionDef) or item.name.startswith(_HOOKS):
                continue
            function = copy.deepcopy(item)
            if function.args.args and function.args.args[0].arg == "self":
                function.args.args = function.args.args[1:]
            function.decorator_list = []
            if not uses_self(function) and not _asserts(function):
                found[item.name] = function
    return found


def _asserts(function: ast.FunctionDef) -> bool:
    """Whether a helper asserts: shipped, its assertion would run beside the code."""
    return any(
        isinstance(node, ast.Assert)
        or (isinstance(node, ast.Call) and ast.unparse(node.func).split(".")[-1][:6] == "assert")
        for node in ast.walk(function)
    )


def unbound(method: ast.FunctionDef, helpers: Mapping[str, ast.FunctionDef]) -> ast.FunctionDef:
    """The test with each `self.helper` it calls read as the helper's function."""

    class Unbind(ast.NodeTransformer):
        def visit_Attribute(self, node: ast.Attribute) -> ast.expr:
            if is_self(node.value) and node.attr in helpers:
                return ast.copy_location(ast.Name(node.attr, ast.Load()), node)
            return self.generic_visit(node)  # type: ignore[return-value]

    return Unbind().visit(copy.deepcopy(method))  # type: ignore[no-any-return]
