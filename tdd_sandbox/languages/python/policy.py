"""The static policy for Python: the modules, builtins and attributes a kata's code needs none
of (it runs in the test runner's process, so they would let it patch the runner, read the
caller's frames or the tests' answers), refused before anything runs."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable

from tdd_sandbox.languages.python.reader import JUDGE_PYTHON
from tdd_sandbox.vocabulary.violation import Violation

_PY_MODULES = {
    "_pytest": "reaches into the test runner",
    "pytest": "reaches into the test runner",
    "unittest": "reaches into the test runner",
    "atexit": "runs code after the tests have finished",
    "gc": "reaches objects it was never handed",
    "inspect": "reads the caller's frames",
    "traceback": "reads the caller's frames",
    "ctypes": "writes memory directly",
    "cffi": "writes memory directly",
    "importlib": "imports by computed name",
    "builtins": "rewrites the builtins",
    "signal": "installs signal handlers",
    "subprocess": "starts other programs",
    "multiprocessing": "starts other processes",
    "threading": "leaves threads running past the call",
    "faulthandler": "changes how the process ends",
    "sitecustomize": "hooks the interpreter",
    "usercustomize": "hooks the interpreter",
    "code": "runs code from text",
    "codeop": "runs code from text",
    "pickle": "runs code from data",
    "marshal": "loads code objects",
    "glob": "reads the file system (the tests' answers among it)",
    "pathlib": "reads the file system (the tests' answers among it)",
    "shutil": "changes the file system",
}


_PY_CALLS = {
    "eval": "runs code from text",
    "exec": "runs code from text",
    "compile": "runs code from text",
    "__import__": "imports by computed name",
    "globals": "reaches the module's namespace",
    "vars": "reaches a namespace",
    "locals": "reaches a namespace",
    "breakpoint": "stops the process",
    "open": "reads files (the tests' answers among them): a kata's code works on its inputs",
}


_PY_ATTRIBUTES = {
    ("os", "_exit"): "ends the process behind the runner's back",
    ("os", "kill"): "signals processes",
    ("os", "fork"): "starts other processes",
    ("os", "system"): "starts other programs",
    ("os", "popen"): "starts other programs",
    ("os", "environ"): "reads the environment",
    ("os", "listdir"): "reads the file system",
    ("os", "scandir"): "reads the file system",
    ("os", "walk"): "reads the file system",
    ("sys", "modules"): "reaches loaded modules, the runner's included",
    ("sys", "settrace"): "traces the caller",
    ("sys", "setprofile"): "traces the caller",
    ("sys", "_getframe"): "reads the caller's frames",
    ("sys", "exit"): "ends the run",
    ("sys", "argv"): "reads the runner's arguments",
    ("sys", "meta_path"): "hooks imports",
    ("sys", "path_hooks"): "hooks imports",
    ("sys", "addaudithook"): "hooks the interpreter",
    ("sys", "excepthook"): "hooks the interpreter",
    ("sys", "stdout"): "rewrites the runner's output",
    ("sys", "__stdout__"): "rewrites the runner's output",
}


_PY_INTROSPECTION = frozenset(
    {
        "__subclasses__", "__bases__", "__base__", "__mro__", "__globals__", "__code__",
        "__closure__", "__builtins__", "__getattribute__", "__import__", "__loader__",
        "__spec__", "__reduce__", "__reduce_ex__", "__self__", "__func__", "__defaults__",
        "__kwdefaults__", "__traceback__", "f_back", "f_globals", "f_locals", "f_code",
        "f_builtins", "tb_frame", "gi_frame", "cr_frame", "ag_frame",
    }
)  # fmt: skip


_BUILTIN_VALUES = frozenset({"str", "int", "float", "bool", "list", "dict", "tuple", "bytes"})


_CODING = re.compile(r"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", re.MULTILINE)


def check_python(path: str, text: str, *, is_test: bool = False) -> list[Violation]:
    """Violations in one Python file (as `python_text` reads it). Test files may import pytest
    and unittest."""
    found: list[Violation] = []
    for match in _CODING.finditer("\n".join(text.splitlines()[:2])):
        if match.group(1).lower().replace("_", "-") not in ("utf-8", "utf8"):
            found.append(Violation(path, 1, "encoding", f"declares the source encoding "
                                   f"{match.group(1)!r}: kata code is UTF-8"))  # fmt: skip
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError) as exc:
        # The sandbox's Python may be newer than the judge's: syntax only it reads (a `type`
        # statement, say) would otherwise hide the whole file from the policy.
        found.append(
            Violation(
                path,
                getattr(exc, "lineno", None) or 1,
                "syntax",
                f"the judge reads Python {JUDGE_PYTHON} syntax and cannot read this: {exc}",
            )
        )
        return found
    aliases = _module_aliases(tree)

    def flag(node: ast.AST, rule: str, why: str) -> None:
        found.append(Violation(path, getattr(node, "lineno", 0), rule, why))

    for node in ast.walk(tree):
        for module in _imported(node):
            root = module.split(".")[0]
            if root in _PY_MODULES and not (is_test and root in ("pytest", "unittest")):
                flag(node, f"import:{root}", f"imports {module}, which {_PY_MODULES[root]}")
        if isinstance(node, ast.ImportFrom) and node.module in ("os", "sys"):
            for alias in node.names:
                key = (node.module, alias.name)
                if key in _PY_ATTRIBUTES:
                    why = f"imports {node.module}.{alias.name}, which {_PY_ATTRIBUTES[key]}"
                    flag(node, f"attr:{node.module}.{alias.name}", why)
        # A bare name, called or not: `f = eval` is as bad as `eval(...)`.
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in _PY_CALLS:
            flag(node, f"call:{node.id}", f"uses {node.id}(), which {_PY_CALLS[node.id]}")
        if isinstance(node, ast.Attribute):
            owner = aliases.get(node.value.id) if isinstance(node.value, ast.Name) else None
            if owner is not None and (owner, node.attr) in _PY_ATTRIBUTES:
                flag(node, f"attr:{owner}.{node.attr}", f"uses {owner}.{node.attr}, which "
                     f"{_PY_ATTRIBUTES[(owner, node.attr)]}")  # fmt: skip
            if node.attr in _PY_INTROSPECTION:
                flag(node, f"attr:{node.attr}", f"uses {node.attr}, which reaches the "
                     "interpreter's internals")  # fmt: skip
        if isinstance(node, ast.Name) and node.id in ("__builtins__", "__loader__", "__spec__"):
            flag(node, f"name:{node.id}", f"uses {node.id}, which reaches the interpreter")
        if isinstance(node, ast.ClassDef):
            found.extend(_equality_tricks(path, node))
    return found


def _imported(node: ast.AST) -> Iterable[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
        return [node.module]
    return []


def _module_aliases(tree: ast.Module) -> dict[str, str]:
    """Local name -> module, for `import os`, `import os as o`, `from os import _exit`."""
    aliases = {"os": "os", "sys": "sys"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                aliases[alias.asname or alias.name] = alias.name
    return aliases


def _equality_tricks(path: str, node: ast.ClassDef) -> list[Violation]:
    """`__eq__`/`__ne__` on a subclass of a builtin value, or one that ignores its operand:
    the shape of a value that compares equal to whatever the test expects."""
    found = []
    builtin_base = any(isinstance(b, ast.Name) and b.id in _BUILTIN_VALUES for b in node.bases)
    for item in node.body:
        if not isinstance(item, ast.FunctionDef) or item.name not in ("__eq__", "__ne__"):
            continue
        args = item.args.args
        operand = args[1].arg if len(args) > 1 else None
        uses_operand = operand is not None and any(
            isinstance(n, ast.Name) and n.id == operand for n in ast.walk(item)
        )
        if builtin_base or not uses_operand:
            why = (
                f"{node.name}.{item.name} redefines equality of a builtin value"
                if builtin_base
                else f"{node.name}.{item.name} ignores what it is compared with"
            )
            found.append(Violation(path, item.lineno, "equality", why))
    return found
