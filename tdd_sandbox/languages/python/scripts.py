"""Python's objects driven by a script (`scripting`): one class of the stub whose `__init__`
takes the case's other inputs and whose methods perform its operations. The driver binds the
case's inputs as names, its operations stripped of what they should answer
(`scripting.unanswered`); the setup's `tdd_script` takes each in turn by the step its name
maps to (`TDD_STEPS`), and a group's on four threads at once."""

from __future__ import annotations

import ast
import keyword
from collections.abc import Callable, Iterable, Sequence

from tdd_sandbox.languages.scripting import OPERATIONS, Script, choose_script, is_script, scripted
from tdd_sandbox.vocabulary.cases import CallMap, Case

HELPER = """
def tdd_script(made, operations):
    outcomes = []
    for operation in operations:
        try:
            answer = tdd_take(made, operation)
        except BaseException as exc:  # any throwable, inside the step
            outcomes.append(tdd_error(exc))
        else:
            outcomes.append({"value": answer})
    return outcomes


def tdd_take(made, operation):
    if isinstance(operation.get("operations"), list):
        return tdd_together(made, operation.get("number", 1), operation["operations"])
    return TDD_STEPS[operation["operation"]](made, operation)


def tdd_together(made, times, operations):
    import threading

    lock, failed, taken = threading.Lock(), [], [0]

    def work():
        while True:
            with lock:
                if taken[0] >= times or failed:
                    return
                taken[0] += 1
            try:
                for operation in operations:
                    tdd_take(made, operation)
            except BaseException as exc:
                with lock:
                    failed.append(exc)
                return

    workers = [threading.Thread(target=work) for _ in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    if failed:
        raise failed[0]
"""
"""The driver's script, in the setup: each step's answer or error, in order; a group's
steps run `number` times over on four threads, its first error the group's."""


def derive_python_scripts(
    cases: Sequence[Case],
    modules: Iterable[tuple[str, ast.Module]],
    names: Callable[[str], Sequence[str]],
    errors: frozenset[str],
) -> CallMap | None:
    """The calls that perform every case by a script on the one class of the stub's
    `modules` whose methods perform every operation; None where no one class does."""
    if not is_script(cases):
        return None
    found: list[tuple[str, Script]] = []
    for module, tree in modules:
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                made, methods = _arities(node)
                script = choose_script(cases, node.name, methods, made, names)
                if isinstance(script, Script):
                    found.append((module, script))
    if len(found) != 1:
        return None
    module, script = found[0]
    if not all(n.isidentifier() and not keyword.iskeyword(n) for n in script.made_with):
        return None
    steps = {
        operation: f"lambda tdd_made, tdd_op: tdd_made.{method}("
        + ", ".join(f"tdd_op[{field!r}]" for field in script.arguments[operation])
        + ")"
        for operation, method in script.methods.items()
    }
    table = ", ".join(f"{operation!r}: {step}" for operation, step in steps.items())
    setup = f"from {module} import {script.owner}\n{HELPER}\nTDD_STEPS = {{{table}}}"
    call = f"tdd_script({script.owner}({', '.join(script.made_with)}), {OPERATIONS})"
    return scripted(cases, call, steps, setup=setup, errors=errors)


def _arities(node: ast.ClassDef) -> tuple[int, dict[str, int]]:
    """How many arguments a class's `__init__` takes after `self`, and its public methods'."""
    made, methods = 0, {}
    for item in node.body:
        if isinstance(item, ast.FunctionDef):
            count = max(len(item.args.posonlyargs + item.args.args) - 1, 0)
            if item.name == "__init__":
                made = count
            elif not item.name.startswith("_"):
                methods[item.name] = count
    return made, methods
