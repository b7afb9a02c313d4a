"""The static policy for Python, checked before anything runs: code imports only what
`modules` allows, and uses none of the builtins and attributes a kata needs none of (it runs in
the test runner's process, so they would let it patch the runner, read the caller's frames or
the tests' answers). Names no reader of the text sees (an attribute reached by a computed name,
a module passed around as a value) are refused too: an allow-list means nothing if the code
can name what it reaches at run time."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Mapping

from tdd_sandbox.languages.python import modules
from tdd_sandbox.languages.python.disguises import equality_bindings, text_as_code
from tdd_sandbox.languages.python.reader import JUDGE_PYTHON, parse_python
from tdd_sandbox.vocabulary.violation import Violation

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


_CODING = re.compile(r"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", re.MULTILINE)


# Calls that reach an attribute by a name given as data: fine with a literal name (checked as
# the attribute it names), refused with one built at run time, which no reader sees.
_NAMED_ACCESS = frozenset(
    {"getattr", "setattr", "delattr", "hasattr", "attrgetter", "methodcaller"}
)

# A field name that walks to a private attribute, braces or none: `"{0.__globals__}"` for
# str.format, `"0.__globals__"` for string.Formatter's get_field.
_FORMAT_WALK = re.compile(r"[\w\]{]\s*\.\s*_")
# Calls that read a template's fields, and where the template is: the object formatted
# (`t.format(...)`), or the first argument (`str.format(t, ...)`, a Formatter's methods).
_TEMPLATE_ON_OBJECT = frozenset({"format", "format_map"})
_TEMPLATE_FIRST = frozenset({"vformat", "get_field", "get_value"})
_TEMPLATE_METHODS = _TEMPLATE_ON_OBJECT | _TEMPLATE_FIRST


def check_python(path: str, text: str, *, is_test: bool = False) -> list[Violation]:
    """Violations in one Python file (as `python_text` reads it), its imports held to
    `modules`' allow-list. Test files may import pytest and unittest."""
    found: list[Violation] = []
    for match in _CODING.finditer("\n".join(text.splitlines()[:2])):
        if match.group(1).lower().replace("_", "-") not in ("utf-8", "utf8"):
            found.append(Violation(path, 1, "encoding", f"declares the source encoding "
                                   f"{match.group(1)!r}: kata code is UTF-8"))  # fmt: skip
    try:
        tree = parse_python(text)
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

    def flag(node: ast.AST, rule: str, why: str) -> None:
        found.append(Violation(path, getattr(node, "lineno", 0), rule, why))

    allowed = modules.PURE_MODULES | (modules.TEST_MODULES if is_test else frozenset())
    aliases = _module_aliases(tree)
    nodes = list(ast.walk(tree))
    constants = _string_constants(nodes)
    # Names read as `module.attribute`: a module named anywhere else is handed on as a value.
    reached = {id(n.value) for n in nodes if isinstance(n, ast.Attribute)}
    calls = {id(n.func): n for n in nodes if isinstance(n, ast.Call)}
    called = calls.keys()
    for node in nodes:
        for module in _imported(node):
            root = module.split(".")[0]
            if root not in allowed and not modules.is_own(root):
                flag(node, f"import:{root}", f"imports {module}, which {modules.reason(root)}")
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                if refused := _module_name(node.module, alias.name):
                    flag(node, *refused)
        # A bare name, called or not: `f = eval` is as bad as `eval(...)`.
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            if node.id in _PY_CALLS:
                flag(node, f"call:{node.id}", f"uses {node.id}(), which {_PY_CALLS[node.id]}")
            if node.id in aliases and id(node) not in reached:
                flag(node, f"module:{aliases[node.id]}", f"hands the module "
                     f"{aliases[node.id]} on as a value, where no reader sees what of it "
                     "is used")  # fmt: skip
            if node.id in _NAMED_ACCESS and id(node) not in called:
                flag(node, f"call:{node.id}", f"hands {node.id} on, which reaches attributes "
                     "by names built at run time")  # fmt: skip
        if isinstance(node, ast.Call):
            _check_named_access(node, flag)
        if isinstance(node, ast.Attribute) and node.attr in _TEMPLATE_METHODS:
            _check_template(node, calls, constants, flag)
        if isinstance(node, ast.Attribute):
            owner = _owner(node.value, aliases)
            if owner is not None and (refused := _module_name(owner, node.attr)):
                flag(node, *refused)
            if node.attr in _PY_INTROSPECTION:
                flag(node, f"attr:{node.attr}", f"uses {node.attr}, which reaches the "
                     "interpreter's internals")  # fmt: skip
        if isinstance(node, ast.Name) and node.id in ("__builtins__", "__loader__", "__spec__"):
            flag(node, f"name:{node.id}", f"uses {node.id}, which reaches the interpreter")
        if isinstance(node, ast.Constant) and _FORMAT_WALK.search(str(node.value)):
            flag(node, "attr:format", "a format field walks to a private attribute")
    if not is_test:  # the tests are the track's or the tester's, not the code under test
        found += text_as_code(path, tree) + equality_bindings(path, tree)
    return found


def _module_name(module: str, name: str) -> tuple[str, str] | None:
    """The rule and reason refusing `module.name`, or `from module import name`: a private
    name, a module of the standard library reached through another (`typing.sys`), or what
    `os` and `sys` keep off-limits. None when it is fine."""
    key = (module.split(".")[0], name)
    if key in _PY_ATTRIBUTES:
        return f"attr:{module}.{name}", f"uses {module}.{name}, which {_PY_ATTRIBUTES[key]}"
    if module == "sys" and name not in modules.SYS_NAMES:
        return f"attr:sys.{name}", f"uses sys.{name}: code may use sys's numbers only"
    if name.startswith("_") and module != "__future__":
        return f"attr:{module}.{name}", f"uses {module}.{name}, a module's private name"
    if modules.is_module_name(name) and name not in modules.PURE_MODULES - {"sys"}:
        return f"attr:{module}.{name}", (
            f"reaches the module {name} through {module}, which {modules.reason(name)}"
        )
    return None


def _check_named_access(node: ast.Call, flag: Callable[[ast.AST, str, str], None]) -> None:
    """getattr and its kin: the name must be a literal, then checked as the attribute it is."""
    func = node.func
    name = (
        func.id
        if isinstance(func, ast.Name)
        else func.attr
        if isinstance(func, ast.Attribute)
        else ""
    )
    if name not in _NAMED_ACCESS:
        return
    at = 0 if name in ("attrgetter", "methodcaller") else 1
    named = node.args[at:] if name == "attrgetter" else node.args[at : at + 1]
    for arg in named:
        if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
            flag(node, f"call:{name}", f"{name} with a name built at run time reaches what "
                 "no reader of the text sees")  # fmt: skip
            continue
        if arg.value in _TEMPLATE_METHODS:
            flag(node, f"format:{arg.value}", f"{name} hands on {arg.value}, which reads "
                 "templates whose fields may walk to attributes")  # fmt: skip
        for part in arg.value.split("."):
            if part in _PY_INTROSPECTION:
                flag(node, f"attr:{part}", f"uses {part}, which reaches the interpreter's "
                     "internals")  # fmt: skip


def _string_constants(nodes: list[ast.AST]) -> frozenset[str]:
    """Names only ever bound to a string literal (`VERSE = "..."`): a template a reader sees,
    its fields checked as every literal is."""
    literal = {
        id(target)
        for node in nodes
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
        for target in node.targets
    }
    stores = [n for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]
    names = {n.id for n in stores}
    # Bound anywhere else (another value, a loop, a with, `+=`, a walrus): not a constant.
    names -= {n.id for n in stores if id(n) not in literal}
    return frozenset(names)


def _check_template(
    node: ast.Attribute,
    calls: Mapping[int, ast.Call],
    constants: frozenset[str],
    flag: Callable[[ast.AST, str, str], None],
) -> None:
    """A format template must be one a reader sees: a literal, or a name bound only to one.
    Its fields may walk to attributes (`{0.__globals__}`), whatever method reads them, and a
    template built at run time hides the walk from every check of the text. A method that
    reads templates handed on (`fmt = t.format`) is read where no reader follows it."""
    if node.attr in _TEMPLATE_ON_OBJECT and not _is_str_type(node.value):
        template: ast.AST | None = node.value  # `t.format(...)`, called here or later
    else:
        call = calls.get(id(node))  # `str.format(t, ...)` and a Formatter's methods
        template = call.args[0] if call is not None and call.args else None
    if not _seen_template(template, constants):
        flag(node, f"format:{node.attr}", f"{node.attr} with a template built at run time, "
             "whose fields may walk to attributes no reader of the text sees")  # fmt: skip


def _is_str_type(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id == "str"


def _seen_template(template: ast.AST | None, constants: frozenset[str]) -> bool:
    return (isinstance(template, ast.Constant) and isinstance(template.value, str)) or (
        isinstance(template, ast.Name) and template.id in constants
    )


def _imported(node: ast.AST) -> Iterable[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
        return [node.module]
    return []


def _owner(node: ast.expr, aliases: dict[str, str]) -> str | None:
    """The dotted path `node` reads when it starts at an imported module (`re.enum` for
    `re.enum`): every step of a chain is checked, since an allowed module's allowed module
    may hold a forbidden one (`re.enum.sys`)."""
    if isinstance(node, ast.Name):
        return aliases.get(node.id)
    if isinstance(node, ast.Attribute) and (base := _owner(node.value, aliases)) is not None:
        return f"{base}.{node.attr}"
    return None


def _module_aliases(tree: ast.Module) -> dict[str, str]:
    """Local name -> module, for `import os`, `import os.path` (binds os), `import os as o`,
    and a module of the standard library imported by name from another
    (`from re import enum`, which is `re.enum`)."""
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                root = alias.name.split(".")[0]
                aliases[alias.asname or root] = alias.name if alias.asname else root
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                if modules.is_module_name(alias.name):
                    aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return aliases
