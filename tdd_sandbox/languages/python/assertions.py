"""What a unittest test asserts, read on the host without running it: which assertion a
statement makes, and the value a literal of it writes (`transcripts`)."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import Any

from tdd_sandbox.languages.literal_reader import NO, SetLiteral

EQUAL = frozenset({"assertEqual", "assertEquals", "assertDictEqual", "assertListEqual",
                   "assertTupleEqual", "assertSequenceEqual", "assertMultiLineEqual"})  # fmt: skip
"""Assertions that two values are equal."""
ANY_ORDER = frozenset({"assertCountEqual", "assertSetEqual", "assertItemsEqual"})
"""Assertions that two collections hold the same items, in any order."""
TRUTH = {
    "assertTrue": ("bool({})", True),
    "assertFalse": ("bool({})", False),
    "assertIsNone": ("({}) is None", True),
    "assertIsNotNone": ("({}) is None", False),
}
"""Assertions of one value: what it is asked as, and what that must answer."""
_RAISES = "assertRaises"


def assertion_of(statement: ast.stmt) -> tuple[str, list[ast.expr]] | None:
    """`self.assertX(...)` as its name and arguments (a message among them left in)."""
    if not (isinstance(statement, ast.Expr) and isinstance(call := statement.value, ast.Call)):
        return None
    function = call.func
    if not (isinstance(function, ast.Attribute) and is_self(function.value)):
        return None
    if not function.attr.startswith("assert"):
        return None
    return function.attr, list(call.args)


def raised_name(statement: ast.With) -> str | None:
    """The name a `with self.assertRaises(E) as err:` binds ("" where none); None for any
    other `with`."""
    if len(statement.items) != 1:
        return None
    item = statement.items[0]
    call = item.context_expr
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)):
        return None
    if not (is_self(call.func.value) and call.func.attr == _RAISES):
        return None
    target = item.optional_vars
    return target.id if isinstance(target, ast.Name) else ""


def is_message_of(node: ast.expr, name: str) -> bool:
    """Whether `node` reads the message of the error `name` holds: `err.exception.args[0]`
    or `str(err.exception)`."""
    return ast.unparse(node) in (f"{name}.exception.args[0]", f"str({name}.exception)")


def is_kind_of(node: ast.expr, name: str) -> bool:
    """Whether `node` reads the kind of the error `name` holds: `type(err.exception)`."""
    return ast.unparse(node) == f"type({name}.exception)"


def literal(node: ast.expr, host: Mapping[str, Any]) -> Any:
    """The value `node` writes with literals and the `host`'s names alone, or `NO`."""
    if isinstance(node, ast.Name):
        return host.get(node.id, NO)
    if isinstance(node, ast.Constant):
        return node.value if not isinstance(node.value, bytes) else NO
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        inner = literal(node.operand, host)
        if isinstance(inner, int | float) and not isinstance(inner, bool):
            return -inner if isinstance(node.op, ast.USub) else inner
        return NO
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        items = [literal(item, host) for item in node.elts]
        if any(item is NO for item in items):
            return NO
        kind = {ast.List: list, ast.Tuple: tuple, ast.Set: SetLiteral}[type(node)]
        return kind(items)
    if isinstance(node, ast.Dict):
        keys = [literal(k, host) if k is not None else NO for k in node.keys]
        values = [literal(v, host) for v in node.values]
        if any(x is NO for x in keys + values):
            return NO
        return dict(zip(keys, values, strict=True))
    empty = {"set()": SetLiteral(), "dict()": {}, "list()": []}
    if isinstance(node, ast.Call) and ast.unparse(node) in empty:
        return empty[ast.unparse(node)]
    return NO


def as_plain(value: Any) -> Any:
    """A literal as a driver reports an answer: tuples and sets as lists."""
    if isinstance(value, list | tuple):
        return [as_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: as_plain(item) for key, item in value.items()}
    return value


def is_self(node: ast.expr) -> bool:
    """Whether `node` is the test case itself."""
    return isinstance(node, ast.Name) and node.id == "self"


def uses_self(node: ast.AST) -> bool:
    """Whether `node` reaches the test case anywhere in it."""
    return any(is_self(n) for n in ast.walk(node) if isinstance(n, ast.expr))


def compares(node: ast.AST) -> bool:
    """Whether what a test asks compares where the driver runs it (`x > 7291` would hold
    7291 against the code beside it, in the shipped source it can read); within a call's
    arguments or a function it is what the test gives the code."""
    if isinstance(node, ast.Compare):
        return True
    if isinstance(node, ast.Lambda):
        return False
    if isinstance(node, ast.Call):
        return compares(node.func)
    return any(compares(child) for child in ast.iter_child_nodes(node))
