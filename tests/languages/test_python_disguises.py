"""What hides from a reader of a Python file's names: text that is code, equality bound by
assignment (issue #46). Each attack passed the policy before."""

from __future__ import annotations

import pytest

from tdd_sandbox.languages.python.policy import check_python


def rules(source: str) -> set[str]:
    return {v.rule for v in check_python("impl.py", source)}


@pytest.mark.parametrize(
    "source",
    [
        # typing.get_type_hints evaluates a string annotation in the module's globals.
        "def f(x: \"__import__('os').system('id')\") -> None:\n    pass\n",
        "def f(x) -> \"setattr(T, 'assertIs', print)\":\n    pass\n",
        'x: "list[(lambda: 1)()]" = []\n',
        # A string handed to typing's own readers later, or kept for a reader at run time.
        "import typing\n\nREF = typing.List[\"__import__('sys')\"]\n",
        'CODE = "(lambda: None).__globals__"\n',
        'NAME = "x.__class__.__bases__"\n',
        'BUILTINS = "__builtins__"\n',
    ],
)
def test_text_that_reads_as_code_is_refused(source: str) -> None:
    assert "text-code" in rules(source)


@pytest.mark.parametrize(
    "source",
    [
        'import typing\n\nf.__annotations__["x"] = "y"\n',
        "import typing\n\nR = typing.ForwardRef(name)\n",
        "from typing import ForwardRef\n",
    ],
)
def test_the_routes_to_text_read_as_annotations_are_refused(source: str) -> None:
    assert rules(source) & {"typing:__annotations__", "typing:ForwardRef"}


@pytest.mark.parametrize(
    "body",
    [
        "    __eq__ = lambda self, other: True\n",
        "    __eq__: object = lambda self, other: True\n",
        "    __ne__ = lambda self, other: False\n",
        "    __eq__ = _always\n",
        "    __eq__, x = _always, 1\n",
    ],
)
def test_equality_bound_by_assignment_is_held_to_the_rules_of_def(body: str) -> None:
    source = f"def _always(a, b):\n    return True\n\n\nclass Anything:\n{body}"
    assert "equality" in rules(source)


@pytest.mark.parametrize(
    "source",
    [
        "class A:\n    pass\n\n\nA.__eq__ = lambda self, other: True\n",
        'class A:\n    pass\n\n\nsetattr(A, "__eq__", lambda self, other: True)\n',
        'A = type("A", (), {"__eq__": lambda self, other: True})\n',
    ],
)
def test_equality_set_from_outside_a_class_is_refused(source: str) -> None:
    assert "equality" in rules(source)


def test_honest_code_keeps_its_strings_annotations_and_equality() -> None:
    source = (
        '"""A module: f(x) is documented here, as code in a docstring is."""\n\n'
        "from __future__ import annotations\n\n"
        "import dataclasses\n\n\n"
        "@dataclasses.dataclass\n"
        "class Node:\n"
        '    """Node(value).next() is fine in a docstring."""\n\n'
        '    value: "int"\n'
        '    children: "list[Node]"\n'
        "    __hash__ = None  # type: ignore[assignment]\n\n"
        '    def merge(self, other: "Node | None") -> "Node":\n'
        "        return self\n\n"
        "    def __eq__(self, other: object) -> bool:\n"
        "        return isinstance(other, Node) and other.value == self.value\n\n\n"
        'GREETING = "Hello, World!"\n'
        'PATTERN = "(a|b)*c"\n'
        'ERROR = "invalid input (negative numbers)"\n'
        'WORDS = "x y z"\n'
        'EXPR = "1 + 2 * (3 - 4)"\n'
        'METHOD = "__init__"\n'
    )
    assert check_python("impl.py", source) == []
