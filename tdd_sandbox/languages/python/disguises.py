"""What hides from a reader of a Python file's names: text that the interpreter reads as code,
and equality set by any means but a method the policy can read (issue #46).

`typing.get_type_hints` (and `functools.singledispatch`, which calls it) evaluates a string
annotation in the module's globals, where `__import__` and `setattr` are: a string is code
there, and the policy, which reads names, never read it. So a string (but a docstring) that
parses as an expression which calls, defines a function, assigns or reaches a dunder is
refused wherever it stands, and so are the ways to hand typing a string at run time
(`__annotations__`, `ForwardRef`). The guard sees what such code changes whatever route it
takes; this says why before anything runs.

`__eq__`/`__ne__` decide what a test's comparison says: written as `def`, the policy checks
that they look at their operand and are not on a builtin value; bound any other way (a
lambda, another function, `setattr`, `type(...)`'s namespace) the same rules apply or the
binding is refused.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tdd_sandbox.vocabulary.violation import Violation

_BUILTIN_VALUES = frozenset({"str", "int", "float", "bool", "list", "dict", "tuple", "bytes"})
_EQUALITY = frozenset({"__eq__", "__ne__"})
_CODE = (
    ast.Call, ast.Lambda, ast.NamedExpr, ast.ListComp, ast.SetComp, ast.DictComp,
    ast.GeneratorExp, ast.Await, ast.Yield, ast.YieldFrom,
)  # fmt: skip
_TO_TYPING = {"__annotations__": "hands typing text to evaluate as an annotation",
              "ForwardRef": "makes text an annotation typing evaluates"}  # fmt: skip
_INTERPRETER = frozenset({"__builtins__", "__import__", "__loader__", "__spec__"})
_TEXT_LIMIT = 2_000
"""Longer strings are data, never parsed: an expression that long is no annotation."""


def text_as_code(path: str, tree: ast.Module) -> list[Violation]:
    """Strings that read as code, and the routes that hand typing text to evaluate."""
    found = []
    docstrings = set(_docstrings(tree))
    for node in ast.walk(tree):
        named = (
            node.id if isinstance(node, ast.Name)
            else node.attr if isinstance(node, ast.Attribute)
            else next((a.name for a in node.names if a.name in _TO_TYPING), "")
            if isinstance(node, ast.ImportFrom) else ""
        )  # fmt: skip
        if named in _TO_TYPING:
            found.append(Violation(path, getattr(node, "lineno", 0), f"typing:{named}",
                                   f"uses {named}, which {_TO_TYPING[named]}"))  # fmt: skip
        if (
            isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docstrings and _reads_as_code(node.value)
        ):  # fmt: skip
            why = (f"the string {node.value[:60]!r} is code (a call, a lambda or a dunder): "
                   "typing evaluates such text as an annotation")  # fmt: skip
            found.append(Violation(path, node.lineno, "text-code", why))
    return found


def equality_bindings(path: str, tree: ast.Module) -> list[Violation]:
    """Equality defined or bound where it cannot be read as an honest method."""
    found = []

    def flag(node: ast.stmt | ast.expr, why: str) -> None:
        found.append(Violation(path, node.lineno, "equality", why))

    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            found += _in_class(path, node)
        targets = (
            node.targets if isinstance(node, ast.Assign)
            else [node.target] if isinstance(node, ast.AnnAssign | ast.AugAssign) else []
        )  # fmt: skip
        for target in targets:
            for leaf in _leaves(target):
                if isinstance(leaf, ast.Attribute) and leaf.attr in _EQUALITY:
                    flag(leaf, f"sets {leaf.attr} on a class from outside it")
        if isinstance(node, ast.Constant) and node.value in _EQUALITY:
            flag(node, f"names {node.value} as data (setattr, a namespace)")
    return found


def _in_class(path: str, node: ast.ClassDef) -> list[Violation]:
    """`__eq__`/`__ne__` on a subclass of a builtin value, one that ignores its operand, or
    one bound to anything but a method or a lambda: the shape of a value that compares equal
    to whatever the test expects."""
    found = []
    builtin_base = any(isinstance(b, ast.Name) and b.id in _BUILTIN_VALUES for b in node.bases)
    for item in node.body:
        method: ast.FunctionDef | ast.Lambda | None = None
        if isinstance(item, ast.FunctionDef) and item.name in _EQUALITY:
            name, method = item.name, item
        elif isinstance(item, ast.Assign | ast.AnnAssign):
            targets = item.targets if isinstance(item, ast.Assign) else [item.target]
            names = [n.id for t in targets for n in _leaves(t)
                     if isinstance(n, ast.Name) and n.id in _EQUALITY]  # fmt: skip
            if not names:
                continue
            name = names[0]
            if not isinstance(item.value, ast.Lambda) or len(targets) != 1:
                found.append(Violation(path, item.lineno, "equality", f"{node.name}.{name} is "
                                       "bound to a value, not written as a method the policy "
                                       "can read"))  # fmt: skip
                continue
            method = item.value
        else:
            continue
        args = method.args.args
        operand = args[1].arg if len(args) > 1 else None
        uses_operand = operand is not None and any(
            isinstance(n, ast.Name) and n.id == operand for n in ast.walk(method)
        )
        if builtin_base or not uses_operand:
            why = (f"{node.name}.{name} redefines equality of a builtin value" if builtin_base
                   else f"{node.name}.{name} ignores what it is compared with")  # fmt: skip
            found.append(Violation(path, item.lineno, "equality", why))
    return found


def _leaves(target: ast.expr) -> Iterator[ast.expr]:
    """The names and attributes an assignment target binds (tuples and stars unpacked)."""
    if isinstance(target, ast.Tuple | ast.List):
        for element in target.elts:
            yield from _leaves(element)
    elif isinstance(target, ast.Starred):
        yield from _leaves(target.value)
    else:
        yield target


def _docstrings(tree: ast.Module) -> Iterator[int]:
    """The ids of the module's, classes' and functions' docstring nodes."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                yield id(first.value)


def _reads_as_code(text: str) -> bool:
    if len(text) > _TEXT_LIMIT or not text.strip():
        return False
    try:
        expression = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    for node in ast.walk(expression):
        if isinstance(node, _CODE):
            return True
        # Read, not run, these hand the code what its text may not name (an annotation's
        # value comes back from get_type_hints): a dunder attribute, or the interpreter's.
        if isinstance(node, ast.Attribute) and node.attr.startswith("__"):
            return True
        if isinstance(node, ast.Name) and node.id in _INTERPRETER:
            return True
    return False
