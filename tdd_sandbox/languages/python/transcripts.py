"""A Python track's own unittest tests as data (`transcribing` says how, and why): zipper's
`Zipper.from_tree(tree).left().right().value()`, a reactive cell's callbacks.

A test transcribes where each thing it asserts against is a literal, or a name it binds to
one and uses for nothing else; where it asserts with `assertEqual` and its kin,
`assertCountEqual` and `assertSetEqual` (any order), `assertTrue` and `assertFalse` (of a
value, or of `==`), `assertIsNone` and `assertIsNotNone`, or expects an error (`with
self.assertRaises(E) as err:`, its message read from `err.exception.args[0]`); and where it
uses `self` for nothing else but the helper methods of its class that assert nothing."""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from tdd_sandbox.languages.literal_reader import NO, SetLiteral
from tdd_sandbox.languages.python.assertions import (
    ANY_ORDER,
    EQUAL,
    TRUTH,
    as_plain,
    assertion_of,
    compares,
    is_kind_of,
    is_message_of,
    literal,
    raised_name,
    uses_self,
)
from tdd_sandbox.languages.python.helpers import helper_methods, unbound
from tdd_sandbox.languages.transcribing import (
    OwnAnswers,
    Transcribed,
    Transcript,
    Untranscribable,
    needed_names,
)
from tdd_sandbox.vocabulary.cases import CallMap, Case

HELPER = """
def tdd_check(answer):
    try:
        return {"value": tdd_plain(answer())}
    except BaseException as exc:  # any throwable, inside the check
        return tdd_error(exc)
"""
"""The transcript's one helper: an asserted value as plain data when it is asserted (code
that runs later could change a list it holds), or the error it raised instead."""
_STEPS = "tdd_steps"


@dataclass
class _Transcript(Transcript):
    computed: set[str] = field(default_factory=set)
    """The names the test binds to something other than a literal."""
    raised: str = ""
    """The name `assertRaises(...) as` binds, while a message about it may follow."""

    def ask(
        self, node: ast.expr, asked: str, wanted: Any, said: str = "", any_order: bool = False
    ) -> None:
        """A step that answers what `asked` (the test's `node`, as the driver asks it)
        evaluates to, held to `wanted`; refused where `node` compares beside the code."""
        if compares(node):
            raise Untranscribable(f"it compares beside the code: {ast.unparse(node)}")
        line = f"{_STEPS}.append(tdd_check(lambda: {asked}))"
        self.check(line, said or ast.unparse(node), wanted, any_order)


def derive_python_transcripts(
    cases: Sequence[Case], tests: Mapping[str, bytes], errors: frozenset[str]
) -> CallMap | str:
    """Each test of the track's transcribed (`CallMap.transcripts`), the data's case it is
    named as or one of its own, what its steps must answer restated (`CallMap.restated`);
    or why the tests cannot be read so."""
    setup, methods, helpers = [], [], {}
    for path, data in sorted(tests.items()):
        try:
            module = ast.parse(data.decode("utf-8", "replace"), filename=path)
        except SyntaxError as exc:
            return f"the track's test {path} does not parse ({exc.msg})"
        setup += [ast.unparse(n) for n in module.body if isinstance(n, ast.Import | ast.ImportFrom)]
        classes = [node for node in module.body if isinstance(node, ast.ClassDef)]
        found = [item for node in classes for item in node.body]
        methods += [m for m in found if isinstance(m, ast.FunctionDef) and m.name[:4] == "test"]
        helpers.update(helper_methods(module))
    if not methods:
        return "the track's tests define no test method"
    made = Transcribed(cases)
    for method in methods:
        case = made.case_of(method.name.removeprefix("test").strip("_").replace("_", " "))
        if refused := made.take(case, method.name, partial(_source, method, helpers)):
            return refused
    shown = {name: ast.unparse(helper) for name, helper in helpers.items()}
    used = [shown[name] for name in needed_names(made.transcripts.values(), shown, _names)]
    return made.calls("\n".join([*dict.fromkeys(setup), HELPER, *used]), errors=errors)


def _source(
    method: ast.FunctionDef, helpers: Mapping[str, ast.FunctionDef]
) -> tuple[str, Transcript]:
    """The test as the driver runs it: its statements, then the steps they answered."""
    transcript = _transcribe(unbound(method, helpers))
    return "\n".join([f"{_STEPS} = []", *transcript.lines, _STEPS]), transcript


def _transcribe(method: ast.FunctionDef) -> _Transcript:
    """The test's statements, its assertions as steps; raises `Untranscribable`."""
    shipped_names = _names_used_by_the_code(method.body)
    transcript = _Transcript(computed=_computed_names(method))
    for statement in method.body:
        _take(statement, transcript, shipped_names)
    if not transcript.steps:
        raise Untranscribable("it asserts nothing")
    return transcript


def _take(statement: ast.stmt, transcript: _Transcript, shipped: set[str]) -> None:
    """One statement of the test, into the transcript."""
    assertion = assertion_of(statement)
    if assertion is not None:
        _assert(*assertion, transcript)
        return
    if isinstance(statement, ast.With) and (raising := raised_name(statement)) is not None:
        _raise(statement, raising, transcript)
        return
    if uses_self(statement):
        raise Untranscribable(f"it uses the test case itself: {_shown(statement)}")
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target = statement.targets[0]
        value = literal(statement.value, {})
        if isinstance(target, ast.Name) and value is not NO and target.id not in shipped:
            transcript.host[target.id] = value
            return  # what it binds is asserted against only: it stays here
    transcript.lines.append(ast.unparse(statement))


def _assert(name: str, arguments: list[ast.expr], transcript: _Transcript) -> None:
    if name in ("assertTrue", "assertFalse") and arguments:
        compared = arguments[0]
        if isinstance(compared, ast.Compare) and [type(o) for o in compared.ops] == [ast.Eq]:
            if name == "assertFalse":
                raise Untranscribable(f"it asserts that two values differ: {ast.unparse(compared)}")
            name, arguments = "assertEqual", [compared.left, compared.comparators[0]]
        elif any(isinstance(n, ast.Compare | ast.BoolOp) for n in ast.walk(compared)):
            # `x in [1, 2]` would hold its literal against the code in the sandbox.
            raise Untranscribable(f"it asserts a comparison: {ast.unparse(compared)}")
    if name in TRUTH and arguments:
        form, wanted = TRUTH[name]
        asked = form.format(ast.unparse(arguments[0]))
        transcript.ask(arguments[0], asked, wanted, f"{name}({ast.unparse(arguments[0])})")
        return
    if name not in EQUAL | ANY_ORDER or len(arguments) < 2:
        raise Untranscribable(f"it asserts with {name}")
    first, second = arguments[:2]
    if transcript.raised and is_message_of(first, transcript.raised):
        message = literal(second, transcript.host)
        if not isinstance(message, str):
            raise Untranscribable("it expects an error message that is no literal")
        transcript.steps[-1] = {**transcript.steps[-1], "expected": {"error": message}}
        transcript.steps[-1].pop("should_succeed", None)
        return
    if transcript.raised and is_kind_of(first, transcript.raised):
        return  # the kinds that count are the kata's (`CallMap.errors`)
    for asked_node, held in ((first, second), (second, first)):
        wanted = literal(held, transcript.host)
        if wanted is not NO and literal(asked_node, transcript.host) is NO:
            any_order = name in ANY_ORDER or isinstance(wanted, SetLiteral)
            text = ast.unparse(asked_node)
            asked = f"list({text})" if any_order else text
            transcript.ask(asked_node, asked, as_plain(wanted), any_order=any_order)
            return
    for side in (first, second):
        if not _computed(side, transcript.computed):
            # The code could choose it (go-counting's `BLACK`), or it is no literal.
            raise Untranscribable(f"it asserts against {ast.unparse(side)}, a name of the code's")
    raise OwnAnswers


def _computed(node: ast.expr, computed: set[str]) -> bool:
    """Whether `node` is an answer of the code's: it calls, or reads a name the test binds
    to something other than a literal."""
    return any(
        isinstance(n, ast.Call) or (isinstance(n, ast.Name) and n.id in computed)
        for n in ast.walk(node)
    )


def _raise(statement: ast.With, name: str, transcript: _Transcript) -> None:
    """The block that must fail, as one step that answers its error (or no error)."""
    if any(uses_self(inner) for inner in statement.body):
        raise Untranscribable("it asserts inside the block that must fail")
    body = "\n".join("    " + line for s in statement.body for line in ast.unparse(s).split("\n"))
    line = (
        f"try:\n{body}\nexcept BaseException as tdd_exc:\n    {_STEPS}.append(tdd_error(tdd_exc))\n"
        f'else:\n    {_STEPS}.append({{"value": None}})'
    )
    transcript.block(line, "; ".join(ast.unparse(s) for s in statement.body), None)
    transcript.raised = name or "\0"


def _names_used_by_the_code(body: Sequence[ast.stmt]) -> set[str]:
    """The names the shipped part of the test reads: every statement's but the literals'
    the assertions hold against (the actual side is not known yet, so every name an
    assertion's arguments read that another statement binds by a call counts too)."""
    used: set[str] = set()
    for statement in body:
        if (assertion := assertion_of(statement)) is not None:
            nodes: list[ast.AST] = [a for a in assertion[1] if not _is_literal_shape(a)]
        elif isinstance(statement, ast.Assign):
            nodes = [statement.value]
        else:
            nodes = [statement]
        used |= {n.id for node in nodes for n in ast.walk(node) if isinstance(n, ast.Name)}
    return used


def _computed_names(method: ast.FunctionDef) -> set[str]:
    """The names the test binds other than to a literal alone: by a call, a loop, a `with`."""
    bound = {
        n.id for n in ast.walk(method) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
    literals = {
        target.id
        for n in ast.walk(method)
        if isinstance(n, ast.Assign) and literal(n.value, {}) is not NO
        for target in n.targets
        if isinstance(target, ast.Name)
    }
    return bound - literals


def _is_literal_shape(node: ast.expr) -> bool:
    """Whether `node` is a literal or a bare name (what may be held against)."""
    return isinstance(node, ast.Name) or literal(node, {}) is not NO


def _names(source: str) -> set[str]:
    """The names a piece of Python source reads or binds."""
    return {n.id for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Name)}


def _shown(node: ast.AST) -> str:
    return ast.unparse(node).split("\n")[0][:80]
