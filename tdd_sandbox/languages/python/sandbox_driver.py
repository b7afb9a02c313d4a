"""The Python acceptance driver. It runs in the sandbox, as the sandbox user, beside the
model's code, and is shipped there by the tool (the model never writes it).

It reads the cases' inputs (never their expected values), imports the code under test once,
then performs each case's call in a forked child with a time limit, so a case that hangs or
crashes fails alone. Each result goes back as plain data only: exact `str`, `int`, `float`,
`bool`, `None`, lists and string-keyed maps, and an object of a class of the code's own as
the map of its public attributes; anything else (a `str` subclass with its own `__eq__`, say)
is reported as not plain. The model's code can rewrite anything in this process, but all it
can forge is its own answers: the judging happens on the host.
"""

from __future__ import annotations

import ast
import json
import linecache
import math
import os
import select
import signal
import sys
import time
from pathlib import Path
from typing import Any

TREE = "/work/"
CALLS = TREE + ".tdd/acceptance/calls.json"
RESULTS = "/tmp/tdd-acceptance/results.json"
VALUE_LIMIT = 64 * 1024


class NotPlain(Exception):
    """A result that is not plain data."""


def plain(value: Any, depth: int = 0) -> Any:
    """`value` as plain data, by exact type (subclasses are refused)."""
    kind = type(value)
    if depth > 32:
        raise NotPlain("a structure nested too deep")
    if value is None or kind in (bool, int, str):
        return value
    if kind is float:
        if not math.isfinite(value):
            raise NotPlain(f"the float {value!r}")
        return value
    if kind in (list, tuple):
        return [plain(item, depth + 1) for item in value]
    if kind is dict and all(type(key) is str for key in value):
        return {key: plain(item, depth + 1) for key, item in value.items()}
    fields = getattr(value, "__dict__", None)
    if type(fields) is dict and own_class(kind):
        # An object of a class of the code's own (a tree, a record) reads as its public
        # attributes, as a track's tests read it (`tree.children`): the data's map.
        return {key: plain(item, depth + 1) for key, item in fields.items()
                if type(key) is str and not key.startswith("_")}  # fmt: skip
    raise NotPlain(f"a {kind.__name__}")


def own_class(kind: type) -> bool:
    """Whether `kind` and each of its bases but `object` are the code's own: defined in a
    module of the tree (a subclass of `str` or of an `Enum` is not plain data)."""
    for base in kind.__mro__[:-1]:
        module = sys.modules.get(base.__module__)
        if not str(getattr(module, "__file__", None) or "").startswith(TREE):
            return False
    return True


def compile_call(source: str) -> tuple[Any, Any]:
    """A call's statements and its final expression, compiled."""
    tree = ast.parse(source, mode="exec")
    if not tree.body or not isinstance(tree.body[-1], ast.Expr):
        raise SyntaxError(f"the call {source!r} must end with an expression")
    last = tree.body.pop()
    assert isinstance(last, ast.Expr)
    body = compile(tree, "<call>", "exec")
    value = compile(ast.Expression(last.value), "<call>", "eval")
    return body, value


def error_report(exc: BaseException) -> dict[str, Any]:
    """An error as a case's report: its message, its kind and its kinds' bases (`object` is
    no kind); the setup's scripts report each step's error so too (`tdd_error`)."""
    bases = [kind.__name__ for kind in type(exc).__mro__[1:-1]]
    said = text(exc)
    if said is None:
        # Never the error of some other call: an error that cannot be read fails its case.
        return {"failure": f"raised a {type(exc).__name__} whose text cannot be read"}
    return {"error": said, "error_type": type(exc).__name__, "error_kinds": bases}


def text(exc: BaseException) -> str | None:
    """An error's text; None where reading it raises (its text is the code's)."""
    try:
        return str(exc)
    except BaseException:  # noqa: BLE001 - the code's `__str__` may raise anything
        return None


def where(exc: BaseException) -> str:
    """Where in the code under test `exc` was raised, as a SyntaxError says it (`(path, line
    N: `code`)`), from its deepest frame in the tree; "" where none is there. A second try
    that hears `NameError: name 'unittest' is not defined` alone cannot tell that its code
    is fine and the tests it copied below it are not."""
    place = ""
    try:
        step = exc.__traceback__
        while step is not None:
            name = step.tb_frame.f_code.co_filename
            if name.startswith(TREE) and not name.startswith(TREE + ".tdd/"):
                code = linecache.getline(name, step.tb_lineno).strip()[:160]
                place = f" ({name[len(TREE) :]}, line {step.tb_lineno}: `{code}`)"
            step = step.tb_next
    except BaseException:  # noqa: BLE001 - the code may have replaced anything it reads
        return ""
    return place


def told(exc: BaseException) -> str:
    """An error as a second try hears it: its kind, its text and where it was raised (a
    SyntaxError's text says where)."""
    said = text(exc)
    if said is None:
        said = "(its text cannot be read)"
    return f"{type(exc).__name__}: {said}{'' if isinstance(exc, SyntaxError) else where(exc)}"


def perform(code: tuple[Any, Any], namespace: dict[str, Any], inputs: dict[str, Any]) -> Any:
    """Run one call; its report."""
    scope = {**namespace, **inputs}
    try:
        exec(code[0], scope)  # noqa: S102 - the kata's own call mapping, written by its author
        value = eval(code[1], scope)  # noqa: S307 - idem
    except BaseException as exc:  # noqa: BLE001 - an error is the case's result
        return error_report(exc)
    try:
        return {"value": plain(value)}
    except NotPlain as exc:
        return {"failure": f"returned {exc}, which is not plain data"}


def run_case(code: tuple[Any, Any], namespace: dict[str, Any], inputs: dict[str, Any],
             timeout_s: float) -> dict[str, Any]:  # fmt: skip
    """One case in a forked child: its report, or why there is none."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        try:
            data = json.dumps(perform(code, namespace, inputs)).encode()
        except BaseException as exc:  # noqa: BLE001
            data = json.dumps({"failure": f"could not report: {type(exc).__name__}"}).encode()
        if len(data) > VALUE_LIMIT:
            data = json.dumps({"failure": f"result over {VALUE_LIMIT} bytes"}).encode()
        view = memoryview(data)
        while view:
            view = view[os.write(write_end, view) :]
        os._exit(0)
    os.close(write_end)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout_s
    timed_out = False
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            timed_out = True
            break
        ready, _, _ = select.select([read_end], [], [], left)
        if not ready:
            continue
        chunk = os.read(read_end, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(read_end)
    if timed_out:
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    if timed_out:
        return {"failure": f"timed out after {timeout_s:g}s"}
    try:
        report: dict[str, Any] = json.loads(b"".join(chunks))
    except ValueError:
        return {"failure": f"crashed (wait status {status})"}
    return report


def main() -> None:
    """Import the code under test, run every case, write the reports."""
    spec = json.loads(Path(CALLS).read_text(encoding="utf-8"))
    Path(RESULTS).parent.mkdir(parents=True, exist_ok=True)
    # The code's own prints go to stderr; stdout stays the driver's.
    os.dup2(2, 1)
    sys.path.insert(0, TREE.rstrip("/"))
    # The setup's scripts and transcripts report a step's error (`tdd_error`), and read an
    # answer as plain data when it is given (`tdd_plain`): code that runs later could
    # change a list it still holds.
    namespace: dict[str, Any] = {"__name__": "tdd_acceptance", "tdd_error": error_report,
                                 "tdd_plain": plain}  # fmt: skip
    document: dict[str, Any] = {"cases": {}}
    try:
        exec(spec["setup"], namespace)  # noqa: S102 - the kata's own setup line
    except BaseException as exc:  # noqa: BLE001 - reported, then nothing can run
        document["problem"] = f"the code did not import: {told(exc)}"[:2000]
    else:
        calls = {name: compile_call(source) for name, source in spec["calls"].items()}
        for case in spec["cases"]:
            report = run_case(calls[case["property"]], namespace, case["input"],
                              float(spec["timeout_s"]))  # fmt: skip
            document["cases"][case["id"]] = report
    Path(RESULTS).write_text(json.dumps(document), encoding="utf-8")


if __name__ == "__main__":
    main()
